import { and, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { shardDb } from "../db/databases.ts";
import { apiKeys, erasingProjects, projects } from "../db/directory.ts";
import { projectDays, projectSettings } from "../db/project-settings.ts";
import { sessions } from "../db/sessions.ts";
import { eventRows, webhookInvocations, webhooks } from "../db/webhooks.ts";
import type { Env } from "../env.ts";
import { ApiError, badRequest } from "../lib/errors.ts";
import { encodeTime } from "../lib/ids.ts";
import { log } from "../lib/log.ts";
import { objectStub } from "../lib/meter.ts";
import { INDEX_RETRY_SECONDS, isIndexUnavailable } from "../lib/unavailable.ts";
import { DEFAULT_RETENTION_DAYS, LIMITS } from "../schemas/limits.ts";
import { forgetApiKeys } from "./api-keys.ts";
import { erasureStatements, mayBeHeldForMs } from "./retention.ts";
import { sessionObject } from "./session-address.ts";

/**
 * Deleting a project, or its test data (§20), so that nothing of it ever comes back:
 * its shard marks it first (`project_settings`, the project's row there, is its tombstone), then
 * waits for its writer's transactions under way, so that every push after — an object's that was
 * pending while the shard was away, a create in an isolate that still knew the key — is refused,
 * and its object erases itself (index-push.ts). Then the sessions' objects that may hold them are
 * erased, and the shard's rows, in bounded steps: what one request does not finish, the cron does
 * (sweepErasedProjects).
 */

/** A project, where its data lives: the directory's row and its shard. */
interface PlacedProject {
  env: Env;
  directory: Database;
  shard: string;
  projectId: string;
}

/** Which of a project's data is erased: all of it, or its test data made up to a time. */
type Erased = { all: true } | { all: false; before: string };

/** Rows one erasure statement deletes at most: each statement stays well inside D1's time limit. */
const ERASED_A_STEP = 500;
/** How long a deletion erases rows before it answers; the cron goes on with the rest. */
const ERASE_IN_REQUEST_MS = 10_000;
/** How long the cron looks for rows of a deleted project (or test data) left behind. */
const SWEPT_FOR_MS = 86_400_000;
/** How long the cron's run erases a project's rows, each minute. */
const SWEEP_RUN_MS = 20_000;

/**
 * Marks the project (or its test data) erased in its shard, then waits for the shard's writer:
 * from then on no push for it is written. Answers the erased sessions read back into their
 * objects lately, as the writer noted them.
 */
async function markErased(project: PlacedProject, erased: Erased, now: Date): Promise<string[]> {
  const at = now.toISOString();
  const set = erased.all ? { deletedAt: at } : { testDataDeletedAt: erased.before };
  await shardDb(project.env, project.shard)
    .insert(projectSettings)
    .values({ projectId: project.projectId, retentionDays: DEFAULT_RETENTION_DAYS, ...set })
    .onConflictDoUpdate({ target: projectSettings.projectId, set });
  const readBack = await objectStub(project.env, project.env.INDEX_WRITER, project.shard).fence(
    project.projectId,
  );
  return readBack
    .filter((session) => erased.all || !session.livemode)
    .map((session) => session.sessionId);
}

/**
 * The sessions of the project (or of its test data) whose object may still hold them — open, or
 * closed so recently that the object has not retired — erased through their objects, so their
 * identifiers are refused over `ssh` and their proof pages are gone at once. Open sessions are
 * at most their longest timeout old: a range of the lists' index, not the project's history.
 * A session closed long ago that a read brought back into its object is `readBack` (its shard's
 * writer noted it).
 */
async function eraseHeldSessions(
  project: PlacedProject,
  erased: Erased,
  now: Date,
  readBack: string[],
) {
  const eraseThroughObject = (id: string) =>
    sessionObject(project.env, { sessionId: id }).erase(project.projectId, id, project.shard);
  for (const id of readBack) await eraseThroughObject(id);
  const db = shardDb(project.env, project.shard);
  const heldSince = new Date(now.getTime() - mayBeHeldForMs(project.env)).toISOString();
  const madeSince = encodeTime(
    now.getTime() - LIMITS.maxTimeoutSeconds * 1000 - mayBeHeldForMs(project.env),
  );
  for (const livemode of erased.all ? [true, false] : [false])
    for (const prefix of ["cs_", "vs_"]) {
      let after = prefix + madeSince;
      for (;;) {
        const batch = await db
          .select({ id: sessions.id })
          .from(sessions)
          .where(
            and(
              eq(sessions.projectId, project.projectId),
              eq(sessions.livemode, livemode),
              eq(sessions.kind, prefix === "cs_" ? "collect" : "verify"),
              gt(sessions.id, after),
              lt(sessions.id, `${prefix}~`),
              or(isNull(sessions.completedAt), gt(sessions.completedAt, heldSince)),
            ),
          )
          .orderBy(sessions.id)
          .limit(100);
        for (const { id } of batch) await eraseThroughObject(id);
        const last = batch.at(-1);
        if (!last) break;
        after = last.id;
      }
    }
}

/** Erases the next step of the project's rows (or its test data's), in order: false once none is left. */
async function eraseStep(db: Database, projectId: string, erased: Erased): Promise<boolean> {
  const testOnly = <
    T extends typeof webhooks.livemode | typeof sessions.livemode | typeof projectDays.livemode,
  >(
    livemode: T,
  ) => (erased.all ? undefined : eq(livemode, false));
  // A webhook's deliveries first, a step at a time: its own would go with it, all in one statement.
  const [hook] = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.projectId, projectId), testOnly(webhooks.livemode)))
    .limit(1);
  if (hook) {
    const deliveries = await db
      .delete(webhookInvocations)
      .where(
        sql`(${webhookInvocations.webhookId}, ${webhookInvocations.id}) IN (SELECT ${webhookInvocations.webhookId}, ${webhookInvocations.id} FROM ${webhookInvocations} WHERE ${webhookInvocations.webhookId} = ${hook.id} LIMIT ${ERASED_A_STEP})`,
      )
      .returning({ id: webhookInvocations.id });
    if (deliveries.length === 0) await db.delete(webhooks).where(eq(webhooks.id, hook.id));
    return true;
  }
  // Then its sessions, each with its events (their rows listed in the session's own).
  const cutoff = erased.all ? undefined : erased.before;
  const made = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.projectId, projectId),
        testOnly(sessions.livemode),
        cutoff === undefined ? undefined : sql`${sessions.createdAt} <= ${cutoff}`,
      ),
    )
    .limit(ERASED_A_STEP / 5);
  if (made.length > 0) {
    await db.batch(
      erasureStatements(
        db,
        made.map((row) => row.id),
      ),
    );
    return true;
  }
  // The home page's figures of days gone by (counts only), with the project or its test data.
  const figures = await db
    .delete(projectDays)
    .where(and(eq(projectDays.projectId, projectId), testOnly(projectDays.livemode)))
    .returning({ day: projectDays.day });
  if (figures.length > 0) return true;
  // Last, events no session lists any more (a webhook's pings, the test data's own).
  const left = await db
    .delete(eventRows)
    .where(
      sql`(${eventRows.projectId}, ${eventRows.id}) IN (SELECT ${eventRows.projectId}, ${eventRows.id} FROM ${eventRows} WHERE ${and(
        eq(eventRows.projectId, projectId),
        erased.all ? undefined : and(isNull(eventRows.sessionId), eq(eventRows.livemode, false)),
      )} LIMIT ${ERASED_A_STEP})`,
    )
    .returning({ id: eventRows.id });
  return left.length > 0;
}

