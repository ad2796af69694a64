import { eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { D1_MAX_BOUND_PARAMETERS, type Database } from "../db/client.ts";
import { shardDb } from "../db/databases.ts";
import { projectSettings } from "../db/project-settings.ts";
import { type SessionRow, sessions } from "../db/sessions.ts";
import {
  eventRows,
  eventRowsOfSessions,
  eventsOfSessions,
  isDeliveryOf,
  webhookInvocations,
} from "../db/webhooks.ts";
import type { Env } from "../env.ts";
import { forgetIdempotentAnswers } from "../idempotency/idempotency-object.ts";
import { encodedTimeSql } from "../lib/ids.ts";
import { CONNECTION_LIFETIME_MS } from "../protocol/messages.ts";
import { DEFAULT_RETENTION_DAYS } from "../schemas/limits.ts";
import { RETIRE_AFTER_MS, RETIREMENT_MAY_WAIT } from "./retirement.ts";
import { sessionObject } from "./session-address.ts";

/**
 * How long a closed session is kept: `retention_days` of its project, counted from
 * when it closed. Then it is erased from its object and from D1 — events and deliveries included
 * — and is unknown everywhere.
 */
const DAY_SECONDS = 86_400;

export { RETIRE_AFTER_MS, RETIREMENT_MAY_WAIT };

/** The retirement grace: RETIRE_AFTER_MS, or RETIREMENT_GRACE_SECONDS in development. */
export const retireAfterMs = (env: Pick<Env, "RETIREMENT_GRACE_SECONDS">) =>
  env.RETIREMENT_GRACE_SECONDS ? Number(env.RETIREMENT_GRACE_SECONDS) * 1000 : RETIRE_AFTER_MS;

/** Seconds in a retention day: 86,400, or RETENTION_DAY_SECONDS in development. */
export const retentionDaySeconds = (env: Pick<Env, "RETENTION_DAY_SECONDS">) =>
  Number(env.RETENTION_DAY_SECONDS) || DAY_SECONDS;

/** When a session closed at `closedAt` is erased, in ms. */
export const eraseAt = (env: Env, closedAt: string, retentionDays: number) =>
  Date.parse(closedAt) + retentionDays * retentionDaySeconds(env) * 1000;

/**
 * The statements that erase sessions from their shard, in one batch: their events' deliveries,
 * their events, then their rows (their keys, connections, their keys, their own webhooks and
 * those webhooks' deliveries go with them, by cascade). At most ERASED_PER_STATEMENT ids.
 */
export function erasureStatements(db: Database, sessionIds: string[]) {
  const which = inArray(sessions.id, sessionIds);
  return [
    db.delete(webhookInvocations).where(isDeliveryOf(eventsOfSessions(which))),
    db.delete(eventRows).where(eventRowsOfSessions(which)),
    db.delete(sessions).where(inArray(sessions.id, sessionIds)),
  ] as const;
}

/**
 * Sessions one erasure statement names at most: the deliveries' statement binds each id twice
 * (a session's events are sought for its project's webhooks and for its own), under D1's 100.
 */
const ERASED_PER_STATEMENT = Math.floor(D1_MAX_BOUND_PARAMETERS / 2) - 1;

/** A project's row in its shard, or null before it had one. */
export type ProjectSettingsRow = typeof projectSettings.$inferSelect;

/**
 * Whether a session is erased, and when it will be: at once when its project was
 * deleted, or its test data was deleted after it was made; else, once closed, when its project's
 * retention has passed since its close (null while it is open).
 */
export function erasureOf(
  env: Env,
  session: Pick<SessionRow, "livemode" | "createdAt" | "completedAt">,
  settings: ProjectSettingsRow | null,
) {
  const testDataDeleted = settings?.testDataDeletedAt ?? null;
  const gone =
    settings?.deletedAt != null ||
    (!session.livemode && testDataDeleted !== null && session.createdAt <= testDataDeleted);
  const at = gone
    ? 0
    : session.completedAt === null
      ? null
      : eraseAt(env, session.completedAt, settings?.retentionDays ?? DEFAULT_RETENTION_DAYS);
  return { eraseAt: at, erased: (now: number) => at !== null && at <= now };
}

/** The project's row in its shard, read from the primary: a change counts at once. */
export async function projectSettingsOf(
  env: Env,
  shard: string,
  projectId: string,
): Promise<ProjectSettingsRow | null> {
  const [row] = await shardDb(env, shard)
    .select()
    .from(projectSettings)
    .where(eq(projectSettings.projectId, projectId))
    .limit(1);
  return row ?? null;
}

/**
 * Sessions a sweep reads at once, and erases in one transaction; and how long one run of the cron
 * goes on while more are due (it runs every minute: a backlog drains at this pace, per shard).
 */
const SWEEP_BATCH = 500;
const SWEEP_RUN_MS = 20_000;

/** Statuses a closed session can have (an open `verified` one is left out by `completed_at`). */
const CLOSED_STATUSES = ["completed", "verified", "failed", "expired"] as const;

/**
 * Closed sessions of a shard past their project's retention, project by project. There is no
 * index of closed sessions by when they closed (each entry would be a row written a session, D1
 * bills it): a session closes after it was made and its id begins with the time it was made, so
 * the ones closed before a project's cutoff are among those the lists' index holds with an id
 * older than the cutoff. Each project is one range per kind of that index; what it reads and
 * does not erase is what was made before the cutoff and is still open or closed after it.
 */
export async function sessionsPastRetention(
  env: Env,
  db: Database,
  now: Date,
  limit = SWEEP_BATCH,
) {
  const dayMs = retentionDaySeconds(env) * 1000;
  const closed = sql.join(
    CLOSED_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  // CROSS JOIN keeps SQLite's order: each project, then each kind, then a range of its sessions.
  return db.all<{ id: string; projectId: string; completedAt: string }>(sql`
    SELECT s.id AS id, s.project_id AS projectId, s.completed_at AS completedAt
    FROM (SELECT project_id AS id, ${now.getTime()} - retention_days * ${dayMs} AS cutoff
      FROM project_settings WHERE deleted_at IS NULL) AS p
    CROSS JOIN (SELECT 'collect' AS kind, 'cs_' AS prefix UNION ALL SELECT 'verify', 'vs_') AS k
    CROSS JOIN sessions AS s
      ON s.project_id = p.id AND s.livemode IN (0, 1) AND s.kind = k.kind
      AND s.status IN (${closed})
      AND s.id < k.prefix || ${encodedTimeSql(sql`p.cutoff`)}
    WHERE s.completed_at IS NOT NULL
      AND s.completed_at < strftime('%Y-%m-%dT%H:%M:%fZ', p.cutoff / 1000.0, 'unixepoch')
    LIMIT ${limit}`);
}

/**
 * The cron's share for one shard (every minute): the closed sessions past their project's
 * retention are erased from the shard in batches, each one transaction, no object asked, but for a session that closed so recently that its object may still hold it (a retention
 * shortened since, or a development day of seconds): that one is erased through its object, so
 * it answers 404 at once and never pushes it back. An object that read one back a moment ago
 * knows its erasure time and erases itself at its own alarm. Each project's stored idempotent
 * answers that hold them are forgotten, one call a project. Goes on while more are due, up to
 * SWEEP_RUN_MS.
 */
export async function sweepRetention(env: Env, shard: string, now = new Date()) {
  const db = shardDb(env, shard);
  const started = Date.now();
  let erased = 0;
  for (;;) {
    const due = await sessionsPastRetention(env, db, now);
    const heldSince = now.getTime() - mayBeHeldForMs(env);
    const held = due.filter((session) => Date.parse(session.completedAt) > heldSince);
    for (const { id, projectId } of held)
      await sessionObject(env, { sessionId: id }).erase(projectId, id, shard);
    const rest = due.filter((session) => !held.includes(session));
    if (rest.length > 0) await eraseSessions(env, db, rest);
    erased += due.length;
    if (due.length < SWEEP_BATCH || Date.now() - started > SWEEP_RUN_MS) return erased;
  }
}

/**
 * How long after its close a session's object may still hold it: its retirement's grace, the
 * graces its retirement may wait for an alarm already set (session-ending.ts), and a connection's
 * lifetime at the bridge. (One read back later is held a minute, knowing its erasure time.)
 */
export const mayBeHeldForMs = (env: Env) =>
  retireAfterMs(env) * (1 + RETIREMENT_MAY_WAIT) + CONNECTION_LIFETIME_MS;

/** Erases these sessions from `db` in one transaction, and forgets what their creates answered. */
export async function eraseSessions(
  env: Env,
  db: Database,
  due: { id: string; projectId: string }[],
) {
  const ids = due.map((session) => session.id);
  const statements: BatchItem<"sqlite">[] = [];
  for (let start = 0; start < ids.length; start += ERASED_PER_STATEMENT)
    statements.push(...erasureStatements(db, ids.slice(start, start + ERASED_PER_STATEMENT)));
  if (statements.length === 0) return;
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  const byProject = new Map<string, string[]>();
  for (const { id, projectId } of due)
    byProject.set(projectId, [...(byProject.get(projectId) ?? []), id]);
  await Promise.all(
    [...byProject].map(([projectId, sessionIds]) =>
      forgetIdempotentAnswers(env, projectId, sessionIds, "erased at the end of its retention"),
    ),
  );
}
