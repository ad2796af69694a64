import { eq } from "drizzle-orm";
import { shardDb } from "../db/databases.ts";
import { invocationKey, webhookInvocations, webhooks } from "../db/webhooks.ts";
import type { Env } from "../env.ts";
import { enqueue, type WebhookMessage } from "./queue.ts";

/**
 * The dead-letter queue's consumer. A message lands there when the queue gave up on it
 * (`max_retries`), which says nothing about the delivery: D1 does. An unfinished invocation with
 * retries left is queued again for when its next attempt is due; one whose retries are really
 * used up is marked failed, with the reason.
 */
export async function reconcileDeadLetters(batch: MessageBatch<WebhookMessage>, env: Env) {
  const now = Date.now();
  for (const message of batch.messages) {
    const { shard, invocation_id, also = [] } = message.body;
    // A push's first attempts to one webhook travel together (`also`): each is reconciled.
    for (const id of [...also, invocation_id]) await reconcile(env, shard, id, now);
    message.ack();
  }
}

async function reconcile(env: Env, shard: string, invocationId: string, now: number) {
  const db = shardDb(env, shard);
  const [found] = await db
    .select({ invocation: webhookInvocations, retries: webhooks.retries })
    .from(webhookInvocations)
    .innerJoin(webhooks, eq(webhooks.id, webhookInvocations.webhookId))
    .where(invocationKey(invocationId))
    .limit(1);
  const invocation = found?.invocation;
  if (!invocation || (invocation.status !== "pending" && invocation.status !== "retrying")) return;
  if (invocation.attempts > (found?.retries ?? 0)) {
    await db
      .update(webhookInvocations)
      .set({
        status: "failed",
        nextAttemptAt: null,
        failureReason: `Retries used up after ${invocation.attempts} attempts (reconciled from the dead-letter queue)`,
        updatedAt: new Date(now).toISOString(),
      })
      .where(invocationKey(invocation.id));
    return;
  }
  const due = invocation.nextAttemptAt ? Date.parse(invocation.nextAttemptAt) : now;
  const next = { invocation_id: invocation.id, attempt: invocation.attempts + 1 };
  await enqueue(env, shard, [next], Math.max(0, (due - now) / 1000));
}
