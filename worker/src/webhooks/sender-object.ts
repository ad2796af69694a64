import { DurableObject } from "cloudflare:workers";
import { withD1 } from "../db/d1-calls.ts";
import { webhookOfInvocation } from "../db/webhooks.ts";
import type { Env } from "../env.ts";
import { log } from "../lib/log.ts";
import { meteredAlarm, meteredStorage, metering, objectStub } from "../lib/meter.ts";
import { ORDER_POLL_BUDGET_MS } from "./claims.ts";
import { firstAttemptSent, processInvocation, type SendGuard } from "./consumer.ts";
import { enqueue, enqueueQuietly, type WebhookMessage } from "./queue.ts";

/**
 * One per webhook: where its deliveries are sent from. The queue's consumer hands each webhook's
 * messages to its sender and is done with the batch at once; the sender keeps them in its storage
 * and sends them from its alarm, in the webhook's order. A receiver that answers slowly (or not at
 * all, up to the timeout) thus holds its own sender only: the queue's next batch, and every other
 * webhook's deliveries, go on beside it — locally, where the queue hands the consumer one batch at
 * a time, as in production, where the consumer's concurrency grows with the backlog.
 *
 * What is kept is the messages themselves (ids and shard, nothing about a session), one entry
 * per batch handed over, deleted once its attempts are made: D1 holds the schedule and the
 * claims, so a message handled twice (a crash between a send and the delete) is a duplicate the
 * claims drop. Besides them, the ids of sessions deleted lately: nothing of theirs is sent.
 */
/**
 * How long a sender waits before trying again what it could not send: a second after the first
 * failure (a busy moment of D1 or the queue), twice as long after each next, this long at most.
 */
export const SEND_RETRY_MS = 30_000;
const FIRST_RETRY_MS = 1_000;

/**
 * How long a sender remembers a deleted session: far longer than the deletion takes to reach D1,
 * after which no message finds anything of the session to send.
 */
export const FORGOTTEN_KEPT_MS = 24 * 60 * 60 * 1000;

const BATCH = "batch:";
const FORGOTTEN = "forgotten:";