/** Erases the project's rows (or its test data's) in steps, for up to `budgetMs`: true when done. */
async function eraseRows(project: PlacedProject, erased: Erased, budgetMs: number) {
  const db = shardDb(project.env, project.shard);
  const started = Date.now();
  while (await eraseStep(db, project.projectId, erased))
    if (Date.now() - started > budgetMs) return false;
  return true;
}

/**
 * Deleting a project: its owner types its name to confirm. In one transaction of the directory,
 * the project goes — its members, invitations and API keys with it — and a note that its shard
 * still holds its data is written (`erasing_projects`): from then on the project is deleted for
 * everyone, and what is left of it is erased whatever fails next. Then its shard marks it erased
 * (no push for it is written from then on), its sessions' objects let them go, its shard's rows
 * go, its idempotency answers are forgotten, and the note goes. What this request does not
 * finish (a shard away, time up) the cron does (finishErasingProjects): `false` says so.
 */
export async function deleteProject(
  project: PlacedProject & { name: string },
  typedName: string,
  now = new Date(),
): Promise<{ erasedNow: boolean }> {
  if (typedName.trim() !== project.name)
    throw badRequest("body.confirm", "Type the project's name exactly to delete it", typedName);
  const { directory, projectId } = project;
  const deleteInDirectory = async () => {
    const keys = await directory
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.projectId, projectId));
    // Nothing is changed until this transaction commits; after it, the deletion stands.
    await directory.batch([
      directory
        .insert(erasingProjects)
        .values({ projectId, shard: project.shard, deletedAt: now.toISOString() }),
      directory.delete(projects).where(eq(projects.id, projectId)),
    ]);
    return keys;
  };
  const keys = await deleteInDirectory().catch((error: unknown) => {
    if (!isIndexUnavailable(error)) throw error;
    throw new ApiError(
      503,
      "keyproof's directory cannot be reached just now: the project was not deleted. Try again in a few seconds.",
      undefined,
      { "Retry-After": String(INDEX_RETRY_SECONDS) },
    );
  });
  // Stops them here at once; other isolates ask the directory within 10 s (a create there
  // meanwhile is refused at its push once the shard is marked, or erased with the rest).
  forgetApiKeys(keys.map((key) => key.id));
  const erasedNow = await eraseDeletedProject(project, now, ERASE_IN_REQUEST_MS).catch(
    (error: unknown) => {
      log(project.env, "warn", "a project's deletion left its data for the cron to erase", {
        project_id: projectId,
        error: String(error),
      });
      return false;
    },
  );
  return { erasedNow };
}

