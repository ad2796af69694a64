import { and, count, desc, eq, inArray, isNull, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { sessions } from "../db/sessions.ts";
import {
  type EventType,
  events,
  type InvocationRow,
  type WebhookRow,
  webhookAttempts,
  webhookInvocations,
  webhooks,
} from "../db/webhooks.ts";
import { ApiError, badRequest, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import type {
  Delivery,
  Webhook,
  WebhookCreateInput,
  WebhookPatchInput,
} from "../schemas/webhooks.ts";
import { firstAttempts, outboxStatements } from "../webhooks/outbox.ts";
import { enqueueQuietly } from "../webhooks/queue.ts";
import { newWebhookSecret } from "../webhooks/signing.ts";
import { allowsPrivateNetworks, unsafeUrlReason } from "../webhooks/url-safety.ts";
import type { ProjectContext } from "./context.ts";
import { outboxRows } from "./events.ts";
import { listEnvelope } from "./paging.ts";

/** Which webhooks a route addresses: the project's own, one session's, or any of the project's. */
export type WebhookScope =
  | { kind: "project" }
  | { kind: "session"; sessionId: string }
  | { kind: "any" };

export function webhookView(row: WebhookRow): Webhook {
  return {
    id: row.id,
    session_id: row.sessionId,
    url: row.url,
    method: row.method,
    headers: JSON.parse(row.headers) as Record<string, string>,
    events: JSON.parse(row.events) as EventType[],
    retries: row.retries,
    initial_backoff: row.initialBackoff,
    backoff_multiplier: row.backoffMultiplier,
    enabled: row.enabled,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

function assertSafeUrl(ctx: ProjectContext, url: string, location: string) {
  const reason = unsafeUrlReason(url, allowsPrivateNetworks(ctx.env.ENVIRONMENT));
  if (reason) throw badRequest(location, reason, url);
}

/** A new webhook row (with its secret); `location` prefixes errors, e.g. `body.webhooks[0]`. */
export function newWebhookRow(
  ctx: ProjectContext,
  sessionId: string | null,
  input: WebhookCreateInput,
  location = "body",
): WebhookRow {
  assertSafeUrl(ctx, input.url, `${location}.url`);
  const now = ctx.now.toISOString();
  return {
    id: newId("wh", ctx.now.getTime()),
    projectId: ctx.projectId,
    sessionId,
    url: input.url,
    method: input.method,
    headers: JSON.stringify(input.headers),
    events: JSON.stringify([...new Set(input.events)]),
    retries: input.retries,
    initialBackoff: input.initial_backoff,
    backoffMultiplier: input.backoff_multiplier,
    enabled: input.enabled,
    secret: newWebhookSecret(),
    createdAt: now,
    updatedAt: now,
  };
}

function scopeCondition(ctx: ProjectContext, scope: WebhookScope): SQL | undefined {
  const project = eq(webhooks.projectId, ctx.projectId);
  if (scope.kind === "project") return and(project, isNull(webhooks.sessionId));
  if (scope.kind === "session") return and(project, eq(webhooks.sessionId, scope.sessionId));
  return project;
}

/** The session a session-scoped route names must be the caller's and of the route's kind. */
export async function assertSessionInProject(
  ctx: ProjectContext,
  kind: "collect" | "verify",
  sessionId: string,
) {
  const [found] = await ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.projectId, ctx.projectId),
        eq(sessions.kind, kind),
      ),
    )
    .limit(1);
  if (!found) throw notFound("Session", "path.session_id", sessionId);
}

export async function createWebhook(
  ctx: ProjectContext,
  scope: WebhookScope,
  input: WebhookCreateInput,
) {
  const row = newWebhookRow(ctx, scope.kind === "session" ? scope.sessionId : null, input);
  await ctx.db.insert(webhooks).values(row);
  return row;
}

export async function getWebhook(
  ctx: ProjectContext,
  scope: WebhookScope,
  webhookId: string,
): Promise<WebhookRow> {
  const [row] = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, webhookId), scopeCondition(ctx, scope)))
    .limit(1);
  if (!row) throw notFound("Webhook", "path.webhook_id", webhookId);
  return row;
}

export async function listWebhooks(
  ctx: ProjectContext,
  scope: WebhookScope,
  page: { offset: number; limit: number },
) {
  const where = scopeCondition(ctx, scope);
  const [rows, [totals]] = await ctx.db.batch([
    ctx.db
      .select()
      .from(webhooks)
      .where(where)
      .orderBy(desc(webhooks.id))
      .limit(page.limit)
      .offset(page.offset),
    ctx.db.select({ total: count() }).from(webhooks).where(where),
  ]);
  return listEnvelope(rows.map(webhookView), totals, page);
}

