import { and, eq } from "drizzle-orm";
import { directoryDb, shardDb } from "../db/databases.ts";
import { runBatch, type Statement } from "../db/json-rows.ts";
import {
  invocationKey,
  invocationKeys,
  webhookInvocations,
  webhookOfInvocation,
  webhooks,
} from "../db/webhooks.ts";
import { renewWebhookCopy } from "../domain/session-views.ts";
import type { Env } from "../env.ts";
import { type Answer, attemptOnce, done, type QueueDecision, recordAnswers } from "./attempt.ts";
import { deliveredEvents } from "./attested.ts";
import {
  claimAttempt,
  claimRunSoon,
  heldFor,
  idInOrderWindow,
  inOrderWindow,
  type LoadedInvocation,
  ORDER_POLL_BUDGET_MS,
  type RunEnd,
  unfinished,
  withWebhookAndEvent,
} from "./claims.ts";
import { DEFAULT_DELIVERY_TIMEOUT_SECONDS } from "./deliver.ts";
import { enqueueQuietly, queueDelay, type WebhookMessage } from "./queue.ts";
import { leaseSeconds } from "./schedule.ts";

/** A first attempt waits this long for an earlier event of its webhook that is being sent. */
const ORDER_WAIT_SECONDS = 1;
/** How many times a first attempt waits for an earlier one in flight before going ahead anyway. */
const MAX_ORDER_WAITS = 10;
/** Times a first attempt's message looks for an invocation whose push has not committed yet. */
const UNCOMMITTED_WAITS = 3;
const UNCOMMITTED_WAIT_SECONDS = 2;

/**
 * First attempts this isolate made and recorded, the newest HANDLED_KEPT: a message of one of
 * them (its event sent in another message's run) is done without a read. Another isolate reads
 * D1 and finds the same; a message for a later attempt (a retry) always reads.
 */
const handled = new Set<string>();
const HANDLED_KEPT = 10_000;

function noteHandled(invocationId: string) {
  handled.add(invocationId);
  if (handled.size > HANDLED_KEPT) handled.delete(handled.values().next().value as string);
}

/** Whether this isolate made and recorded the first attempt of `invocationId`. */
export const firstAttemptSent = (invocationId: string) => handled.has(invocationId);

export type { QueueDecision } from "./attempt.ts";

/** What the webhook's sender says of each attempt (sender-object.ts): sent at all, and sending. */
export interface SendGuard {
  /** The session was deleted: nothing of it is sent. */
  forgotten(sessionId: string | null): boolean;
  /** An attempt of the session's event is under way, until `done` settles. */
  sending(sessionId: string | null, done: Promise<unknown>): void;
}

const later = (delaySeconds: number): QueueDecision => ({
  kind: "later",
  delaySeconds: queueDelay(delaySeconds),
});

/**
 * One attempt of one invocation, on the index shard its message names, as its webhook's sender
 * makes it (sender-object.ts): each webhook's messages in order, the webhooks side by side. Order
 * within a webhook is the claims' too (claims.ts). `messageAttempts` counts how often this
 * attempt was asked for, this time included.
 */
