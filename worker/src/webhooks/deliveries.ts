import { and, desc, eq } from "drizzle-orm";
import { paginate } from "../db/paginate.ts";
import { sessions } from "../db/sessions.ts";
import {
  type EventType,
  eventAt,
  eventOf,
  events,
  eventsOfSessions,
  type InvocationRow,
  isDeliveryOf,
  webhookInvocations,
} from "../db/webhooks.ts";
import type { ProjectContext } from "../domain/context.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import type { Delivery } from "../schemas/webhooks.ts";
import { getWebhook } from "./definitions.ts";
import { firstAttempts, outboxRows, outboxStatements } from "./outbox.ts";
import { enqueueQuietly } from "./queue.ts";

/** `POST /webhooks/{webhook_id}/test/`: a `ping` event for this webhook alone. */
export async function sendTestEvent(ctx: ProjectContext, webhookId: string) {
  const webhook = await getWebhook(ctx, { kind: "any" }, webhookId);
  const rows = outboxRows(
    { projectId: ctx.projectId, sessionId: null, entity: "webhook", livemode: webhook.livemode },
    [{ type: "ping", payload: { webhook_id: webhook.id, message: "Test event from keyproof" } }],
    [{ ...webhook, events: [] }],
    ctx.now,
  );
  await ctx.db.batch(
    outboxStatements(ctx.db, rows) as [ReturnType<typeof outboxStatements>[number]],
  );
  await enqueueQuietly(ctx.env, ctx.shard, firstAttempts(rows.invocations));
  const [invocation] = rows.invocations;
  if (!invocation) throw new ApiError(500, "No invocation was created for the test event");
  return deliveryView(invocation, "ping");
}

function deliveryView(invocation: InvocationRow, event: EventType): Delivery {
  return {
    id: invocation.id,
    webhook_id: invocation.webhookId,
    event_id: invocation.eventId,
    event,
    status: invocation.status,
    attempts: invocation.attemptLog,
    // A first attempt is queued, not put in the sweep's index (index-push.ts): due at once.
    next_attempt_at:
      invocation.nextAttemptAt ??
      (invocation.status === "pending" && invocation.attempts === 0 ? invocation.createdAt : null),
    failure_reason: invocation.failureReason,
    created_at: invocation.createdAt,
    updated_at: invocation.updatedAt,
  };
}

export async function listDeliveries(
  ctx: ProjectContext,
  webhookId: string,
  query: { offset: number; limit: number; status?: InvocationRow["status"] | undefined },
) {
  await getWebhook(ctx, { kind: "any" }, webhookId);
  const conditions = [eq(webhookInvocations.webhookId, webhookId)];
  if (query.status) conditions.push(eq(webhookInvocations.status, query.status));
  const where = and(...conditions);
  const list = await paginate(
    ctx.db,
    ctx.db
      .select({ invocation: webhookInvocations, event: events.type })
      .from(webhookInvocations)
      .innerJoin(events, eventOf(webhookInvocations))
      .where(where)
      .$dynamic(),
    { table: webhookInvocations, where, id: webhookInvocations.id },
    query,
  );
  return { ...list, items: list.items.map((row) => deliveryView(row.invocation, row.event)) };
}

/** Delivers an invocation again (same `webhook-id`), whatever became of it. */
export async function retryDelivery(ctx: ProjectContext, webhookId: string, invocationId: string) {
  await getWebhook(ctx, { kind: "any" }, webhookId);
  const [row] = await ctx.db
    .update(webhookInvocations)
    .set({
      status: "pending",
      nextAttemptAt: ctx.now.toISOString(),
      failureReason: null,
      updatedAt: ctx.now.toISOString(),
    })
    .where(
      and(eq(webhookInvocations.id, invocationId), eq(webhookInvocations.webhookId, webhookId)),
    )
    .returning();
  if (!row) throw notFound("Delivery", "path.invocation_id", invocationId);
  await enqueueQuietly(ctx.env, ctx.shard, [{ invocation_id: row.id, attempt: row.attempts + 1 }]);
  const [event] = await ctx.db
    .select({ type: events.type })
    .from(events)
    .where(eventAt(row.projectId, row.eventId));
  return deliveryView(row, event?.type ?? "ping");
}

/** Deliveries of one session's events, to any webhook, newest first (for the session page). */
export async function deliveriesForSession(ctx: ProjectContext, sessionId: string, limit = 100) {
  const rows = await ctx.db
    .select({ invocation: webhookInvocations, event: events.type })
    .from(webhookInvocations)
    .innerJoin(events, eventOf(webhookInvocations))
    .where(
      isDeliveryOf(
        eventsOfSessions(and(eq(sessions.id, sessionId), eq(sessions.projectId, ctx.projectId))),
      ),
    )
    .orderBy(desc(webhookInvocations.id))
    .limit(limit);
  return rows.map((row) => deliveryView(row.invocation, row.event));
}
