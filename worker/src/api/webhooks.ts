import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import type { WebhookRow } from "../db/webhooks.ts";
import { type AuditEntry, audit } from "../domain/audit-log.ts";
import type { ProjectContext } from "../domain/context.ts";
import { webhookView } from "../domain/webhook-view.ts";
import type { SessionKind } from "../protocol/messages.ts";
import { listEnvelope, listQuery } from "../schemas/common.ts";
import { sessionIdParam } from "../schemas/sessions.ts";
import {
  delivery,
  deliveryListQuery,
  webhook,
  webhookCreate,
  webhookIdParam,
  webhookPatch,
  webhookSecret,
  webhookWithSecret,
} from "../schemas/webhooks.ts";
import {
  assertSessionInProject,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  updateWebhook,
  type WebhookScope,
} from "../webhooks/definitions.ts";
import { listDeliveries, retryDelivery, sendTestEvent } from "../webhooks/deliveries.ts";
import { jsonBody, jsonResponse } from "./responses.ts";
import { apiRouter } from "./router.ts";

const ANY: WebhookScope = { kind: "any" };
const PROJECT: WebhookScope = { kind: "project" };
const invocationParams = webhookIdParam.extend({
  invocation_id: z.string().max(64).describe("The delivery's `id` (`whi_...`), its `webhook-id`"),
});

/** The path's own parameters (the session's id, for session webhooks). */
type PathParams = Record<string, string | undefined>;
type ScopeOf = (ctx: ProjectContext, params: PathParams) => Promise<WebhookScope>;

/**
 * The operations on a list of webhooks and on one of them, wherever they are addressed from:
 * `/webhooks` (the project's webhooks; one webhook of any scope) or a session's `/webhooks`.
 * `listScope` and `itemScope` say which webhooks the path reaches.
 */
function webhookRoutes(options: {
  tag: string;
  base: string;
  params: z.ZodObject;
  whose: string;
  listScope: ScopeOf;
  itemScope: ScopeOf;
  /** Session webhooks can also be replaced whole (PUT). */
  replaceable: boolean;
  /** Names each operation's `operationId`: `Webhook`, `CollectSessionWebhook`, ... */
  noun: string;
}) {
  const { tag, base, whose, noun } = options;
  const one = `${base}/{webhook_id}`;
  const oneParams = options.params.extend(webhookIdParam.shape);
  const target = async (ctx: ProjectContext, params: PathParams) => ({
    scope: await options.itemScope(ctx, params),
    id: params.webhook_id ?? "",
  });
  const app = apiRouter()
    .openapi(
      createRoute({
        method: "get",
        path: base || "/",
        operationId: `list${noun}s`,
        tags: [tag],
        summary: `List ${whose} webhooks`,
        request: { params: options.params, query: listQuery },
        responses: {
          200: jsonResponse(listEnvelope(webhook), `A page of ${whose} webhooks`),
        },
      }),
      async (c) => {
        const ctx = c.var.project;
        const scope = await options.listScope(ctx, c.req.param());
        return c.json(await listWebhooks(ctx, scope, c.req.valid("query")), 200);
      },
    )
    .openapi(
      createRoute({
        method: "post",
        path: base || "/",
        operationId: `create${noun}`,
        tags: [tag],
        summary: `Create one of ${whose} webhooks`,
        description: "The response is the only one that carries the signing `secret` unasked.",
        request: { params: options.params, ...jsonBody(webhookCreate) },
        responses: {
          201: jsonResponse(webhookWithSecret, "The new webhook, with its secret"),
        },
      }),
      async (c) => {
        const ctx = c.var.project;
        const scope = await options.listScope(ctx, c.req.param());
        const row = await createWebhook(ctx, scope, c.req.valid("json"));
        await audit(c, { action: "webhook.created", targetId: row.id, details: scopeOf(row) });
        return c.json({ ...webhookView(row), secret: row.secret }, 201);
      },
    )
    .openapi(
      createRoute({
        method: "get",
        path: one,
        operationId: `get${noun}`,
        tags: [tag],
        summary: "Get a webhook",
        request: { params: oneParams },
        responses: { 200: jsonResponse(webhook, "The webhook") },
      }),
      async (c) => {
        const { scope, id } = await target(c.var.project, c.req.param());
        return c.json(webhookView(await getWebhook(c.var.project, scope, id)), 200);
      },
    )
    .openapi(
      createRoute({
        method: "get",
        path: `${one}/secret`,
        operationId: `get${noun}Secret`,
        tags: [tag],
        summary: "Reveal a webhook's signing secret",
        request: { params: oneParams },
        responses: {
          200: jsonResponse(webhookSecret, "The `whsec_...` secret"),
        },
      }),
      async (c) => {
        const { scope, id } = await target(c.var.project, c.req.param());
        return c.json({ secret: (await getWebhook(c.var.project, scope, id)).secret }, 200);
      },
    )
    .openapi(
      createRoute({
        method: "patch",
        path: one,
        operationId: `update${noun}`,
        tags: [tag],
        summary: "Change some fields of a webhook",
        request: { params: oneParams, ...jsonBody(webhookPatch) },
        responses: {
          200: jsonResponse(webhook, "The changed webhook"),
        },
      }),
      async (c) => {
        const { scope, id } = await target(c.var.project, c.req.param());
        const row = await updateWebhook(c.var.project, scope, id, c.req.valid("json"));
        await audit(c, changed(row, c.req.valid("json")));
        return c.json(webhookView(row), 200);
      },
    )
    .openapi(
      createRoute({
        method: "delete",
        path: one,
        operationId: `delete${noun}`,
        tags: [tag],
        summary: "Delete a webhook and its delivery history",
        request: { params: oneParams },
        responses: { 204: { description: "Deleted" } },
      }),
      async (c) => {
        const { scope, id } = await target(c.var.project, c.req.param());
        await deleteWebhook(c.var.project, scope, id);
        await audit(c, { action: "webhook.deleted", targetId: id });
        return c.body(null, 204);
      },
    );
  if (!options.replaceable) return app;
  return app.openapi(
    createRoute({
      method: "put",
      path: one,
      operationId: `replace${noun}`,
      tags: [tag],
      summary: "Replace a webhook's definition",
      description: "Fields left out take their defaults, as when creating.",
      request: { params: oneParams, ...jsonBody(webhookCreate) },
      responses: {
        200: jsonResponse(webhook, "The replaced webhook"),
      },
    }),
    async (c) => {
      const { scope, id } = await target(c.var.project, c.req.param());
      const row = await updateWebhook(c.var.project, scope, id, c.req.valid("json"));
      await audit(c, changed(row, c.req.valid("json")));
      return c.json(webhookView(row), 200);
    },
  );
}

