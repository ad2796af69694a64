import { and, asc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import { shardDb } from "../db/databases.ts";
import { webhookInvocations } from "../db/webhooks.ts";
import type { Env } from "../env.ts";
import { enqueue } from "./queue.ts";
import { DEFAULT_SWEEP_GRACE_SECONDS } from "./schedule.ts";

/** Invocations sent again per sweep; a larger backlog drains over the following minutes. */
const SWEEP_BATCH = 500;

export function sweepGraceSeconds(env: Pick<Env, "WEBHOOK_SWEEP_GRACE_SECONDS">): number {
  const configured = Number(env.WEBHOOK_SWEEP_GRACE_SECONDS);
  return Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_SWEEP_GRACE_SECONDS;
}

/**
 * Runs every minute for each shard (the cron trigger; `npm start` calls it locally): queues every unfinished
 * invocation whose next attempt is overdue by the grace period and has no attempt in flight,
 * whatever its attempt count. This is what brings back a delivery whose queue message was lost
 * (a restart, a deploy, a dead-lettered message, an enqueue that failed after its commit).
 * A message that was not lost after all is harmless: only one claims the attempt.
 */
export async function sweepDueInvocations(env: Env, shard: string, now = new Date()) {
  const db = shardDb(env, shard);
  const overdue = new Date(now.getTime() - sweepGraceSeconds(env) * 1000).toISOString();
  const due = await db
    .select({ id: webhookInvocations.id, attempts: webhookInvocations.attempts })
    .from(webhookInvocations)
    .where(
      and(
        inArray(webhookInvocations.status, ["pending", "retrying"]),
        lte(webhookInvocations.nextAttemptAt, overdue),
        or(
          isNull(webhookInvocations.leaseUntil),
          lte(webhookInvocations.leaseUntil, now.toISOString()),
        ),
      ),
    )
    .orderBy(asc(webhookInvocations.nextAttemptAt))
    .limit(SWEEP_BATCH);
  const orphans =
    env.ENVIRONMENT === "development" ? await orphanedFirstAttempts(env, shard, now) : [];
  await enqueue(
    env,
    shard,
    [...due, ...orphans].map((row) => ({ invocation_id: row.id, attempt: row.attempts + 1 })),
  );
  return due.length + orphans.length;
}

/**
 * First attempts whose message is gone, in development only. A first attempt is in no index the
 * sweep reads: its message was queued before its push committed (index-push.ts), and Queues keep
 * a message until it is acknowledged, across deploys and failed consumers. `wrangler dev`'s queue
 * lives in its process, though, so a restart of `npm start` loses the messages it held: locally,
 * the sweep reads the first attempts still pending past the grace with no attempt in flight (a
 * scan, which a local database can afford) and queues them again.
 */
function orphanedFirstAttempts(env: Env, shard: string, now: Date) {
  const overdue = new Date(now.getTime() - sweepGraceSeconds(env) * 1000).toISOString();
  return shardDb(env, shard)
    .select({ id: webhookInvocations.id, attempts: webhookInvocations.attempts })
    .from(webhookInvocations)
    .where(
      and(
        eq(webhookInvocations.status, "pending"),
        eq(webhookInvocations.attempts, 0),
        isNull(webhookInvocations.nextAttemptAt),
        lte(webhookInvocations.createdAt, overdue),
        or(
          isNull(webhookInvocations.leaseUntil),
          lte(webhookInvocations.leaseUntil, now.toISOString()),
        ),
      ),
    )
    .limit(SWEEP_BATCH);
}
