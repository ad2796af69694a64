import { accounts, projectMembers, projects } from "../db/accounts.ts";
import type { Database } from "../db/client.ts";
import { newId } from "../lib/ids.ts";
import { hashPassword } from "./passwords.ts";

export type { AccountRow } from "../db/accounts.ts";
export type ProjectRow = typeof projects.$inferSelect;

export async function newAccountRow(
  email: string,
  password: string,
  now: string,
): Promise<typeof accounts.$inferSelect> {
  return {
    id: newId("acc"),
    email: email.trim().toLowerCase(),
    passwordHash: await hashPassword(password),
    createdAt: now,
  };
}

export function newProjectRows(accountId: string, name: string, now: string) {
  const project: ProjectRow = { id: newId("prj"), name, createdAt: now };
  const owner: typeof projectMembers.$inferInsert = {
    projectId: project.id,
    accountId,
    role: "owner",
    createdAt: now,
  };
  return { project, owner };
}

export async function createAccount(db: Database, email: string, password: string, now: Date) {
  const account = await newAccountRow(email, password, now.toISOString());
  await db.insert(accounts).values(account);
  return account;
}

export async function createProject(db: Database, accountId: string, name: string, now: Date) {
  const { project, owner } = newProjectRows(accountId, name, now.toISOString());
  await db.batch([db.insert(projects).values(project), db.insert(projectMembers).values(owner)]);
  return project;
}
