import { env as startEnv } from "cloudflare:workers";
import { buildApp } from "./app.ts";
import { configurationProblems } from "./config.ts";
import { database } from "./db/client.ts";
import { withD1 } from "./db/simulated-primary.ts";
import { isHousekeepingMinute, sweepExpired } from "./domain/housekeeping.ts";
import { sweepRetention } from "./domain/retention.ts";
import type { Env } from "./env.ts";
import { log } from "./lib/log.ts";
import { meter } from "./lib/meter.ts";
import { awayReason, isIndexUnavailable } from "./lib/unavailable.ts";
import { handleWebhookBatch } from "./webhooks/consumer.ts";
import { reconcileDeadLetters } from "./webhooks/dead-letters.ts";
import { DEAD_LETTER_QUEUE, type WebhookMessage } from "./webhooks/queue.ts";
import { sweepDueInvocations } from "./webhooks/sweeper.ts";

export { IdempotencyRecords } from "./idempotency/idempotency-object.ts";
export { RateLimiter } from "./rate-limiter/rate-limiter-object.ts";
export { IndexWriter } from "./session-object/index-writer.ts";
export { SessionObject } from "./session-object/session-object.ts";

/**
 * One duty of the minute's cron: while D1 is away it is one line (the next minute tries again,
 * nothing is lost), as every other path says it; anything else is an error with its stack.
 */
async function sweeping(env: Env, duty: string, sweep: () => Promise<unknown>) {
  try {
    await sweep();
  } catch (error) {
    if (!isIndexUnavailable(error)) throw error;
    log(env, "warn", "D1 away; the cron tries again next minute", {
      duty,
      error: awayReason(error),
    });
  }
}

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
  // Every minute: send again every webhook invocation that is overdue with no attempt in flight.
  scheduled: async (_controller, env) => {
    meter("workerInvocations");
    const simulated = withD1(env);
    const db = database(simulated.DB);
    await sweeping(simulated, "webhook deliveries", () => sweepDueInvocations(simulated, db));
    await sweeping(simulated, "retention", () => sweepRetention(simulated, db));
    if (isHousekeepingMinute(new Date()))
      await sweeping(simulated, "housekeeping", () => sweepExpired(db));
  },
} satisfies ExportedHandler<Env, WebhookMessage>;
