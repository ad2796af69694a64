import { and, eq, sql } from "drizzle-orm";
import { projects } from "../db/accounts.ts";
import { type Database, database } from "../db/client.ts";
import { sessions } from "../db/sessions.ts";
import { events } from "../db/webhooks.ts";
import type { Env } from "../env.ts";
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

/** Seconds in a retention day: 86,400, or RETENTION_DAY_SECONDS in development. */
export const retentionDaySeconds = (env: Pick<Env, "RETENTION_DAY_SECONDS">) =>
  Number(env.RETENTION_DAY_SECONDS) || DAY_SECONDS;

/** When a session closed at `closedAt` is erased, in ms. */
export const eraseAt = (env: Env, closedAt: string, retentionDays: number) =>
  Date.parse(closedAt) + retentionDays * retentionDaySeconds(env) * 1000;

/**
 * The statements that erase one session from D1, in one batch: its events (their deliveries and
 * attempts go with them, by cascade), then its row (its keys, connections, their keys, its own
 * webhooks and their deliveries go with it).
 */
export function erasureStatements(db: Database, projectId: string, sessionId: string) {
  return [
    db.delete(events).where(and(eq(events.projectId, projectId), eq(events.sessionId, sessionId))),
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

/**
 * Closed sessions past their project's retention, oldest first: one probe of each project's
 * closed sessions (sessions_project_completed_idx), so a sweep reads what is due and no more.
 */
export function sessionsPastRetention(env: Env, db: Database, now: Date) {
  const cutoff = sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${now.getTime() / 1000} - ${projects.retentionDays} * ${retentionDaySeconds(env)}, 'unixepoch')`;
  return db
    .select({ id: sessions.id, projectId: sessions.projectId })
    .from(projects)
    .innerJoin(
      sessions,
      and(
        eq(sessions.projectId, projects.id),
        sql`${sessions.completedAt} IS NOT NULL`,
        sql`${sessions.completedAt} < ${cutoff}`,
      ),
    )
    .limit(SWEEP_BATCH);
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
