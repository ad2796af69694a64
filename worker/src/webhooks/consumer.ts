import { and, asc, eq, gt, inArray, isNull, lt, lte, or } from "drizzle-orm";
import { type Database, database } from "../db/client.ts";
import {
  events,
  type InvocationRow,
  webhookAttempts,
  webhookInvocations,
  webhooks,
} from "../db/webhooks.ts";
import type { Env } from "../env.ts";
import { newId } from "../lib/ids.ts";
import { DEFAULT_DELIVERY_TIMEOUT_SECONDS, envelope, sendAttempt } from "./deliver.ts";
import { enqueue, enqueueQuietly, queueDelay, type WebhookMessage } from "./queue.ts";
import { leaseSeconds, nextDelaySeconds, retryAfterSeconds } from "./schedule.ts";
import { allowsPrivateNetworks, unsafeUrlReason } from "./url-safety.ts";

/** A first attempt waits this long for an earlier, not yet attempted event of its webhook. */
const ORDER_WAIT_SECONDS = 1;
/** Earlier events one message sends before its own; more than this, and it waits its turn. */
const MAX_PREDECESSORS_SENT = 50;
/** How many times a first attempt waits for a predecessor before going ahead anyway. */
const MAX_ORDER_WAITS = 10;
/** Older predecessors are assumed stuck and no longer hold later events back. */
const ORDER_WAIT_WINDOW_MS = 5 * 60_000;
/**
 * Queues moves a message to the dead-letter queue after `max_retries` (100) retries. A message
 * that has waited this often is replaced by a fresh one; the dead-letter consumer and the
 * sweeper cover whatever is lost anyway.
 */
const QUEUE_RETRY_BUDGET = 50;

/** What to do with one queue message. */
export type QueueDecision =
  /** Nothing more for this message: delivered, finished, or a stale duplicate. */
  | { kind: "done" }
  /** Not yet: the same message again after the delay. */
  | { kind: "later"; delaySeconds: number }
  /** The attempt was made and failed: a new message for the next attempt, after the delay. */
  | { kind: "next"; attempt: number; delaySeconds: number };

const done = { kind: "done" } as const;
const later = (delaySeconds: number): QueueDecision => ({
  kind: "later",
  delaySeconds: queueDelay(delaySeconds),
});

/** The queue consumer: one message is one attempt of one invocation; messages are handled in order. */
export async function handleWebhookBatch(batch: MessageBatch<WebhookMessage>, env: Env) {
  const db = database(env.DB);
  for (const message of batch.messages) {
    const decision = await processInvocation(env, db, message.body, new Date(), message.attempts);
    if (decision.kind === "next") {
      const next = { invocation_id: message.body.invocation_id, attempt: decision.attempt };
      await enqueueQuietly(env, [next], decision.delaySeconds);
      message.ack();
    } else if (decision.kind === "later" && message.attempts >= QUEUE_RETRY_BUDGET) {
      await enqueue(env, [message.body], decision.delaySeconds);
      message.ack();
    } else if (decision.kind === "later") {
      message.retry({ delaySeconds: decision.delaySeconds });
    } else {
      message.ack();
    }
  }
}

const unfinished = inArray(webhookInvocations.status, ["pending", "retrying"]);

/**
 * Claims attempt `attempt` of an invocation: a compare-and-set in one statement, so however many
 * messages (queue redeliveries, the sweeper, a manual retry) ask for the same attempt at once,
 * exactly one sends it. The claim is a lease: if its holder dies, the attempt can be claimed again
 * once the lease has passed.
 */
async function claimAttempt(db: Database, invocation: InvocationRow, now: Date, lease: number) {
  const claimed = await db
    .update(webhookInvocations)
    .set({ leaseUntil: new Date(now.getTime() + lease * 1000).toISOString() })
    .where(
      and(
        eq(webhookInvocations.id, invocation.id),
        eq(webhookInvocations.attempts, invocation.attempts),
        unfinished,
        or(
          isNull(webhookInvocations.leaseUntil),
          lte(webhookInvocations.leaseUntil, now.toISOString()),
        ),
      ),
    )
    .returning({ id: webhookInvocations.id });
  return claimed.length === 1;
}

export async function processInvocation(
  env: Env,
  db: Database,
  message: WebhookMessage,
  now: Date,
  messageAttempts = 1,
): Promise<QueueDecision> {
  const [found] = await withWebhookAndEvent(db)
    .where(eq(webhookInvocations.id, message.invocation_id))
    .limit(1);
  if (!found) return done;
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
      .where(and(eq(webhookInvocations.id, invocation.id), unfinished));
    return done;
  }
  // A wait longer than Queues allow is taken in steps: an early message just goes back.
  if (invocation.nextAttemptAt && Date.parse(invocation.nextAttemptAt) > now.getTime() + 1000) {
    return later((Date.parse(invocation.nextAttemptAt) - now.getTime()) / 1000);
  }
  // Earlier events of this webhook go first: this message sends them, in order, itself.
  if (attempt === 1 && messageAttempts <= MAX_ORDER_WAITS) {
    if (!(await sendPredecessorsInOrder(env, db, invocation, now)))
      return later(ORDER_WAIT_SECONDS);
  }
  return (await attemptInvocation(env, db, found)) ?? done;
}

