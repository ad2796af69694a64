import { buildApp } from "./app.ts";
import { database } from "./db/client.ts";
import type { Env } from "./env.ts";
import { handleWebhookBatch } from "./webhooks/consumer.ts";
import { sweepOutbox, type WebhookMessage } from "./webhooks/outbox.ts";

export { RateLimiter } from "./rate-limiter/rate-limiter-object.ts";
export { SessionObject } from "./session-object/session-object.ts";

const app = buildApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) => handleWebhookBatch(batch, env),
  // Every minute: queue the webhook invocations whose enqueue failed after their batch committed.
  scheduled: async (_controller, env) => {
    await sweepOutbox(env, database(env.DB));
  },
} satisfies ExportedHandler<Env, WebhookMessage>;
