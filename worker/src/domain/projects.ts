import { and, asc, desc, eq } from "drizzle-orm";
import { accounts, projectMembers, projects } from "../db/accounts.ts";
import type { Database } from "../db/client.ts";
import { ApiError, badRequest, conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { freeTextProblem } from "../schemas/text.ts";
import { DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS } from "./retention.ts";

export type ProjectRow = typeof projects.$inferSelect;
export type MemberRole = (typeof projectMembers.$inferSelect)["role"];

export const MAX_PROJECT_NAME_LENGTH = 100;

export function validProjectName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > MAX_PROJECT_NAME_LENGTH) {
    throw badRequest("body.name", `A project name is 1 to ${MAX_PROJECT_NAME_LENGTH} characters`);
  }
  const problem = freeTextProblem(trimmed);
  if (problem) throw badRequest("body.name", problem);
  return trimmed;
}

/** The rows of a new project and of its owner's membership, to insert together. */
export function newProjectRows(accountId: string, name: string, now: string) {
  const project: ProjectRow = {
    id: newId("prj"),
    name: validProjectName(name),
    createdAt: now,
    retentionDays: DEFAULT_RETENTION_DAYS,
  };
  const owner: typeof projectMembers.$inferInsert = {
    projectId: project.id,
    accountId,
    role: "owner",
    createdAt: now,
  };
  return { project, owner };
}

export async function createProject(db: Database, accountId: string, name: string, now: Date) {
  const { project, owner } = newProjectRows(accountId, name, now.toISOString());
  await db.batch([db.insert(projects).values(project), db.insert(projectMembers).values(owner)]);
  return project;
}

export function projectsOf(db: Database, accountId: string) {
  return db
    .select({
      id: projects.id,
      name: projects.name,
      createdAt: projects.createdAt,
      role: projectMembers.role,
    })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .where(eq(projectMembers.accountId, accountId))
    .orderBy(desc(projects.id));
}

/** The project if this account is a member; anyone else gets the same 404 as for no project. */
export async function projectForMember(db: Database, accountId: string, projectId: string) {
  const [found] = await db
    .select({ project: projects, role: projectMembers.role })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.accountId, accountId)))
    .limit(1);
  if (!found) throw notFound("Project");
  return found;
}

export async function renameProject(db: Database, projectId: string, name: string) {
  await db
    .update(projects)
    .set({ name: validProjectName(name) })
    .where(eq(projects.id, projectId));
}

/** How long the project's closed sessions are kept (SPEC §19), from a form's text. */
export async function setRetentionDays(db: Database, projectId: string, value: string) {
  const days = Number(value.trim());
  if (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS)
    throw badRequest(
      "body.retention_days",
      `Retention is a whole number of days from 1 to ${MAX_RETENTION_DAYS}`,
      value,
    );
  await db.update(projects).set({ retentionDays: days }).where(eq(projects.id, projectId));
}

export function membersOf(db: Database, projectId: string) {
  return db
    .select({
      accountId: accounts.id,
      email: accounts.email,
      role: projectMembers.role,
      addedAt: projectMembers.createdAt,
    })
    .from(projectMembers)
    .innerJoin(accounts, eq(accounts.id, projectMembers.accountId))
    .where(eq(projectMembers.projectId, projectId))
    .orderBy(asc(projectMembers.createdAt));
}

/** Only an owner may act on others; anyone may leave. */
export function assertOwner(role: string, action: string) {
  if (role !== "owner") throw new ApiError(403, `Only an owner of this project can ${action}`);
}

export async function removeMember(
  db: Database,
  projectId: string,
  accountId: string,
  actor: { accountId: string; role: string },
) {
  if (actor.accountId !== accountId) assertOwner(actor.role, "remove members");
  const members = await membersOf(db, projectId);
  const target = members.find((member) => member.accountId === accountId);
  if (!target) throw notFound("Member");
  if (target.role === "owner" && members.filter((member) => member.role === "owner").length === 1) {
    throw conflict("A project keeps at least one owner");
  }
  await db
    .delete(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.accountId, accountId)));
}