/**
 * Makes the next attempt of an invocation, if this caller wins its claim: sends it, records the
 * answer, and says what comes next. Null when someone else holds the attempt. The clock is read
 * here, at the claim: a message that first sent earlier events may have waited minutes, and
 * neither its lease nor the signed timestamp may be that old.
 */
async function attemptInvocation(
  env: Env,
  db: Database,
  found: LoadedInvocation,
): Promise<QueueDecision | null> {
  const { invocation, webhook, event } = found;
  const attempt = invocation.attempts + 1;
  const now = new Date();
  const at = now.toISOString();
  const timeout = Number(env.WEBHOOK_TIMEOUT_SECONDS) || DEFAULT_DELIVERY_TIMEOUT_SECONDS;
  // Someone else holds this attempt; if they never finish, the sweeper sends it after the lease.
  if (!(await claimAttempt(db, invocation, now, leaseSeconds(timeout)))) return null;

  const unsafe = unsafeUrlReason(webhook.url, allowsPrivateNetworks(env.ENVIRONMENT));
  const body = JSON.stringify(envelope(webhook, invocation, event, attempt, now));
  const result = unsafe
    ? {
        requestTime: at,
        durationMs: 0,
        statusCode: null,
        responseBody: null,
        error: unsafe,
        retryAfter: null,
      }
    : await sendAttempt(webhook, invocation.id, body, now, timeout);

  const succeeded =
    result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const gone = result.statusCode === 410;
  const exhausted = attempt > webhook.retries;
  const status = succeeded ? "succeeded" : gone || exhausted || unsafe ? "failed" : "retrying";
  const failureReason =
    status !== "failed"
      ? null
      : gone
        ? "The receiver answered 410 Gone, so the webhook was disabled"
        : unsafe
          ? `The URL is not allowed: ${unsafe}`
          : `No 2xx answer in ${attempt} attempt${attempt === 1 ? "" : "s"} (retries: ${webhook.retries})`;
  const delay =
    status === "retrying"
      ? nextDelaySeconds(webhook, attempt, retryAfterSeconds(result.retryAfter, now.getTime()))
      : 0;
  const nextAttemptAt =
    status === "retrying" ? new Date(now.getTime() + delay * 1000).toISOString() : null;

  await db.batch([
    db.insert(webhookAttempts).values({
      id: newId("wha", now.getTime()),
      invocationId: invocation.id,
      attempt,
      requestTime: result.requestTime,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      responseBody: result.responseBody,
      error: result.error,
    }),
    db
      .update(webhookInvocations)
      .set({
        status,
        attempts: attempt,
        nextAttemptAt,
        leaseUntil: null,
        failureReason,
        updatedAt: new Date().toISOString(),
      })
      .where(
        and(eq(webhookInvocations.id, invocation.id), eq(webhookInvocations.attempts, attempt - 1)),
      ),
    // 410 Gone: the receiver asks to stop, so the webhook is disabled.
    ...(gone
      ? [
          db
            .update(webhooks)
            .set({ enabled: false, updatedAt: at })
            .where(eq(webhooks.id, webhook.id)),
        ]
      : []),
  ]);
  return status === "retrying" ? { kind: "next", attempt: attempt + 1, delaySeconds: delay } : done;
}

/** An invocation with what sending it needs: its webhook and its event. */
const withWebhookAndEvent = (db: Database) =>
  db
    .select({ invocation: webhookInvocations, webhook: webhooks, event: events })
    .from(webhookInvocations)
    .innerJoin(webhooks, eq(webhooks.id, webhookInvocations.webhookId))
    .innerJoin(events, eq(events.id, webhookInvocations.eventId));

type LoadedInvocation = Awaited<
  ReturnType<ReturnType<typeof withWebhookAndEvent>["limit"]>
>[number];

/**
 * Sends, oldest first, the earlier events of this webhook still waiting for their first attempt,
 * so a burst drains in order without each message waiting its turn on the queue. False when one
 * of them is being sent elsewhere right now, or more remain than one message takes on: then this
 * message waits, and tries again.
 */
async function sendPredecessorsInOrder(
  env: Env,
  db: Database,
  invocation: InvocationRow,
  now: Date,
): Promise<boolean> {
  const earlier = await withWebhookAndEvent(db)
    .where(
      and(
        eq(webhookInvocations.webhookId, invocation.webhookId),
        lt(webhookInvocations.id, invocation.id),
        eq(webhookInvocations.attempts, 0),
        eq(webhookInvocations.status, "pending"),
        gt(
          webhookInvocations.createdAt,
          new Date(now.getTime() - ORDER_WAIT_WINDOW_MS).toISOString(),
        ),
      ),
    )
    .orderBy(asc(webhookInvocations.id))
    .limit(MAX_PREDECESSORS_SENT);
  for (const predecessor of earlier) {
    const decision = await attemptInvocation(env, db, predecessor);
    if (decision === null) return false;
    if (decision.kind === "next") {
      const next = { invocation_id: predecessor.invocation.id, attempt: decision.attempt };
      await enqueueQuietly(env, [next], decision.delaySeconds);
    }
  }
  return earlier.length < MAX_PREDECESSORS_SENT;
}
