import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
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
import { ALWAYS, jsonBody, jsonResponse, problems, WITH_BODY } from "./responses.ts";
import { apiRouter } from "./router.ts";

const ANY: WebhookScope = { kind: "any" };
const PROJECT: WebhookScope = { kind: "project" };
const invocationParams = webhookIdParam.extend({
  invocation_id: z.string().max(64).describe("The delivery's `id` (`whi_...`), its `webhook-id`"),
});

/** `/api/v1/webhooks/`: project webhooks; `/{webhook_id}/...` reaches any webhook of the project. */
export const projectWebhookRoutes = apiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/",
      tags: ["Webhooks"],
      summary: "List project webhooks",
      description: "Project webhooks receive the events of every session in the project.",
      request: { query: listQuery },
      responses: {
        200: jsonResponse(listEnvelope(webhook), "A page of project webhooks"),
        ...problems(400, ...ALWAYS),
      },
    }),
    async (c) => c.json(await listWebhooks(c.var.project, PROJECT, c.req.valid("query")), 200),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/",
      tags: ["Webhooks"],
      summary: "Create a project webhook",
      description: "The response is the only one that carries the signing `secret` unasked.",
      request: jsonBody(webhookCreate),
      responses: {
        201: jsonResponse(webhookWithSecret, "The new webhook, with its secret"),
        ...problems(...WITH_BODY),
      },
    }),
    async (c) => {
      const row = await createWebhook(c.var.project, PROJECT, c.req.valid("json"));
      return c.json({ ...webhookView(row), secret: row.secret }, 201);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{webhook_id}",
      tags: ["Webhooks"],
      summary: "Get a webhook (project or session)",
      request: { params: webhookIdParam },
      responses: { 200: jsonResponse(webhook, "The webhook"), ...problems(404, ...ALWAYS) },
    }),
    async (c) =>
      c.json(
        webhookView(await getWebhook(c.var.project, ANY, c.req.valid("param").webhook_id)),
        200,
      ),
  )
  .openapi(
    createRoute({
      method: "patch",
      path: "/{webhook_id}",
      tags: ["Webhooks"],
      summary: "Change some fields of a webhook",
      request: { params: webhookIdParam, ...jsonBody(webhookPatch) },
      responses: {
        200: jsonResponse(webhook, "The changed webhook"),
        ...problems(...WITH_BODY, 404),
      },
    }),
    async (c) => {
      const id = c.req.valid("param").webhook_id;
      const row = await updateWebhook(c.var.project, ANY, id, c.req.valid("json"));
      return c.json(webhookView(row), 200);
    },
  )
  .openapi(
    createRoute({
      method: "delete",
      path: "/{webhook_id}",
      tags: ["Webhooks"],
      summary: "Delete a webhook and its delivery history",
      request: { params: webhookIdParam },
      responses: { 204: { description: "Deleted" }, ...problems(404, ...ALWAYS) },
    }),
    async (c) => {
      await deleteWebhook(c.var.project, ANY, c.req.valid("param").webhook_id);
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{webhook_id}/secret",
      tags: ["Webhooks"],
      summary: "Reveal a webhook's signing secret",
      request: { params: webhookIdParam },
      responses: {
        200: jsonResponse(webhookSecret, "The `whsec_...` secret"),
        ...problems(404, ...ALWAYS),
      },
    }),
    async (c) => {
      const row = await getWebhook(c.var.project, ANY, c.req.valid("param").webhook_id);
      return c.json({ secret: row.secret }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{webhook_id}/test",
      tags: ["Webhooks"],
      summary: "Send a `ping` event to this webhook",
      request: { params: webhookIdParam },
      responses: {
        202: jsonResponse(delivery, "The queued delivery"),
        ...problems(404, ...ALWAYS),
      },
    }),
    async (c) => c.json(await sendTestEvent(c.var.project, c.req.valid("param").webhook_id), 202),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{webhook_id}/deliveries",
      tags: ["Webhooks"],
      summary: "List deliveries with every attempt, newest first",
      request: { params: webhookIdParam, query: deliveryListQuery },
      responses: {
        200: jsonResponse(listEnvelope(delivery), "A page of deliveries"),
        ...problems(400, 404, ...ALWAYS),
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
      tags: ["Webhooks"],
      summary: "Deliver an invocation again, with the same `webhook-id`",
      description:
        "Whatever became of it: a failed delivery gets one more attempt, a pending one is sent now.",
      request: { params: invocationParams },
      responses: {
        202: jsonResponse(delivery, "The delivery, queued again"),
        ...problems(404, ...ALWAYS),
      },
    }),
    async (c) => {
      const { webhook_id, invocation_id } = c.req.valid("param");
      return c.json(await retryDelivery(c.var.project, webhook_id, invocation_id), 202);
    },
  );

