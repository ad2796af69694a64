import { and, eq, isNull, type SQL } from "drizzle-orm";
import { paginate } from "../db/paginate.ts";
import { type WebhookRow, webhooks } from "../db/webhooks.ts";
import type { ProjectContext } from "../domain/context.ts";
import { renewWebhookCopy } from "../domain/session-views.ts";
import { sessionIndexed, sessionState } from "../domain/sessions.ts";
import { webhookView } from "../domain/webhook-view.ts";
import { badRequest, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { allowsPrivateNetworks, unsafeUrlReason } from "../lib/url-safety.ts";
import type { SessionKind } from "../protocol/messages.ts";
import type { WebhookCreateInput, WebhookPatchInput } from "../schemas/webhooks.ts";
import { newWebhookSecret } from "./signing.ts";

/** Which webhooks a route addresses: the project's own, one session's, or any of the project's. */
export type WebhookScope =
  | { kind: "project" }
  | { kind: "session"; sessionId: string }
  | { kind: "any" };

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
    headers: input.headers,
    events: [...new Set(input.events)],
    retries: input.retries,
    initialBackoff: input.initial_backoff,
    backoffMultiplier: input.backoff_multiplier,
    enabled: input.enabled,
    livemode: ctx.livemode,
    secret: newWebhookSecret(),
    createdAt: now,
    updatedAt: now,
  };
}

function scopeCondition(ctx: ProjectContext, scope: WebhookScope): SQL | undefined {
  const project = and(eq(webhooks.projectId, ctx.projectId), eq(webhooks.livemode, ctx.livemode));
  if (scope.kind === "project") return and(project, isNull(webhooks.sessionId));
  if (scope.kind === "session") return and(project, eq(webhooks.sessionId, scope.sessionId));
  return project;
}

/**
 * The session a session-scoped route names must be the caller's and of the route's kind: its
 * object says so, current even where D1's replica near the caller has not seen it yet.
 */
/**
 * The caller's session exists, and D1 has it: its webhooks are D1's rows, which name it. A session
 * created a moment ago is answered at its object, so its push may still be on its way.
 */
export async function assertSessionInProject(
  ctx: ProjectContext,
  kind: SessionKind,
  sessionId: string,
) {
  await sessionState(ctx, kind, sessionId);
  await sessionIndexed(ctx, kind, sessionId);
}

export async function createWebhook(
  ctx: ProjectContext,
  scope: WebhookScope,
  input: WebhookCreateInput,
) {
  const row = newWebhookRow(ctx, scope.kind === "session" ? scope.sessionId : null, input);
  await ctx.db.insert(webhooks).values(row);
  await renewCopy(ctx, row);
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
  const list = await paginate(
    ctx.db,
    ctx.db.select().from(webhooks).where(where).$dynamic(),
    { table: webhooks, where, id: webhooks.id },
    page,
  );
  return { ...list, items: list.items.map(webhookView) };
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
  if (input.headers !== undefined) changes.headers = input.headers;
  if (input.events !== undefined) changes.events = [...new Set(input.events)];
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
  await renewCopy(ctx, row);
  return row;
}

export async function deleteWebhook(ctx: ProjectContext, scope: WebhookScope, webhookId: string) {
  const row = await getWebhook(ctx, scope, webhookId);
  await ctx.db.delete(webhooks).where(eq(webhooks.id, webhookId));
  await renewCopy(ctx, row);
}

/** A session's webhook changed: the session's object keeps a copy of them (SessionState). */
async function renewCopy(ctx: ProjectContext, row: WebhookRow) {
  if (row.sessionId) await renewWebhookCopy(ctx, row.sessionId);
}
