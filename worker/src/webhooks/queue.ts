import type { Env } from "../env.ts";
import { log } from "../lib/log.ts";
import { meter } from "../lib/meter.ts";
import { MAX_QUEUE_DELAY_SECONDS } from "./schedule.ts";

/**
 * One queue message asks for one attempt of one invocation (or, with `also`, the first attempts
 * of several of one webhook's events). `attempt` is the attempt it is for
 * (1 for the first); a message for an attempt already made is a stale duplicate and is dropped.
 * Messages queued before it existed have no `attempt` and stand for the next one.
 */
export interface WebhookMessage {
  invocation_id: string;
  attempt?: number;
  /** The index shard its invocation is on (db/databases.ts). */
  shard: string;
  /**
   * How often this attempt was asked for before: a first attempt waiting for its push, or for
   * an earlier event in flight, is asked for again a bounded number of times (consumer.ts).
   */
  tries?: number;
  /**
   * More first attempts of the same webhook, from the same push, oldest first: one message for
   * all of them (outbox.ts `firstAttempts`). The queue's consumer hands each to the webhook's
   * sender as a message of its own (sender-object.ts `handleWebhookBatch`).
   */
  also?: string[];
}

/** What a producer says of one delivery: the shard goes on every message of a batch. */
export type Delivery = Omit<WebhookMessage, "shard">;

/** Queues accept at most 100 messages per sendBatch. */
const QUEUE_BATCH_LIMIT = 100;

/** The queue that `max_retries` sends a message to in the end, as wrangler.toml names it. */
export const DEAD_LETTER_QUEUE = "keyproof-webhooks-dead";

export const queueDelay = (seconds: number) =>
  Math.max(0, Math.min(Math.ceil(seconds), MAX_QUEUE_DELAY_SECONDS));

/** Puts attempts on the queue, each after `delaySeconds` (default: at once). */
export async function enqueue(
  env: Env,
  shard: string,
  messages: Delivery[],
  delaySeconds?: number,
) {
  meter("queueMessages", messages.length);
  for (let start = 0; start < messages.length; start += QUEUE_BATCH_LIMIT) {
    await env.WEBHOOK_QUEUE.sendBatch(
      messages.slice(start, start + QUEUE_BATCH_LIMIT).map((message) => ({
        body: { ...message, shard } satisfies WebhookMessage,
        contentType: "json" as const,
        delaySeconds: delaySeconds === undefined ? undefined : queueDelay(delaySeconds),
      })),
    );
  }
}

/**
 * Best effort after a commit: D1 already holds the schedule, so a send that fails only delays
 * the delivery until the sweeper finds it due.
 */
export async function enqueueQuietly(
  env: Env,
  shard: string,
  messages: Delivery[],
  delaySeconds?: number,
) {
  if (messages.length === 0) return;
  try {
    await enqueue(env, shard, messages, delaySeconds);
  } catch (error) {
    log(env, "warn", "enqueue failed; the sweeper will send these when due", {
      invocations: messages.flatMap((message) => [...(message.also ?? []), message.invocation_id]),
      error: String(error),
    });
  }
}