/** `/api/v1/ssh/{kind}/sessions/{session_id}/webhooks/`: the webhooks of one session. */
export function sessionWebhookRoutes(kind: SessionKind) {
  const tag = "Session webhooks";
  const noun = kind === "collect" ? "a collection session" : "a verification session";
  const scope = async (ctx: ProjectContext, sessionId: string): Promise<WebhookScope> => {
    await assertSessionInProject(ctx, kind, sessionId);
    return { kind: "session", sessionId };
  };
  const oneParams = sessionIdParam.extend(webhookIdParam.shape);
  return apiRouter()
    .openapi(
      createRoute({
        method: "get",
        path: "/{session_id}/webhooks",
        tags: [tag],
        summary: `List the webhooks of ${noun}`,
        request: { params: sessionIdParam, query: listQuery },
        responses: {
          200: jsonResponse(listEnvelope(webhook), "A page of the session's webhooks"),
          ...problems(400, 404, ...ALWAYS),
        },
      }),
      async (c) => {
        const ctx = c.var.project;
        const webhooks = await scope(ctx, c.req.valid("param").session_id);
        return c.json(await listWebhooks(ctx, webhooks, c.req.valid("query")), 200);
      },
    )
    .openapi(
      createRoute({
        method: "post",
        path: "/{session_id}/webhooks",
        tags: [tag],
        summary: `Add a webhook to ${noun}`,
        description: "It receives this session's events only, and is deleted with the session.",
        request: { params: sessionIdParam, ...jsonBody(webhookCreate) },
        responses: {
          201: jsonResponse(webhookWithSecret, "The new webhook, with its secret"),
          ...problems(...WITH_BODY, 404),
        },
      }),
      async (c) => {
        const ctx = c.var.project;
        const webhooks = await scope(ctx, c.req.valid("param").session_id);
        const row = await createWebhook(ctx, webhooks, c.req.valid("json"));
        return c.json({ ...webhookView(row), secret: row.secret }, 201);
      },
    )
    .openapi(
      createRoute({
        method: "get",
        path: "/{session_id}/webhooks/{webhook_id}",
        tags: [tag],
        summary: "Get a session webhook",
        request: { params: oneParams },
        responses: { 200: jsonResponse(webhook, "The webhook"), ...problems(404, ...ALWAYS) },
      }),
      async (c) => {
        const { session_id, webhook_id } = c.req.valid("param");
        const row = await getWebhook(
          c.var.project,
          await scope(c.var.project, session_id),
          webhook_id,
        );
        return c.json(webhookView(row), 200);
      },
    )
    .openapi(
      createRoute({
        method: "get",
        path: "/{session_id}/webhooks/{webhook_id}/secret",
        tags: [tag],
        summary: "Reveal a session webhook's signing secret",
        request: { params: oneParams },
        responses: {
          200: jsonResponse(webhookSecret, "The `whsec_...` secret"),
          ...problems(404, ...ALWAYS),
        },
      }),
      async (c) => {
        const { session_id, webhook_id } = c.req.valid("param");
        const row = await getWebhook(
          c.var.project,
          await scope(c.var.project, session_id),
          webhook_id,
        );
        return c.json({ secret: row.secret }, 200);
      },
    )
    .openapi(
      createRoute({
        method: "patch",
        path: "/{session_id}/webhooks/{webhook_id}",
        tags: [tag],
        summary: "Change some fields of a session webhook",
        request: { params: oneParams, ...jsonBody(webhookPatch) },
        responses: {
          200: jsonResponse(webhook, "The changed webhook"),
          ...problems(...WITH_BODY, 404),
        },
      }),
      async (c) => {
        const { session_id, webhook_id } = c.req.valid("param");
        const ctx = c.var.project;
        const row = await updateWebhook(
          ctx,
          await scope(ctx, session_id),
          webhook_id,
          c.req.valid("json"),
        );
        return c.json(webhookView(row), 200);
      },
    )
    .openapi(
      createRoute({
        method: "put",
        path: "/{session_id}/webhooks/{webhook_id}",
        tags: [tag],
        summary: "Replace a session webhook's definition",
        description: "Fields left out take their defaults, as when creating.",
        request: { params: oneParams, ...jsonBody(webhookCreate) },
        responses: {
          200: jsonResponse(webhook, "The replaced webhook"),
          ...problems(...WITH_BODY, 404),
        },
      }),
      async (c) => {
        const { session_id, webhook_id } = c.req.valid("param");
        const ctx = c.var.project;
        const row = await updateWebhook(
          ctx,
          await scope(ctx, session_id),
          webhook_id,
          c.req.valid("json"),
        );
        return c.json(webhookView(row), 200);
      },
    )
    .openapi(
      createRoute({
        method: "delete",
        path: "/{session_id}/webhooks/{webhook_id}",
        tags: [tag],
        summary: "Delete a session webhook",
        request: { params: oneParams },
        responses: { 204: { description: "Deleted" }, ...problems(404, ...ALWAYS) },
      }),
      async (c) => {
        const { session_id, webhook_id } = c.req.valid("param");
        await deleteWebhook(c.var.project, await scope(c.var.project, session_id), webhook_id);
        return c.body(null, 204);
      },
    );
}