export class WebhookSender extends DurableObject<Env> {
  readonly #storage: DurableObjectStorage;
  /** Runs in a row that could not send (memory: a new instance starts at a second again). */
  #failures = 0;
  /** The attempt being sent now, and its event's session. */
  #sending: { sessionId: string | null; done: Promise<unknown> } | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withD1(env));
    this.#storage = metering(env) ? meteredStorage(ctx.storage, "webhook sender") : ctx.storage;
  }

  /** Keeps `messages` and wakes at once to send them (a run under way takes them with it). */
  async accept(messages: WebhookMessage[]): Promise<void> {
    this.#storage.kv.put(`${BATCH}${Date.now()}-${crypto.randomUUID()}`, messages);
    // Woken at once, unless a retry is due soon anyway (not for a forgotten session's expiry).
    const alarm = await this.#storage.getAlarm();
    if (alarm === null || alarm > Date.now() + SEND_RETRY_MS)
      await this.#storage.setAlarm(Date.now());
  }

  /**
   * The session was deleted: nothing of it is sent from now on, and an attempt of it being sent
   * now has ended when this returns, so the deletion's answer is the last word about it.
   */
  async forgetSession(sessionId: string): Promise<void> {
    this.#storage.kv.put(`${FORGOTTEN}${sessionId}`, Date.now());
    if ((await this.#storage.getAlarm()) === null)
      await this.#storage.setAlarm(Date.now() + FORGOTTEN_KEPT_MS);
    const sending = this.#sending;
    if (sending?.sessionId === sessionId) await sending.done.catch(() => undefined);
  }

  readonly #guard: SendGuard = {
    forgotten: (sessionId) =>
      sessionId !== null && this.#storage.kv.get(`${FORGOTTEN}${sessionId}`) !== undefined,
    sending: (sessionId, done) => {
      this.#sending = { sessionId, done };
    },
  };

  override alarm(): Promise<void> {
    return meteredAlarm(async () => {
      // Messages accepted while a run sends are taken by the next round of this loop.
      for (;;) {
        const kept = [...this.#storage.kv.list<WebhookMessage[]>({ prefix: BATCH })];
        if (kept.length === 0) return this.#letGoOfForgotten();
        try {
          await sendWebhookMessages(
            this.env,
            kept.flatMap(([, messages]) => messages),
            this.#guard,
          );
        } catch (error) {
          // D1 or the queue away or busy: the messages stay, and this object wakes again for
          // them, sooner at first, for as long as it takes (the runtime's own retries give up).
          log(this.env, "warn", "a webhook's sender could not send; it tries again", {
            error: String(error),
          });
          const wait = Math.min(SEND_RETRY_MS, FIRST_RETRY_MS * 2 ** this.#failures);
          this.#failures += 1;
          await this.#storage.setAlarm(Date.now() + wait);
          return;
        }
        this.#failures = 0;
        for (const [key] of kept) this.#storage.kv.delete(key);
      }
    });
  }

  /** Forgets the deleted sessions remembered long enough, and wakes for the next one due. */
  async #letGoOfForgotten() {
    const now = Date.now();
    let next: number | null = null;
    for (const [key, at] of this.#storage.kv.list<number>({ prefix: FORGOTTEN })) {
      if (at + FORGOTTEN_KEPT_MS <= now) this.#storage.kv.delete(key);
      else next = Math.min(next ?? Number.POSITIVE_INFINITY, at + FORGOTTEN_KEPT_MS);
    }
    if (next !== null) await this.#storage.setAlarm(next);
  }
}

/**
 * A queue batch: each webhook's messages go to its sender, side by side, and are acknowledged
 * once kept there; a sender that cannot be reached has its messages retried by the queue.
 */
export async function handleWebhookBatch(batch: MessageBatch<WebhookMessage>, env: Env) {
  const byWebhook = new Map<string, Message<WebhookMessage>[]>();
  for (const message of batch.messages) {
    const webhook = webhookOfInvocation(message.body.invocation_id);
    byWebhook.set(webhook, [...(byWebhook.get(webhook) ?? []), message]);
  }
  await Promise.all(
    [...byWebhook].map(async ([webhook, messages]) => {
      try {
        await objectStub(env, env.WEBHOOK_SENDERS, webhook).accept(
          messages.flatMap((message) => {
            const { also = [], ...body } = message.body;
            // How often this attempt has been asked for: the queue's deliveries of it count too.
            const tries = (body.tries ?? 1) + message.attempts - 1;
            return [
              ...also.map((invocation_id) => ({ ...body, invocation_id, tries })),
              { ...body, tries },
            ];
          }),
        );
        for (const message of messages) message.ack();
      } catch {
        for (const message of messages) message.retry();
      }
    }),
  );
}

/**
 * One webhook's messages, each an attempt made (or not yet): the latest event first, as its run
 * sends the earlier ones with it, in order, so their own messages find their attempt made and
 * read nothing. An attempt that must wait goes back on the queue for its wait, with its count of
 * tries; the next attempt of one that failed is queued for its backoff.
 */
export async function sendWebhookMessages(env: Env, messages: WebhookMessage[], guard?: SendGuard) {
  const waitUntil = Date.now() + ORDER_POLL_BUDGET_MS;
  const latestFirst = messages.toSorted((a, b) => b.invocation_id.localeCompare(a.invocation_id));
  for (const message of latestFirst) {
    const { shard, invocation_id } = message;
    const tries = message.tries ?? 1;
    // A first attempt another message sent (its retry, if any, queued by that one): done.
    if ((message.attempt ?? 1) === 1 && firstAttemptSent(invocation_id)) continue;
    const decision = await processInvocation(
      env,
      shard,
      message,
      new Date(),
      tries,
      waitUntil,
      guard,
    );
    if (decision.kind === "next")
      await enqueueQuietly(
        env,
        shard,
        [{ invocation_id, attempt: decision.attempt }],
        decision.delaySeconds,
      );
    else if (decision.kind === "later")
      await enqueue(
        env,
        shard,
        [{ invocation_id, attempt: message.attempt, tries: tries + 1 }],
        decision.delaySeconds,
      );
  }
}
