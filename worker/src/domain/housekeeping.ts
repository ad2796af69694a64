import { and, isNull, lt } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { directoryDb, shardBinding, shardDb, shardNames } from "../db/databases.ts";
import { projectInvitations, shards, webSessions } from "../db/directory.ts";
import { eventRows, events, isDeliveryOf, webhookInvocations } from "../db/webhooks.ts";
import type { Env } from "../env.ts";
import { encodeTime } from "../lib/ids.ts";
import { log } from "../lib/log.ts";
import { awayReason, isIndexUnavailable } from "../lib/unavailable.ts";
import { sweepDueInvocations } from "../webhooks/sweeper.ts";
import { auditEntriesPastTheirTime } from "./audit-log.ts";
import { finishErasingProjects, sweepErasedProjects } from "./project-erasure.ts";
import { sweepRetention } from "./retention.ts";
import { securityEntriesPastTheirTime } from "./security-log.ts";
import { usedSignInCodesPastTheirTime } from "./ssh-sign-in.ts";

/**
 * The cron's work (every minute): for each index shard, on its own — one shard
 * away holds up none of the others — overdue webhook deliveries sent again, sessions past their
 * retention erased, rows of deleted projects (and test data) left behind erased, and the shard's
 * size measured for where new projects go; once an hour,
 * what grows with use and is not a session's is swept (docs/privacy.md). (A session's own rows
 * go with it: retention.ts. Idempotency records, bridge nonces and rate-limit logs expire where
 * they live: their Durable Objects.)
 */

/** An invitation, used or not, is kept this long after it expired: who joined how, for owners. */
export const INVITATION_KEPT_DAYS = 30;
/** A test ping's event (and its deliveries) is kept this long: it belongs to no session. */
export const PING_KEPT_DAYS = 30;
const DAY_MS = 86_400_000;

/** The cron runs every minute; housekeeping once an hour is enough for expiries of days. */
export const isHousekeepingMinute = (now: Date) => now.getUTCMinutes() === 0;

export async function everyMinute(env: Env, now = new Date()) {
  const hourly = isHousekeepingMinute(now);
  await Promise.all([
    ...shardNames(env).map(async (shard) => {
      await duty(env, "webhook deliveries", shard, () => sweepDueInvocations(env, shard, now));
      await duty(env, "retention", shard, () => sweepRetention(env, shard, now));
      await duty(env, "erased projects", shard, () => sweepErasedProjects(env, shard, now));
      // Measured in the shard, kept in the directory: each named when it is the one away.
      const size = await duty(env, "shard size", shard, () => shardSize(env, shard));
      if (size !== undefined)
        await duty(env, "shard size", "DIRECTORY", () => recordShardSize(env, shard, size, now));
      if (hourly)
        await duty(env, "housekeeping", shard, () => sweepExpiredPings(shardDb(env, shard), now));
    }),
    duty(env, "erased projects", "DIRECTORY", () => finishErasingProjects(env, directoryDb(env))),
    hourly
      ? duty(env, "housekeeping", "DIRECTORY", () => sweepExpiredAccess(directoryDb(env), now))
      : undefined,
  ]);
}

/**
 * One duty on one database: while D1 is away it is one line naming that database (the next
 * minute tries again, nothing is lost), as every other path says it; anything else is an error
 * with its stack. What the duty answered, or undefined when it failed.
 */
async function duty<T>(
  env: Env,
  name: string,
  database: string,
  run: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (!isIndexUnavailable(error)) {
      log(env, "error", "a cron duty failed", {
        duty: name,
        database,
        error: String(error),
        stack: (error as Error).stack,
      });
      return undefined;
    }
    log(env, "warn", "D1 away; the cron tries again next minute", {
      duty: name,
      database,
      error: awayReason(error),
    });
    return undefined;
  }
}

/** The shard's size now, as D1 reports it with any query (`size_after`). */
async function shardSize(env: Env, shard: string): Promise<number> {
  const { meta } = await shardBinding(env, shard).prepare("SELECT 1").run();
  return Number((meta as { size_after?: number }).size_after ?? 0);
}

/** A shard's size, kept in the directory for where new projects go. */
async function recordShardSize(env: Env, shard: string, sizeBytes: number, now: Date) {
  const measuredAt = now.toISOString();
  await directoryDb(env)
    .insert(shards)
    .values({ name: shard, sizeBytes, measuredAt })
    .onConflictDoUpdate({ target: shards.name, set: { sizeBytes, measuredAt } });
}

/**
 * Signed-in browsers past their expiry, invitations long expired, and audit and security log
 * entries past their time: the directory's.
 */
export async function sweepExpiredAccess(directory: Database, now = new Date()) {
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const [signedOut, invitations, audited, secured, codes] = await directory.batch([
    directory
      .delete(webSessions)
      .where(lt(webSessions.expiresAt, now.toISOString()))
      .returning({ id: webSessions.id }),
    directory
      .delete(projectInvitations)
      .where(lt(projectInvitations.expiresAt, ago(INVITATION_KEPT_DAYS).toISOString()))
      .returning({ id: projectInvitations.id }),
    auditEntriesPastTheirTime(directory, now),
    securityEntriesPastTheirTime(directory, now),
    usedSignInCodesPastTheirTime(directory, now),
  ]);
  return {
    webSessions: signedOut.length,
    invitations: invitations.length,
    auditEntries: audited.length,
    securityEntries: secured.length,
    usedSignInCodes: codes.length,
  };
}

/** Test pings past their time, with their deliveries: a shard's. */
export async function sweepExpiredPings(db: Database, now = new Date()) {
  // Ids sort by time (`evt_` + 48 bits of ms): a range of the pings' own index, no scan.
  const before = `evt_${encodeTime(now.getTime() - PING_KEPT_DAYS * DAY_MS)}`;
  const [, pings] = await db.batch([
    db
      .delete(webhookInvocations)
      .where(isDeliveryOf(and(lt(events.rowId, before), isNull(events.sessionId)))),
    db
      .delete(eventRows)
      .where(and(lt(eventRows.id, before), isNull(eventRows.sessionId)))
      .returning({ id: eventRows.id }),
  ]);
  return pings.length;
}
