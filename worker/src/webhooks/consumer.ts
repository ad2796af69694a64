import { and, eq, gt, inArray, lt } from "drizzle-orm";
import { type Database, database } from "../db/client.ts";
import { events, webhookAttempts, webhookInvocations, webhooks } from "../db/webhooks.ts";
import {
  MAX_QUEUE_DELAY_SECONDS,
  nextDelaySeconds,
  retryAfterSeconds,
} from "../domain/retry-schedule.ts";
import type { Env } from "../env.ts";
import { newId } from "../lib/ids.ts";
import { DEFAULT_DELIVERY_TIMEOUT_SECONDS, envelope, sendAttempt } from "./deliver.ts";
import type { WebhookMessage } from "./outbox.ts";
import { allowsPrivateNetworks, unsafeUrlReason } from "./url-safety.ts";

/** A first attempt waits this long for an earlier, not yet attempted event of its webhook. */
const ORDER_WAIT_SECONDS = 1;
/** How many times a first attempt waits for a predecessor before going ahead anyway. */
const MAX_ORDER_WAITS = 10;
/** Older predecessors are assumed stuck and no longer hold later events back. */
const ORDER_WAIT_WINDOW_MS = 5 * 60_000;

export type QueueDecision = { ack: true } | { ack: false; delaySeconds: number };
const ack = { ack: true } as const;
const later = (delaySeconds: number): QueueDecision => ({
  ack: false,
  delaySeconds: Math.max(0, Math.min(Math.ceil(delaySeconds), MAX_QUEUE_DELAY_SECONDS)),
});

/**
 * Queues moves a message to the dead-letter queue after `max_retries` (100) retries. Our own
 * retries are counted in D1, so a message that has waited this often is replaced by a fresh one.
 */
const QUEUE_RETRY_BUDGET = 50;

/** The queue consumer: one message is one invocation; messages are handled in order. */
export async function handleWebhookBatch(batch: MessageBatch<WebhookMessage>, env: Env) {
  const db = database(env.DB);
  for (const message of batch.messages) {
    const decision = await processInvocation(
      env,
      db,
      message.body.invocation_id,
      new Date(),
      message.attempts,
    );
    if (decision.ack) {
      message.ack();
    } else if (message.attempts >= QUEUE_RETRY_BUDGET) {
      await env.WEBHOOK_QUEUE.send(message.body, { delaySeconds: decision.delaySeconds });
      message.ack();
    } else {
      message.retry({ delaySeconds: decision.delaySeconds });
    }
  }
}

export async function processInvocation(
  env: Env,
  db: Database,
  invocationId: string,
  now: Date,
  messageAttempts = 1,
): Promise<QueueDecision> {
  const [found] = await db
    .select({ invocation: webhookInvocations, webhook: webhooks, event: events })
    .from(webhookInvocations)
    .innerJoin(webhooks, eq(webhooks.id, webhookInvocations.webhookId))
    .innerJoin(events, eq(events.id, webhookInvocations.eventId))
    .where(eq(webhookInvocations.id, invocationId))
    .limit(1);
  if (!found) return ack;
  const { invocation, webhook, event } = found;
  if (invocation.status !== "pending" && invocation.status !== "retrying") return ack;
  const at = now.toISOString();
  if (!webhook.enabled) {
    await db
      .update(webhookInvocations)
      .set({ status: "cancelled", updatedAt: at })
      .where(eq(webhookInvocations.id, invocation.id));
    return ack;
  }
  // A wait longer than Queues allow is taken in steps: an early message just goes back.
  if (invocation.nextAttemptAt && Date.parse(invocation.nextAttemptAt) > now.getTime() + 1000) {
    return later((Date.parse(invocation.nextAttemptAt) - now.getTime()) / 1000);
  }
  const mayWait = invocation.attempts === 0 && messageAttempts <= MAX_ORDER_WAITS;
  if (mayWait && (await hasUnsentPredecessor(db, invocation.webhookId, invocation.id, now))) {
    return later(ORDER_WAIT_SECONDS);
  }

  const attempt = invocation.attempts + 1;
  const unsafe = unsafeUrlReason(webhook.url, allowsPrivateNetworks(env.ENVIRONMENT));
  const body = JSON.stringify(envelope(webhook, invocation, event, attempt, now));
  const timeout = Number(env.WEBHOOK_TIMEOUT_SECONDS) || DEFAULT_DELIVERY_TIMEOUT_SECONDS;
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
      .set({ status, attempts: attempt, nextAttemptAt, updatedAt: new Date().toISOString() })
      .where(eq(webhookInvocations.id, invocation.id)),
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
  if (status === "retrying") return later(delay);
  if (status === "failed")
    await env.WEBHOOK_DEAD_LETTERS.send({ invocation_id: invocation.id } satisfies WebhookMessage);
  return ack;
}

/** Whether an earlier event for this webhook is still waiting for its first attempt. */
async function hasUnsentPredecessor(
  db: Database,
  webhookId: string,
  invocationId: string,
  now: Date,
) {
  const [earlier] = await db
    .select({ id: webhookInvocations.id })
    .from(webhookInvocations)
    .where(
      and(
        eq(webhookInvocations.webhookId, webhookId),
        lt(webhookInvocations.id, invocationId),
        eq(webhookInvocations.attempts, 0),
        inArray(webhookInvocations.status, ["pending"]),
        gt(
          webhookInvocations.createdAt,
          new Date(now.getTime() - ORDER_WAIT_WINDOW_MS).toISOString(),
        ),
      ),
    )
    .limit(1);
  return earlier !== undefined;
}
