import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { listAuditLog } from "../../domain/audit-log.ts";
import { pageContext } from "../forms.ts";
import { AuditLogPage } from "../pages/audit-log-page.tsx";

/** A page of the audit log holds this many changes. */
const PAGE_SIZE = 50;

/** `/projects/:project_id/audit-log`, under the owners-only mount. */
export const auditLogRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const ctx = c.var.project;
  const offset = Math.max(0, Math.floor(Number(c.req.query("offset")) || 0));
  const page = await listAuditLog(ctx.directory, ctx.projectId, { offset, limit: PAGE_SIZE });
  return c.html(
    <AuditLogPage
      page={pageContext(c)}
      project={c.var.member.project}
      rows={page.items}
      offset={offset}
      hasMore={page.has_more}
    />,
  );
});