/** A session's own webhook names its session in the audit log. */
const scopeOf = (row: WebhookRow): Record<string, string> =>
  row.sessionId ? { session_id: row.sessionId } : {};

/** A webhook's change as the audit log has it: which fields were sent. */
const changed = (row: WebhookRow, sent: object): AuditEntry => ({
  action: "webhook.updated",
  targetId: row.id,
  details: { ...scopeOf(row), fields: Object.keys(sent).sort().join(",") },
});

/**
 * `/api/v1/webhooks/`: project webhooks, which hear every session's events; `/{webhook_id}/...`
 * reaches any webhook of the project, its deliveries and its test ping.
 */
export const projectWebhookRoutes = webhookRoutes({
  tag: "Webhooks",
  base: "",
  params: z.object({}),
  whose: "the project's",
  listScope: async () => PROJECT,
  itemScope: async () => ANY,
  replaceable: false,
  noun: "Webhook",
})
  .openapi(
    createRoute({
      method: "post",
      path: "/{webhook_id}/test",
      operationId: "testWebhook",
      tags: ["Webhooks"],
      summary: "Send a `ping` event to this webhook",
      request: { params: webhookIdParam },
      responses: {
        202: jsonResponse(delivery, "The queued delivery"),
      },
    }),
    async (c) => c.json(await sendTestEvent(c.var.project, c.req.valid("param").webhook_id), 202),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{webhook_id}/deliveries",
      operationId: "listWebhookDeliveries",
      tags: ["Webhooks"],
      summary: "List deliveries with every attempt, newest first",
      request: { params: webhookIdParam, query: deliveryListQuery },
      responses: {
        200: jsonResponse(listEnvelope(delivery), "A page of deliveries"),
      },
    }),
    async (c) =>
      c.json(
        await listDeliveries(c.var.project, c.req.valid("param").webhook_id, c.req.valid("query")),
        200,
      ),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{webhook_id}/deliveries/{invocation_id}/retry",
      operationId: "retryWebhookDelivery",
      tags: ["Webhooks"],
      summary: "Deliver an invocation again, with the same `webhook-id`",
      description:
        "Whatever became of it: a failed delivery gets one more attempt, a pending one is sent now.",
      request: { params: invocationParams },
      responses: {
        202: jsonResponse(delivery, "The delivery, queued again"),
      },
    }),
    async (c) => {
      const { webhook_id, invocation_id } = c.req.valid("param");
      return c.json(await retryDelivery(c.var.project, webhook_id, invocation_id), 202);
    },
  );

/** `/api/v1/ssh/{kind}/sessions/{session_id}/webhooks/`: the webhooks of one session. */
export function sessionWebhookRoutes(kind: SessionKind) {
  const scope = async (ctx: ProjectContext, params: PathParams) => {
    const sessionId = params.session_id ?? "";
    await assertSessionInProject(ctx, kind, sessionId);
    return { kind: "session", sessionId } as const;
  };
  return webhookRoutes({
    tag: "Session webhooks",
    base: "/{session_id}/webhooks",
    params: sessionIdParam,
    whose: `a ${kind === "collect" ? "collection" : "verification"} session's`,
    listScope: scope,
    itemScope: scope,
    replaceable: true,
    noun: `${kind === "collect" ? "Collect" : "Verify"}SessionWebhook`,
  });
}