/** PATCH changes the given fields; PUT passes a full (defaulted) definition. */
export async function updateWebhook(
  ctx: ProjectContext,
  scope: WebhookScope,
  webhookId: string,
  input: WebhookPatchInput,
) {
  await getWebhook(ctx, scope, webhookId);
  if (input.url !== undefined) assertSafeUrl(ctx, input.url, "body.url");
  const changes: Partial<WebhookRow> = { updatedAt: ctx.now.toISOString() };
  if (input.url !== undefined) changes.url = input.url;
  if (input.method !== undefined) changes.method = input.method;
  if (input.headers !== undefined) changes.headers = JSON.stringify(input.headers);
  if (input.events !== undefined) changes.events = JSON.stringify([...new Set(input.events)]);
  if (input.retries !== undefined) changes.retries = input.retries;
  if (input.initial_backoff !== undefined) changes.initialBackoff = input.initial_backoff;
  if (input.backoff_multiplier !== undefined) changes.backoffMultiplier = input.backoff_multiplier;
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  const [row] = await ctx.db
    .update(webhooks)
    .set(changes)
    .where(eq(webhooks.id, webhookId))
    .returning();
  if (!row) throw notFound("Webhook", "path.webhook_id", webhookId);
  return row;
}

export async function deleteWebhook(ctx: ProjectContext, scope: WebhookScope, webhookId: string) {
  await getWebhook(ctx, scope, webhookId);
  await ctx.db.delete(webhooks).where(eq(webhooks.id, webhookId));
}

/** `POST /webhooks/{id}/test/`: a `ping` event for this webhook alone. */
export async function sendTestEvent(ctx: ProjectContext, webhookId: string) {
  const webhook = await getWebhook(ctx, { kind: "any" }, webhookId);
  const rows = outboxRows(
    { projectId: ctx.projectId, sessionId: null, entity: "webhook" },
    [{ type: "ping", payload: { webhook_id: webhook.id, message: "Test event from keyproof" } }],
    [{ ...webhook, events: "[]" }],
    ctx.now,
  );
  await ctx.db.batch(
    outboxStatements(ctx.db, rows) as [ReturnType<typeof outboxStatements>[number]],
  );
  await enqueueQuietly(ctx.env, firstAttempts(rows.invocations));
  const [invocation] = rows.invocations;
  if (!invocation) throw new ApiError(500, "No invocation was created for the test event");
  return deliveryView(invocation, "ping", []);
}

function deliveryView(
  invocation: InvocationRow,
  event: EventType,
  attempts: (typeof webhookAttempts.$inferSelect)[],
): Delivery {
  return {
    id: invocation.id,
    webhook_id: invocation.webhookId,
    event_id: invocation.eventId,
    event,
    status: invocation.status,
    attempts: attempts
      .filter((attempt) => attempt.invocationId === invocation.id)
      .map((attempt) => ({
        attempt: attempt.attempt,
        request_time: attempt.requestTime,
        duration_ms: attempt.durationMs,
        status_code: attempt.statusCode,
        response_body: attempt.responseBody,
        error: attempt.error,
      })),
    next_attempt_at: invocation.nextAttemptAt,
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
  const [rows, [totals]] = await ctx.db.batch([
    ctx.db
      .select({ invocation: webhookInvocations, event: events.type })
      .from(webhookInvocations)
      .innerJoin(events, eq(events.id, webhookInvocations.eventId))
      .where(where)
      .orderBy(desc(webhookInvocations.id))
      .limit(query.limit)
      .offset(query.offset),
    ctx.db.select({ total: count() }).from(webhookInvocations).where(where),
  ]);
  return listEnvelope(await withAttempts(ctx.db, rows), totals, query);
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
  await enqueueQuietly(ctx.env, [{ invocation_id: row.id, attempt: row.attempts + 1 }]);
  const [event] = await ctx.db
    .select({ type: events.type })
    .from(events)
    .where(eq(events.id, row.eventId));
  return deliveryView(row, event?.type ?? "ping", []);
}

/** Deliveries of one session's events, to any webhook, newest first (for the session page). */
export async function deliveriesForSession(ctx: ProjectContext, sessionId: string, limit = 100) {
  const rows = await ctx.db
    .select({ invocation: webhookInvocations, event: events.type })
    .from(webhookInvocations)
    .innerJoin(events, eq(events.id, webhookInvocations.eventId))
    .where(and(eq(events.projectId, ctx.projectId), eq(events.sessionId, sessionId)))
    .orderBy(desc(webhookInvocations.id))
    .limit(limit);
  return withAttempts(ctx.db, rows);
}

/** Delivery views for invocations, each with its attempts, read in one query for all of them. */
async function withAttempts(db: Database, rows: { invocation: InvocationRow; event: EventType }[]) {
  const ids = rows.map((row) => row.invocation.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.invocationId, ids))
        .orderBy(webhookAttempts.attempt)
    : [];
  return rows.map((row) => deliveryView(row.invocation, row.event, attempts));
}
