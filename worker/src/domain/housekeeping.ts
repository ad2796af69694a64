import { and, isNull, lt } from "drizzle-orm";
import { projectInvitations, webSessions } from "../db/accounts.ts";
import type { Database } from "../db/client.ts";
import { events, isDeliveryOf, webhookInvocations } from "../db/webhooks.ts";
import { encodeTime } from "../lib/ids.ts";

/**
 * What grows with use and is not a session's (SPEC §19, docs/privacy.md): each has an expiry, and
 * this sweep, run by the cron once an hour, deletes what is past it. (A session's own rows go with
 * it: domain/retention.ts. Idempotency records, bridge nonces and rate-limit logs expire where
 * they live: their Durable Objects.)
 */

/** An invitation, used or not, is kept this long after it expired: who joined how, for owners. */
export const INVITATION_KEPT_DAYS = 30;
/** A test ping's event (and its deliveries) is kept this long: it belongs to no session. */
export const PING_KEPT_DAYS = 30;
const DAY_MS = 86_400_000;

/** The cron runs every minute; housekeeping once an hour is enough for expiries of days. */
export const isHousekeepingMinute = (now: Date) => now.getUTCMinutes() === 0;

export async function sweepExpired(db: Database, now = new Date()) {
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  // Ids sort by time (`evt_` + 48 bits of ms): a range of the pings' own index, no scan.
  const expiredPings = and(
    lt(events.id, `evt_${encodeTime(ago(PING_KEPT_DAYS).getTime())}`),
    isNull(events.sessionId),
  );
  const [signedOut, invitations, , pings] = await db.batch([
    db
      .delete(webSessions)
      .where(lt(webSessions.expiresAt, now.toISOString()))
      .returning({ id: webSessions.id }),
    db
      .delete(projectInvitations)
      .where(lt(projectInvitations.expiresAt, ago(INVITATION_KEPT_DAYS).toISOString()))
      .returning({ id: projectInvitations.id }),
    db.delete(webhookInvocations).where(isDeliveryOf(expiredPings)),
    db.delete(events).where(expiredPings).returning({ id: events.id }),
  ]);
  return { webSessions: signedOut.length, invitations: invitations.length, pings: pings.length };
}