export async function processInvocation(
  env: Env,
  shard: string,
  message: Omit<WebhookMessage, "shard">,
  now: Date,
  messageAttempts = 1,
  /** Until when a first attempt may wait here for an earlier one in flight (claimRunSoon). */
  waitUntil = Date.now() + ORDER_POLL_BUDGET_MS,
  guard?: SendGuard,
): Promise<QueueDecision> {
  const db = shardDb(env, shard);
  const timeout = Number(env.WEBHOOK_TIMEOUT_SECONDS) || DEFAULT_DELIVERY_TIMEOUT_SECONDS;
  // A first attempt claims its run at once (the claim reads what it sends): its own row is read
  // first only when nothing was claimed — sent already, held, not committed yet, or disabled.
  const firstInOrder = message.attempt === 1 && messageAttempts <= MAX_ORDER_WAITS;
  const claimedFirst = firstInOrder && idInOrderWindow(message.invocation_id, now);
  if (claimedFirst) {
    const own = {
      id: message.invocation_id,
      webhookId: webhookOfInvocation(message.invocation_id),
      attempts: 0,
    };
    const sent = await sendRun(env, shard, own, timeout, waitUntil, guard);
    if (sent) return sent;
  }
  const [found] = await withWebhookAndEvent(db)
    .where(invocationKey(message.invocation_id))
    .limit(1);
  // A first attempt is queued before its push commits (index-push.ts): one not there yet is asked
  // for again, a few times; one that never comes (a push D1 refused, a session erased) is let go.
  if (!found)
    return message.attempt === 1 && messageAttempts < UNCOMMITTED_WAITS
      ? later(UNCOMMITTED_WAIT_SECONDS)
      : done;
  const { invocation, webhook } = found;
  if (invocation.status !== "pending" && invocation.status !== "retrying") return done;
  const attempt = invocation.attempts + 1;
  // Made already by another message: this one is a duplicate.
  if (message.attempt !== undefined && message.attempt !== attempt) return done;
  const at = now.toISOString();
  if (!webhook.enabled) {
    await db
      .update(webhookInvocations)
      .set({
        status: "cancelled",
        nextAttemptAt: null,
        failureReason: "The webhook was disabled before this event was delivered",
        updatedAt: at,
      })
      .where(and(invocationKey(invocation.id), unfinished));
    return done;
  }
  // A wait longer than Queues allow is taken in steps: an early message just goes back.
  if (invocation.nextAttemptAt && Date.parse(invocation.nextAttemptAt) > now.getTime() + 1000) {
    return later((Date.parse(invocation.nextAttemptAt) - now.getTime()) / 1000);
  }
  // A first attempt sends the earlier events of its webhook with it, in order: a run. Nothing
  // claimed: an earlier event is still being sent (wait for it), this one was, or a sender that
  // died mid-run still holds it (wait out its lease).
  if (attempt === 1 && messageAttempts <= MAX_ORDER_WAITS && inOrderWindow(invocation, now)) {
    const sent = claimedFirst
      ? null
      : await sendRun(env, shard, invocation, timeout, waitUntil, guard);
    return sent ?? whenFree(db, invocation, ORDER_WAIT_SECONDS);
  }
  // Held: by a sender that died mid-attempt (its lease is waited out), or made meanwhile.
  if (!(await claimAttempt(db, invocation, new Date(), leaseSeconds(timeout))))
    return whenFree(db, invocation, 0);
  const [decision] = await deliverClaimed(env, shard, [found], timeout, [], guard);
  return decision?.[1] ?? done;
}

/**
 * Claims and sends the run of first attempts up to `own` (claims.ts), in order; null when nothing
 * was claimed. Later events are not looked for here: their messages reach the webhook's sender,
 * which takes them in its next round, a run at once (sender-object.ts).
 */
async function sendRun(
  env: Env,
  shard: string,
  own: RunEnd,
  timeout: number,
  waitUntil: number,
  guard?: SendGuard,
): Promise<QueueDecision | null> {
  const { run, dropped } = await claimRunSoon(shardDb(env, shard), own, timeout, waitUntil);
  if (run.length === 0) return null;
  let decision: QueueDecision | null = null;
  for (const [loaded, made] of await deliverClaimed(env, shard, run, timeout, dropped, guard)) {
    if (loaded.invocation.id === own.id) decision = made;
    else await followUp(env, shard, loaded, made);
  }
  // More than a run's worth of events came before this one: its turn is next.
  return decision ?? later(0);
}

/**
 * A message whose attempt it could not claim: done when the attempt was made; otherwise back on
 * the queue until its lease ends (`free` seconds when nothing holds it). Only the webhook's sender
 * sends, so a lease it did not take is a dead sender's: waiting it out, rather than dropping the
 * message for the sweep, sends a killed run's tail together, in order, within one lease.
 */
async function whenFree(
  db: ReturnType<typeof shardDb>,
  invocation: LoadedInvocation["invocation"],
  free: number,
): Promise<QueueDecision> {
  const held = await heldFor(db, invocation, new Date());
  if (held === null) return done;
  return later(held === 0 ? free : Math.ceil(held) + 1);
}

