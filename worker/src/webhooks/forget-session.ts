import { and, eq, isNull } from "drizzle-orm";
import { database } from "../db/client.ts";
import { shardBinding } from "../db/databases.ts";
import { webhooks } from "../db/webhooks.ts";
import type { ProjectContext } from "../domain/context.ts";
import { log } from "../lib/log.ts";
import { objectStub } from "../lib/meter.ts";

/**
 * After a session's deletion: each webhook that may hold deliveries of it (its project's, its
 * own) is told to send nothing more of it, and its attempt in flight has ended on return. With D1
 * away the webhooks cannot be read, but then no sender can claim an attempt of it either (claims
 * are D1's); the deletion, made already, is answered all the same.
 */
export async function forgetSessionInSenders(ctx: ProjectContext, sessionId: string) {
  try {
    await tellSenders(ctx, sessionId);
  } catch (error) {
    log(ctx.env, "warn", "a deleted session's webhooks could not be told", {
      session_id: sessionId,
      error: String(error),
    });
  }
}

async function tellSenders(ctx: ProjectContext, sessionId: string) {
  // The nearest replica: the request's own D1 session would first wait for the caller's pending
  // writes. A webhook made within the replica's lag (seconds) is the only one it may not list.
  const nearest = database(shardBinding(ctx.env, ctx.shard).withSession("first-unconstrained"));
  // The project's webhooks and the session's own, each a range of its index.
  const [project, own] = await nearest.batch([
    nearest
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(and(eq(webhooks.projectId, ctx.projectId), isNull(webhooks.sessionId))),
    nearest
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(and(eq(webhooks.sessionId, sessionId), eq(webhooks.projectId, ctx.projectId))),
  ]);
  const hearing = [...project, ...own];
  await Promise.all(
    hearing.map(({ id }) =>
      objectStub(ctx.env, ctx.env.WEBHOOK_SENDERS, id).forgetSession(sessionId),
    ),
  );
}
