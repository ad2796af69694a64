import { createRoute } from "@hono/zod-openapi";
import { AUDIT_KEPT_DAYS, listAuditLog } from "../domain/audit-log.ts";
import { auditEntry } from "../schemas/audit-log.ts";
import { listEnvelope, listQuery } from "../schemas/common.ts";
import { jsonResponse } from "./responses.ts";
import { apiRouter } from "./router.ts";

/** `/api/v1/audit-log/`: every change to the key's project, newest first. */
export const auditLogRoutes = apiRouter().openapi(
  createRoute({
    method: "get",
    operationId: "listAuditLog",
    path: "/",
    tags: ["Audit log"],
    summary: "Every change to the project, newest first",
    description: `Each change by a member in the web app or by an API key — API keys created and revoked, webhooks created, changed and deleted, members invited and removed, the project renamed, its retention changed, its test data deleted, sessions redacted or deleted — with who made it, when and from where. Kept ${AUDIT_KEPT_DAYS} days, and deleted with the project; an erased session's id may stay in it, nothing else of it.`,
    request: { query: listQuery },
    responses: { 200: jsonResponse(listEnvelope(auditEntry), "A page of the audit log") },
  }),
  async (c) => {
    const ctx = c.var.project;
    const page = await listAuditLog(ctx.directory, ctx.projectId, c.req.valid("query"));
    const items = page.items.map((row) => ({
      id: row.id,
      action: row.action,
      actor: { type: row.actorType, id: row.actorId, label: row.actorLabel },
      target_id: row.targetId,
      details: row.details,
      ip_address: row.ipAddress,
      user_agent: row.userAgent,
      created_at: row.createdAt,
    }));
    return c.json({ ...page, items }, 200);
  },
);
