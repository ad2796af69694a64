import { and, eq, sql } from "drizzle-orm";
import { projects } from "../db/accounts.ts";
import { type Database, database } from "../db/client.ts";
import { sessions } from "../db/sessions.ts";
import { events, isDeliveryOf, webhookInvocations } from "../db/webhooks.ts";
import type { Env } from "../env.ts";
import { encodedTimeSql } from "../lib/ids.ts";
import { sessionObject } from "./session-address.ts";

/**
 * How long a closed session is kept (SPEC §19): `retention_days` of its project, counted from
 * when it closed. Then it is erased from its object and from D1 — events and deliveries included
 * — and is unknown everywhere.
 */
export const DEFAULT_RETENTION_DAYS = 30;
export const MAX_RETENTION_DAYS = 3650;
const DAY_SECONDS = 86_400;

/**
 * A closed session's object keeps it this long after it closed, then deletes its own storage
 * (`deleteAll`): the index, D1's primary, has all of it by then, and a later call about it reads
 * it back from there. Longer than a read replica's lag (a GET never shows an older state than one
 * answered), the bridge's connection lifetime (a late report gets its sentence) and the continue
 * step's window (its single use is remembered while it can be used).
 */
export const RETIRE_AFTER_MS = 15 * 60_000;

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
 * The statements that erase one session from D1, in one batch: its events' deliveries, its events,
 * then its row (its keys, connections, their keys, its own webhooks and their deliveries go with
 * it, by cascade).
 */
export function erasureStatements(db: Database, projectId: string, sessionId: string) {
  const ofSession = and(eq(events.projectId, projectId), eq(events.sessionId, sessionId));
  return [
    db.delete(webhookInvocations).where(isDeliveryOf(ofSession)),
    db.delete(events).where(ofSession),
    db.delete(sessions).where(eq(sessions.id, sessionId)),
  ] as const;
}

/** The project's retention, read from D1's primary (a change made a moment ago counts). */
export async function projectRetentionDays(env: Env, projectId: string): Promise<number> {
  const [row] = await database(env.DB)
    .select({ days: projects.retentionDays })
    .from(projects)
    .where(eq(projects.id, projectId))
    .limit(1);
  return row?.days ?? DEFAULT_RETENTION_DAYS;
}

/** Sessions erased by one sweep at most; the next sweep (a minute later) takes the rest. */
const SWEEP_BATCH = 100;

/** Statuses a closed session can have (an open `verified` one is left out by `completed_at`). */
const CLOSED_STATUSES = ["completed", "verified", "failed", "expired"] as const;

/**
 * Closed sessions past their project's retention, project by project. There is no index of
 * closed sessions by when they closed (each entry would be a row written a session, D1 bills it):
 * a session closes after it was made and its id begins with the time it was made, so the ones
 * closed before a project's cutoff are among those the lists' index holds, under a closed status,
 * with an id older than the cutoff. Each project is one range per kind of that index; what it
 * reads and does not erase is what was made before the cutoff and closed after it.
 */
export async function sessionsPastRetention(env: Env, db: Database, now: Date) {
  const dayMs = retentionDaySeconds(env) * 1000;
  const closed = sql.join(
    CLOSED_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  // CROSS JOIN keeps SQLite's order: each project, then each kind, then a range of its sessions.
  return db.all<{ id: string; projectId: string }>(sql`
    SELECT s.id AS id, s.project_id AS projectId
    FROM (SELECT id, ${now.getTime()} - retention_days * ${dayMs} AS cutoff FROM projects) AS p
    CROSS JOIN (SELECT 'collect' AS kind, 'cs_' AS prefix UNION ALL SELECT 'verify', 'vs_') AS k
    CROSS JOIN sessions AS s
      ON s.project_id = p.id AND s.livemode IN (0, 1) AND s.kind = k.kind
      AND s.status IN (${closed})
      AND s.id < k.prefix || ${encodedTimeSql(sql`p.cutoff`)}
    WHERE s.completed_at IS NOT NULL
      AND s.completed_at < strftime('%Y-%m-%dT%H:%M:%fZ', p.cutoff / 1000.0, 'unixepoch')
    LIMIT ${SWEEP_BATCH}`);
}

/**
 * The cron's share (every minute): each closed session past its project's retention is erased,
 * through its object (which may still hold it) — retention changed since, or an object retired.
 */
export async function sweepRetention(env: Env, db: Database, now = new Date()) {
  const due = await sessionsPastRetention(env, db, now);
  for (const { id, projectId } of due) {
    const ref = { sessionId: id };
    await sessionObject(env, ref).erase(projectId, id);
  }
  return due.length;
}