/** How long a run's answers may wait unrecorded before the next send. */
const RECORD_EVERY_MS = 1000;

/** What an earlier event of a run needs next: its retry queued, or nothing. */
async function followUp(
  env: Env,
  shard: string,
  loaded: LoadedInvocation,
  decision: QueueDecision,
) {
  if (decision.kind !== "next") return;
  const next = { invocation_id: loaded.invocation.id, attempt: decision.attempt };
  await enqueueQuietly(env, shard, [next], decision.delaySeconds);
}

/**
 * Sends each claimed invocation's next attempt, in order, then records every answer in one
 * batch, and says what comes next for each. The clock is read at each send: a run may take
 * minutes, and neither a signed timestamp nor a retry's schedule may be that old. After a 410 the
 * webhook is disabled and the rest of the run is not sent (its claims are let go). An event of a
 * session deleted meanwhile is not sent either (its claim let go: the deletion erases it).
 */
async function deliverClaimed(
  env: Env,
  shard: string,
  claimed: LoadedInvocation[],
  timeout: number,
  /** Claimed, but not to be sent now (behind one another message took): let go. */
  dropped: string[] = [],
  guard?: SendGuard,
): Promise<[LoadedInvocation, QueueDecision][]> {
  const db = shardDb(env, shard);
  const decisions: [LoadedInvocation, QueueDecision][] = [];
  const answers: Answer[] = [];
  // What each event says is read for the whole run at once; only the sends wait on one another.
  const bodies = await deliveredEvents(
    env,
    shard,
    claimed.map((loaded) => loaded.event),
  );
  let gone = false;
  const forgotten: string[] = [];
  let recordedAt = Date.now();
  for (const [position, loaded] of claimed.entries()) {
    if (gone) break;
    // A slow receiver's answers are recorded as they come, so a sender killed mid-run sends
    // again only what was on the wire; a fast one's wait for the run's end, in one statement.
    // (Before the check below: a session deleted while they are written is not sent.)
    if (answers.length > 0 && Date.now() - recordedAt >= RECORD_EVERY_MS) {
      await runBatch(db, recordAnswers(answers.splice(0)));
      recordedAt = Date.now();
    }
    if (guard?.forgotten(loaded.event.sessionId)) {
      forgotten.push(loaded.invocation.id);
      decisions.push([loaded, done]);
      continue;
    }
    // Nothing awaited between the check and `sending`: a deletion sees this attempt or stops it.
    const sending = attemptOnce(env, loaded, bodies[position] ?? loaded.event, timeout);
    guard?.sending(loaded.event.sessionId, sending);
    const attempt = await sending;
    answers.push(attempt.answer);
    decisions.push([loaded, attempt.decision]);
    gone = attempt.gone;
  }
  const unsent = [
    ...claimed.slice(decisions.length).map((loaded) => loaded.invocation.id),
    ...forgotten,
    ...dropped,
  ];
  const writes: Statement[] = recordAnswers(answers);
  // 410 Gone: the receiver asks to stop, so the webhook is disabled.
  const disabled = gone ? decisions.at(-1)?.[0].webhook : undefined;
  if (disabled)
    writes.push(
      db
        .update(webhooks)
        .set({ enabled: false, updatedAt: new Date().toISOString() })
        .where(eq(webhooks.id, disabled.id)),
    );
  if (unsent.length > 0)
    writes.push(
      db.update(webhookInvocations).set({ leaseUntil: null }).where(invocationKeys(unsent)),
    );
  await runBatch(db, writes);
  for (const [loaded] of decisions)
    if (loaded.invocation.attempts === 0) noteHandled(loaded.invocation.id);
  // A session's webhook disabled by a 410: its session's object keeps a copy of its webhooks.
  if (disabled?.sessionId) {
    const ctx = {
      db,
      directory: directoryDb(env),
      shard,
      env,
      projectId: disabled.projectId,
      livemode: disabled.livemode,
      now: new Date(),
    };
    await renewWebhookCopy(ctx, disabled.sessionId).catch(() => undefined);
  }
  return decisions;
}