/**
 * Erases what a deleted project left in its shard and objects, for up to `budgetMs`; once
 * nothing is left, forgets its idempotency answers and removes its note: true when done.
 */
async function eraseDeletedProject(project: PlacedProject, deletedAt: Date, budgetMs: number) {
  const readBack = await markErased(project, { all: true }, deletedAt);
  await eraseHeldSessions(project, { all: true }, deletedAt, readBack);
  if (!(await eraseRows(project, { all: true }, budgetMs))) return false;
  await objectStub(project.env, project.env.IDEMPOTENCY, project.projectId).forgetAll();
  await project.directory
    .delete(erasingProjects)
    .where(eq(erasingProjects.projectId, project.projectId));
  return true;
}

/**
 * The cron's share: every deletion a request left unfinished goes on, each in turn, for up to
 * SWEEP_RUN_MS in all; one whose shard is away is tried again next minute.
 */
export async function finishErasingProjects(env: Env, directory: Database) {
  const left = await directory.select().from(erasingProjects).orderBy(erasingProjects.deletedAt);
  const started = Date.now();
  for (const row of left) {
    const budget = SWEEP_RUN_MS - (Date.now() - started);
    if (budget <= 0) return;
    const project = { env, directory, shard: row.shard, projectId: row.projectId };
    await eraseDeletedProject(project, new Date(row.deletedAt), budget).catch((error: unknown) => {
      if (!isIndexUnavailable(error)) throw error;
    });
  }
}

/**
 * "Delete all test data" (owners): every test session of the project made until now is
 * erased — through its object where it may be held (its identifier unknown from then on, over
 * `ssh` too), and from the shard: the sessions (keys and connections with them), their events
 * (deliveries with them), the test webhooks (with their pings). A test session whose push was
 * pending is refused when it comes. Live data is not touched; test keys keep working.
 */
export async function deleteTestData(project: PlacedProject, now = new Date()) {
  const { env, projectId } = project;
  const erased: Erased = { all: false, before: now.toISOString() };
  const readBack = await markErased(project, erased, now);
  await eraseHeldSessions(project, erased, now, readBack);
  await eraseRows(project, erased, ERASE_IN_REQUEST_MS);
  // A repeat of a test request that made any of it is told so (410), never shown it again.
  await objectStub(env, env.IDEMPOTENCY, projectId).forgetMode(
    "test",
    "The test data this request made was deleted since (Delete all test data), so its answer is no longer kept",
  );
}

/**
 * The cron's share for one shard: rows of a project (or test data) deleted in the last day that
 * are still here — what a deletion's request left for it, or anything that came back — erased.
 * Reads the projects' rows only (one a project, not a session's).
 */
export async function sweepErasedProjects(env: Env, shard: string, now = new Date()) {
  const db = shardDb(env, shard);
  const since = new Date(now.getTime() - SWEPT_FOR_MS).toISOString();
  const marked = await db
    .select()
    .from(projectSettings)
    .where(
      or(
        and(isNotNull(projectSettings.deletedAt), gt(projectSettings.deletedAt, since)),
        and(
          isNotNull(projectSettings.testDataDeletedAt),
          gt(projectSettings.testDataDeletedAt, since),
        ),
      ),
    );
  const started = Date.now();
  for (const row of marked) {
    const left = SWEEP_RUN_MS - (Date.now() - started);
    if (left <= 0) return;
    const erased: Erased =
      row.deletedAt !== null
        ? { all: true }
        : { all: false, before: row.testDataDeletedAt ?? now.toISOString() };
    await eraseRows({ env, directory: db, shard, projectId: row.projectId }, erased, left);
  }
}
