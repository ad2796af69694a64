import { type Context, Hono } from "hono";
import { problemErrors } from "../../api/validate.ts";
import type { AppEnv } from "../../app-env.ts";
import { audit } from "../../domain/audit-log.ts";
import { webhookView } from "../../domain/webhook-view.ts";
import { ApiError } from "../../lib/errors.ts";
import { webhookCreate } from "../../schemas/webhooks.ts";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  updateWebhook,
} from "../../webhooks/definitions.ts";
import { listDeliveries, retryDelivery, sendTestEvent } from "../../webhooks/deliveries.ts";
import {
  allValues,
  checked,
  type FormState,
  formState,
  optionalNumber,
  pageContext,
  redirectWith,
  text,
} from "../forms.ts";
import { WebhookPage } from "../pages/webhook-pages.tsx";

type Form = Record<string, string | File | (string | File)[]>;

/** The form as the API's webhook body, validated by the same schema. */
function webhookInput(form: Form) {
  const headers: Record<string, string> = {};
  for (const line of text(form, "headers").split(/\r?\n/)) {
    const separator = line.indexOf(":");
    if (line.trim() && separator > 0)
      headers[line.slice(0, separator).trim()] = line.slice(separator + 1).trim();
  }
  const body = {
    url: text(form, "url").trim(),
    method: text(form, "method") || "post",
    headers,
    events: allValues(form, "events"),
    retries: optionalNumber(form, "retries"),
    initial_backoff: optionalNumber(form, "initial_backoff"),
    backoff_multiplier: optionalNumber(form, "backoff_multiplier"),
    enabled: checked(form, "enabled"),
  };
  const parsed = webhookCreate.safeParse(body);
  if (!parsed.success) {
    const errors = problemErrors("body", parsed.error, body);
    throw new ApiError(400, errors[0]?.message ?? "Invalid webhook", errors);
  }
  return parsed.data;
}

async function webhookPage(
  c: Context<AppEnv>,
  shown: { secret?: string; form?: FormState } = {},
  status: 200 | 400 = 200,
) {
  const ctx = c.var.project;
  const { project } = c.var.member;
  const page = pageContext(c);
  const webhook = await getWebhook(ctx, { kind: "any" }, c.req.param("webhook_id") ?? "");
  const deliveries = await listDeliveries(ctx, webhook.id, { offset: 0, limit: 50 });
  return c.html(
    <WebhookPage
      page={page}
      project={project}
      webhook={webhookView(webhook)}
      deliveries={deliveries.items}
      secret={shown.secret}
      form={shown.form}
    />,
    status,
  );
}

export const webhookRoutes = new Hono<AppEnv>()
  .get("/webhooks/new", async (c) => {
    const { project } = c.var.member;
    const page = pageContext(c);
    return c.html(<WebhookPage page={page} project={project} />);
  })
  .post("/webhooks", async (c) => {
    const ctx = c.var.project;
    const { project } = c.var.member;
    const form = await c.req.parseBody();
    try {
      const row = await createWebhook(ctx, { kind: "project" }, webhookInput(form));
      await audit(c, { action: "webhook.created", targetId: row.id });
      return redirectWith(c, `/projects/${project.id}/webhooks/${row.id}`, {
        notice: "Webhook created.",
      });
    } catch (error) {
      const page = pageContext(c);
      return c.html(
        <WebhookPage page={page} project={project} form={formState(form, error)} />,
        400,
      );
    }
  })
  .get("/webhooks/:webhook_id", (c) => webhookPage(c))
  .post("/webhooks/:webhook_id", async (c) => {
    const ctx = c.var.project;
    const { project } = c.var.member;
    const back = `/projects/${project.id}/webhooks/${c.req.param("webhook_id")}`;
    const form = await c.req.parseBody();
    try {
      const row = await updateWebhook(
        ctx,
        { kind: "any" },
        c.req.param("webhook_id"),
        webhookInput(form),
      );
      await audit(c, {
        action: "webhook.updated",
        targetId: row.id,
        details: row.sessionId ? { session_id: row.sessionId } : {},
      });
      return redirectWith(c, back, { notice: "Saved." });
    } catch (error) {
      return webhookPage(c, { form: formState(form, error) }, 400);
    }
  })
  .post("/webhooks/:webhook_id/secret", async (c) => {
    const ctx = c.var.project;
    const webhook = await getWebhook(ctx, { kind: "any" }, c.req.param("webhook_id"));
    return webhookPage(c, { secret: webhook.secret });
  })
  .post("/webhooks/:webhook_id/test", async (c) => {
    const ctx = c.var.project;
    const { project } = c.var.member;
    await sendTestEvent(ctx, c.req.param("webhook_id"));
    return redirectWith(c, `/projects/${project.id}/webhooks/${c.req.param("webhook_id")}`, {
      notice: "Test event sent.",
    });
  })
  .post("/webhooks/:webhook_id/deliveries/:invocation_id/retry", async (c) => {
    const ctx = c.var.project;
    const { project } = c.var.member;
    await retryDelivery(ctx, c.req.param("webhook_id"), c.req.param("invocation_id"));
    return redirectWith(c, `/projects/${project.id}/webhooks/${c.req.param("webhook_id")}`, {
      notice: "Delivery queued again.",
    });
  })
  .post("/webhooks/:webhook_id/delete", async (c) => {
    const ctx = c.var.project;
    const { project } = c.var.member;
    await deleteWebhook(ctx, { kind: "any" }, c.req.param("webhook_id"));
    await audit(c, { action: "webhook.deleted", targetId: c.req.param("webhook_id") });
    return redirectWith(c, `/projects/${project.id}/settings`, { notice: "Webhook deleted." });
  });
