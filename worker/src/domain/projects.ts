import { and, asc, count, desc, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { shardDb, shardNames, shardNumber } from "../db/databases.ts";
import { accounts, projectMembers, projects, shards } from "../db/directory.ts";
import { projectSettings } from "../db/project-settings.ts";
import type { Env } from "../env.ts";
import { ApiError, badRequest, conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { objectStub } from "../lib/meter.ts";
import { DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS } from "../schemas/limits.ts";
import { freeTextProblem } from "../schemas/text.ts";

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

/** The rows of a new project on `shard` and of its owner's membership, to insert together. */
export function newProjectRows(accountId: string, name: string, shard: string, now: string) {
  const project: ProjectRow = {
    id: newId("prj"),
    name: validProjectName(name),
    createdAt: now,
    retentionDays: DEFAULT_RETENTION_DAYS,
    shard,
    requireSecondFactor: false,
  };
  const owner: typeof projectMembers.$inferInsert = {
    projectId: project.id,
    accountId,
    role: "owner",
    createdAt: now,
  };
  return { project, owner };
}

/**
 * The shard a new project goes to: the emptiest as last measured (the cron records
 * each shard's size), one not measured yet first — a shard just added; ties go to the one
 * holding fewest projects. Existing projects never move by themselves.
 */
export async function emptiestShard(env: Env, directory: Database): Promise<string> {
  const names = shardNames(env);
  const [sizes, held] = await directory.batch([
    directory.select().from(shards),
    directory
      .select({ shard: projects.shard, projects: count() })
      .from(projects)
      .groupBy(projects.shard),
  ]);
  const size = new Map(sizes.map((row) => [row.name, row.sizeBytes]));
  const projectsOn = new Map(held.map((row) => [row.shard, row.projects]));
  const rank = (shard: string) => [size.get(shard) ?? 0, projectsOn.get(shard) ?? 0];
  const [first] = [...names].sort((a, b) => {
    const [sizeA = 0, heldA = 0] = rank(a);
    const [sizeB = 0, heldB = 0] = rank(b);
    return sizeA - sizeB || heldA - heldB || shardNumber(a) - shardNumber(b);
  });
  if (!first) throw new Error("No index shard is bound to this Worker (wrangler.toml)");
  return first;
}

/**
 * A new project: placed on the emptiest shard, which learns its retention first (a row there
 * alone is harmless), then the directory's project and its owner, together.
 */
export async function createProject(
  env: Env,
  directory: Database,
  accountId: string,
  name: string,
  now: Date,
) {
  const shard = await emptiestShard(env, directory);
  const { project, owner } = newProjectRows(accountId, name, shard, now.toISOString());
  await shardDb(env, shard)
    .insert(projectSettings)
    .values({ projectId: project.id, retentionDays: project.retentionDays });
  await directory.batch([
    directory.insert(projects).values(project),
    directory.insert(projectMembers).values(owner),
  ]);
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

/** Whether the project's members need a second factor to open it (owners decide). */
export async function setSecondFactorRequired(db: Database, projectId: string, required: boolean) {
  await db
    .update(projects)
    .set({ requireSecondFactor: required })
    .where(eq(projects.id, projectId));
}

export async function renameProject(db: Database, projectId: string, name: string) {
  await db
    .update(projects)
    .set({ name: validProjectName(name) })
    .where(eq(projects.id, projectId));
}

/** A form's text as a retention: a whole number of days, 1 … MAX_RETENTION_DAYS. */
export function retentionDaysOf(value: string): number {
  const days = Number(value.trim());
  if (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS)
    throw badRequest(
      "body.retention_days",
      `Retention is a whole number of days from 1 to ${MAX_RETENTION_DAYS}`,
      value,
    );
  return days;
}

/**
 * How long the project's closed sessions are kept: the directory's record, then its shard's copy
 * that the shard's sweep and its sessions' objects read. A change is whole or not made:
 * the directory first, so a shard never erases by a value the project does not show; if the
 * shard cannot take it, the directory's value is put back and the failure thrown (a 503 that
 * changed nothing).
 */
export async function setRetentionDays(
  ctx: { env: Env; directory: Database; shard: string; projectId: string },
  days: number,
) {
  const [before] = await ctx.directory
    .select({ retentionDays: projects.retentionDays })
    .from(projects)
    .where(eq(projects.id, ctx.projectId));
  if (!before) throw notFound("Project");
  const set = (retentionDays: number) =>
    ctx.directory.update(projects).set({ retentionDays }).where(eq(projects.id, ctx.projectId));
  await set(days);
  try {
    await shardDb(ctx.env, ctx.shard)
      .insert(projectSettings)
      .values({ projectId: ctx.projectId, retentionDays: days })
      .onConflictDoUpdate({ target: projectSettings.projectId, set: { retentionDays: days } });
  } catch (error) {
    await set(before.retentionDays);
    throw error;
  }
  // The shard's writer reads it again before the project's next push (index-push.ts).
  await objectStub(ctx.env, ctx.env.INDEX_WRITER, ctx.shard)
    .projectChanged(ctx.projectId)
    .catch(() => undefined);
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
