import { buildApp } from "./app.ts";
import { database } from "./db/client.ts";
import type { Env } from "./env.ts";
import { handleWebhookBatch } from "./webhooks/consumer.ts";
import { reconcileDeadLetters } from "./webhooks/dead-letters.ts";
import { DEAD_LETTER_QUEUE, type WebhookMessage } from "./webhooks/queue.ts";
import { sweepDueInvocations } from "./webhooks/sweeper.ts";

export { RateLimiter } from "./rate-limiter/rate-limiter-object.ts";
export { SessionObject } from "./session-object/session-object.ts";

const app = buildApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) =>
    batch.queue === DEAD_LETTER_QUEUE
      ? reconcileDeadLetters(batch, env)
      : handleWebhookBatch(batch, env),
  // Every minute: send again every webhook invocation that is overdue with no attempt in flight.
  scheduled: async (_controller, env) => {
    await sweepDueInvocations(env, database(env.DB));
  },
} satisfies ExportedHandler<Env, WebhookMessage>;
