import { env as startEnv } from "cloudflare:workers";
import { buildApp } from "./app.ts";
import { configurationProblems } from "./config.ts";
import { withD1 } from "./db/d1-calls.ts";
import { everyMinute } from "./domain/housekeeping.ts";
import type { Env } from "./env.ts";
import { meter } from "./lib/meter.ts";
import { reconcileDeadLetters } from "./webhooks/dead-letters.ts";
import { DEAD_LETTER_QUEUE, type WebhookMessage } from "./webhooks/queue.ts";
import { handleWebhookBatch } from "./webhooks/sender-object.ts";

export { IdempotencyRecords } from "./idempotency/idempotency-object.ts";
export { RateLimiter } from "./rate-limiter/rate-limiter-object.ts";
export { IndexWriter } from "./session-object/index-writer.ts";
export { SessionObject } from "./session-object/session-object.ts";
export { WebhookSender } from "./webhooks/sender-object.ts";

// A misconfigured Worker does not start: the deploy (or `wrangler dev`) says which setting.
const problems = configurationProblems(startEnv);
if (problems.length > 0) throw new Error(`keyproof cannot start: ${problems.join("; ")}`);

const app = buildApp();

export default {
  fetch: (request, env, ctx) => {
    // What reads the meters, and the bridges' readiness probes, are not what they measure.
    if (!/\/(__dev\/|internal\/v1\/health)/.test(request.url)) meter("workerInvocations");
    return app.fetch(request, withD1(env), ctx);
  },
  queue: (batch, env) => {
    meter("workerInvocations");
    return batch.queue === DEAD_LETTER_QUEUE
      ? reconcileDeadLetters(batch, withD1(env))
      : handleWebhookBatch(batch, withD1(env));
  },
  // Every minute, per shard: overdue deliveries, retention, sizes; hourly housekeeping.
  scheduled: async (_controller, env) => {
    meter("workerInvocations");
    await everyMinute(withD1(env));
  },
} satisfies ExportedHandler<Env, WebhookMessage>;
