import { and, asc, eq, gt, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  eventColumns,
  eventOf,
  events,
  type InvocationRow,
  invocationKey,
  webhookInvocations,
  webhooks,
} from "../db/webhooks.ts";
import { encodeTime } from "../lib/ids.ts";
import { leaseSeconds } from "./schedule.ts";

/**
 * Who sends an invocation's attempt: claims in D1, compare-and-set, so that however many queue
 * messages, sweeps and manual retries ask at once, one sends it; and a webhook's first attempts go
 * out in the order of their events, a run at a time (consumer.ts sends what is claimed here).
 */

/** Earlier events one message sends with its own, at most: a run. More wait their turn. */
const MAX_RUN = 50;
/** Older predecessors are assumed stuck and no longer hold later events back. */
const ORDER_WAIT_WINDOW_MS = 5 * 60_000;

/** An invocation with attempts still to make. */
export const unfinished = inArray(webhookInvocations.status, ["pending", "retrying"]);

/**
 * Claims attempt `attempt` of an invocation: a compare-and-set in one statement, so however many
 * messages (queue redeliveries, the sweeper, a manual retry) ask for the same attempt at once,
 * exactly one sends it. The claim is a lease: if its holder dies, the attempt can be claimed again
 * once the lease has passed.
 */
export async function claimAttempt(
  db: Database,
  invocation: InvocationRow,
  now: Date,
  lease: number,
) {
  const claimed = await db
    .update(webhookInvocations)
    .set({ leaseUntil: new Date(now.getTime() + lease * 1000).toISOString() })
    .where(
      and(
        invocationKey(invocation.id),
        eq(webhookInvocations.attempts, invocation.attempts),
        unfinished,
        free(now),
      ),
    )
    .returning({ id: webhookInvocations.id });
  return claimed.length === 1;
}

/** Not leased, or its lease has passed. */
const free = (now: Date) =>
  or(isNull(webhookInvocations.leaseUntil), lte(webhookInvocations.leaseUntil, now.toISOString()));

/**
 * A first attempt not made yet, recent enough to keep later events of its webhook waiting. Its
 * id begins with its event's, which begins with the event's time (`invocationIdOf`): so "recent"
 * is a range of the webhook's key, not a walk over every delivery it ever had (2,000
 * retained deliveries were 2,000 rows read a claim). An event older than the window (one that
 * waited out a D1 outage in its object) no longer holds later ones back, as a stuck one does not.
 */
const firstAttemptDue = (webhookId: string, now: Date) => {
  const since = orderWindow(now);
  return and(
    eq(webhookInvocations.webhookId, webhookId),
    gt(webhookInvocations.id, since.id),
    eq(webhookInvocations.attempts, 0),
    eq(webhookInvocations.status, "pending"),
    gt(webhookInvocations.createdAt, since.at),
  );
};

/** Where the order's window begins: as an invocation id (its event's time) and as a time. */
function orderWindow(now: Date) {
  const since = now.getTime() - ORDER_WAIT_WINDOW_MS;
  return { id: `whi_${encodeTime(since)}`, at: new Date(since).toISOString() };
}

/**
 * Whether an invocation is inside the order's window (firstAttemptDue), so that a run can claim
 * it. One older is sent on its own, by its message (claimAttempt): a run would never find it, and
 * its message would wait its whole allowance of order waits first — every message of a backlog
 * more than five minutes deep (a sustained run's backlog once delivered 451 of 10,000 so).
 */
export function inOrderWindow(invocation: InvocationRow, now: Date) {
  return idInOrderWindow(invocation.id, now) && invocation.createdAt > orderWindow(now).at;
}

/** inOrderWindow by the id alone (its event's time), before the row is read. */
export const idInOrderWindow = (invocationId: string, now: Date) =>
  invocationId > orderWindow(now).id;

/** What claiming a run up to an invocation needs of it: its key and the attempts it has had. */
export type RunEnd = Pick<InvocationRow, "id" | "webhookId" | "attempts">;

/**
 * Claims the first attempts of a webhook's events still waiting, oldest first, up to the
 * invocation `upTo` (its own and every earlier one) or, with none, whichever wait (up to
 * MAX_RUN), so a burst drains in order at one read, one claim and one record per run rather than
 * per event. Nothing is claimed while an earlier one is being sent elsewhere: order first. The
 * whole run shares one lease, the receiver's timeout and a margin: only the webhook's sender
 * sends its deliveries (sender-object.ts), so the lease is not what keeps a long run's later
 * events its own; it is how soon they are free again when the sender dies mid-run. (A lease per
 * position, covering the sends before it, held the tail of a run of 50 for up to 25 minutes.)
 */
