import { type Context, Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import type { ProjectContext } from "../domain/context.ts";
import {
  assertSessionInProject,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  sendTestEvent,
  updateWebhook,
  type WebhookScope,
  webhookView,
} from "../domain/webhooks.ts";
import { listQuery } from "../schemas/common.ts";
import {
  deliveryListQuery,
  type WebhookPatchInput,
  webhookCreate,
  webhookPatch,
} from "../schemas/webhooks.ts";
import { projectContext, requireJsonBody } from "./middleware.ts";
import { validate } from "./validate.ts";

/** `/api/v1/webhooks/`: project webhooks; `/{id}/...` reaches any webhook of the project. */
export const projectWebhookRoutes = new Hono<AppEnv>()
  .get("/", validate("query", listQuery), async (c) =>
    c.json(await listWebhooks(projectContext(c), { kind: "project" }, c.req.valid("query"))),
  )
  .post("/", requireJsonBody, validate("json", webhookCreate), async (c) => {
    const row = await createWebhook(projectContext(c), { kind: "project" }, c.req.valid("json"));
    return c.json({ ...webhookView(row), secret: row.secret }, 201);
  })
  .get("/:webhook_id", async (c) =>
    c.json(
      webhookView(await getWebhook(projectContext(c), { kind: "any" }, c.req.param("webhook_id"))),
    ),
  )
  .patch("/:webhook_id", requireJsonBody, validate("json", webhookPatch), async (c) => {
    const row = await updateWebhook(
      projectContext(c),
      { kind: "any" },
      c.req.param("webhook_id"),
      c.req.valid("json"),
    );
    return c.json(webhookView(row));
  })
  .delete("/:webhook_id", async (c) => {
    await deleteWebhook(projectContext(c), { kind: "any" }, c.req.param("webhook_id"));
    return c.body(null, 204);
  })
  .get("/:webhook_id/secret", async (c) => {
    const row = await getWebhook(projectContext(c), { kind: "any" }, c.req.param("webhook_id"));
    return c.json({ secret: row.secret });
  })
  .post("/:webhook_id/test", async (c) =>
    c.json(await sendTestEvent(projectContext(c), c.req.param("webhook_id")), 202),
  )
  .get("/:webhook_id/deliveries", validate("query", deliveryListQuery), async (c) =>
    c.json(
      await listDeliveries(projectContext(c), c.req.param("webhook_id"), c.req.valid("query")),
    ),
  )
  .post("/:webhook_id/deliveries/:invocation_id/retry", async (c) =>
    c.json(
      await retryDelivery(
        projectContext(c),
        c.req.param("webhook_id"),
        c.req.param("invocation_id"),
      ),
      202,
    ),
  );

/** `/api/v1/ssh/{kind}/sessions/{session_id}/webhooks/`: the webhooks of one session. */
export function sessionWebhookRoutes(kind: "collect" | "verify") {
  const scoped = async (ctx: ProjectContext, sessionId: string): Promise<WebhookScope> => {
    await assertSessionInProject(ctx, kind, sessionId);
    return { kind: "session", sessionId };
  };
  /** PATCH changes some fields, PUT passes a whole (defaulted) definition: the same update. */
  const update = async (c: Context<AppEnv>, input: WebhookPatchInput) => {
    const ctx = projectContext(c);
    const scope = await scoped(ctx, c.req.param("session_id") ?? "");
    return c.json(
      webhookView(await updateWebhook(ctx, scope, c.req.param("webhook_id") ?? "", input)),
    );
  };
  return new Hono<AppEnv>()
    .get("/:session_id/webhooks", validate("query", listQuery), async (c) => {
      const ctx = projectContext(c);
      return c.json(
        await listWebhooks(ctx, await scoped(ctx, c.req.param("session_id")), c.req.valid("query")),
      );
    })
    .post("/:session_id/webhooks", requireJsonBody, validate("json", webhookCreate), async (c) => {
      const ctx = projectContext(c);
      const row = await createWebhook(
        ctx,
        await scoped(ctx, c.req.param("session_id")),
        c.req.valid("json"),
      );
      return c.json({ ...webhookView(row), secret: row.secret }, 201);
    })
    .get("/:session_id/webhooks/:webhook_id", async (c) => {
      const ctx = projectContext(c);
      const scope = await scoped(ctx, c.req.param("session_id"));
      return c.json(webhookView(await getWebhook(ctx, scope, c.req.param("webhook_id"))));
    })
    .get("/:session_id/webhooks/:webhook_id/secret", async (c) => {
      const ctx = projectContext(c);
      const scope = await scoped(ctx, c.req.param("session_id"));
      return c.json({ secret: (await getWebhook(ctx, scope, c.req.param("webhook_id"))).secret });
    })
    .patch(
      "/:session_id/webhooks/:webhook_id",
      requireJsonBody,
      validate("json", webhookPatch),
      (c) => update(c, c.req.valid("json")),
    )
    .put(
      "/:session_id/webhooks/:webhook_id",
      requireJsonBody,
      validate("json", webhookCreate),
      (c) => update(c, c.req.valid("json")),
    )
    .delete("/:session_id/webhooks/:webhook_id", async (c) => {
      const ctx = projectContext(c);
      await deleteWebhook(
        ctx,
        await scoped(ctx, c.req.param("session_id")),
        c.req.param("webhook_id"),
      );
      return c.body(null, 204);
    });
}