export async function claimRun(
  db: Database,
  webhookId: string,
  upTo: string | null,
  timeoutSeconds: number,
): Promise<{ run: LoadedInvocation[]; dropped: string[] }> {
  // The claim's own clock: a message may have waited long before it got here.
  const now = new Date();
  const candidates = await withWebhookAndEvent(db)
    .where(
      and(
        firstAttemptDue(webhookId, now),
        upTo === null ? undefined : lte(webhookInvocations.id, upTo),
        free(now),
        eq(webhooks.enabled, true),
      ),
    )
    .orderBy(asc(webhookInvocations.id))
    .limit(MAX_RUN);
  const last = candidates.at(-1)?.invocation.id;
  if (last === undefined) return { run: [], dropped: [] };
  const earlierInFlight = db
    .select({ id: webhookInvocations.id })
    .from(webhookInvocations)
    .where(
      and(
        firstAttemptDue(webhookId, now),
        lt(webhookInvocations.id, upTo ?? last),
        gt(webhookInvocations.leaseUntil, now.toISOString()),
      ),
    );
  // The run as one JSON array: one bound value however long the run (a value per id went past
  // D1's 100 for a run of more than 30).
  const ids = JSON.stringify(candidates.map((loaded) => loaded.invocation.id));
  const inRun = sql`json_each(${ids})`;
  const claimed = await db
    .update(webhookInvocations)
    .set({
      leaseUntil: new Date(now.getTime() + leaseSeconds(timeoutSeconds) * 1000).toISOString(),
    })
    .where(
      and(
        eq(webhookInvocations.webhookId, webhookId),
        sql`${webhookInvocations.id} IN (SELECT value FROM ${inRun})`,
        eq(webhookInvocations.attempts, 0),
        free(now),
        sql`NOT EXISTS ${earlierInFlight}`,
      ),
    )
    .returning({ id: webhookInvocations.id });
  const taken = new Set(claimed.map((row) => row.id));
  // Another message may have taken some meanwhile: the run stops before the first it lost.
  const run: LoadedInvocation[] = [];
  for (const loaded of candidates) {
    if (!taken.has(loaded.invocation.id)) break;
    run.push(loaded);
  }
  const dropped = [...taken].filter((id) => !run.some((loaded) => loaded.invocation.id === id));
  return { run, dropped };
}

/** How often a first attempt asks again, while it waits here for an earlier one in flight. */
const ORDER_POLL_MS = 50;
/** How long one queue batch's messages wait here, together, before their queue's retry. */
export const ORDER_POLL_BUDGET_MS = 500;

/**
 * The run up to this invocation, claimed as soon as no earlier event is in flight: a burst's
 * messages find one another's runs in flight, and a queue's retry waits whole seconds
 * (ORDER_WAIT_SECONDS), so they wait here first, until `waitUntil` at most — a deadline the
 * messages of one batch share, so a batch of waiting messages holds up the rest for half a second,
 * not half a second each. Done when the run that was in flight sent this event too.
 */
export async function claimRunSoon(
  db: Database,
  invocation: RunEnd,
  timeout: number,
  waitUntil: number,
) {
  for (;;) {
    const claimed = await claimRun(db, invocation.webhookId, invocation.id, timeout);
    if (claimed.run.length > 0 || Date.now() + ORDER_POLL_MS > waitUntil) return claimed;
    if (!(await isClaimable(db, invocation, new Date()))) return claimed;
    await new Promise((resolve) => setTimeout(resolve, ORDER_POLL_MS));
  }
}

/** Whether nobody holds the invocation's first attempt (someone may have sent it meanwhile). */
export async function isClaimable(db: Database, invocation: RunEnd, now: Date) {
  return (await heldFor(db, invocation, now)) === 0;
}

/**
 * Whether the attempt after `invocation.attempts` is still to be made, and how long it is held:
 * null when it was made (or the invocation finished), 0 when it is free, else the seconds until
 * its lease ends — a lease of a sender that died mid-run, which its successor waits out.
 */
export async function heldFor(db: Database, invocation: RunEnd, now: Date): Promise<number | null> {
  const [row] = await db
    .select({ leaseUntil: webhookInvocations.leaseUntil })
    .from(webhookInvocations)
    .where(
      and(
        invocationKey(invocation.id),
        eq(webhookInvocations.attempts, invocation.attempts),
        unfinished,
      ),
    );
  if (!row) return null;
  const until = row.leaseUntil ? Date.parse(row.leaseUntil) : 0;
  return until > now.getTime() ? (until - now.getTime()) / 1000 : 0;
}

/** An invocation with what sending it needs: its webhook and its event. */
export const withWebhookAndEvent = (db: Database) =>
  db
    .select({ invocation: webhookInvocations, webhook: webhooks, event: eventColumns })
    .from(webhookInvocations)
    .innerJoin(webhooks, eq(webhooks.id, webhookInvocations.webhookId))
    .innerJoin(events, eventOf(webhookInvocations));

export type LoadedInvocation = Awaited<
  ReturnType<ReturnType<typeof withWebhookAndEvent>["limit"]>
>[number];
