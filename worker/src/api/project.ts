import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { projects } from "../db/directory.ts";
import { audit } from "../domain/audit-log.ts";
import type { ProjectContext } from "../domain/context.ts";
import { setRetentionDays } from "../domain/projects.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { project, projectPatch } from "../schemas/project.ts";
import { jsonBody, jsonResponse, problems } from "./responses.ts";
import { apiRouter } from "./router.ts";

/** `/api/v1/project`: the key's own project, and its retention. */

const TEST_KEY_REFUSED =
  "A test key (kp_test_) reads the project's settings but cannot change them: they govern live data too. Use a live key (kp_live_) or the project's settings page.";

async function projectView(ctx: ProjectContext) {
  const [row] = await ctx.directory
    .select()
    .from(projects)
    .where(eq(projects.id, ctx.projectId))
    .limit(1);
  if (!row) throw notFound("Project", "header.x-api-key", ctx.projectId);
  return {
    id: row.id,
    name: row.name,
    retention_days: row.retentionDays,
    created_at: row.createdAt,
  };
}

export const projectRoutes = apiRouter()
  .openapi(
    createRoute({
      method: "get",
      operationId: "getProject",
      path: "/",
      tags: ["Project"],
      summary: "The API key's project",
      responses: { 200: jsonResponse(project, "The project") },
    }),
    async (c) => c.json(await projectView(c.var.project), 200),
  )
  .openapi(
    createRoute({
      method: "patch",
      operationId: "updateProject",
      path: "/",
      tags: ["Project"],
      summary: "Change how long the project's closed sessions are kept",
      description:
        "Live keys only. Shortening `retention_days` erases the closed sessions now past it within a few minutes; lengthening keeps the ones not yet erased for longer. The project's settings govern its live data too, so a test key (`kp_test_`) reads them but cannot change them (403).",
      request: jsonBody(projectPatch),
      responses: {
        200: jsonResponse(project, "The project, changed"),
        ...problems({ 403: TEST_KEY_REFUSED }),
      },
    }),
    async (c) => {
      const ctx = c.var.project;
      // Test data never touches live data, and retention erases live sessions.
      if (!ctx.livemode) throw new ApiError(403, TEST_KEY_REFUSED);
      const patch = c.req.valid("json");
      if (patch.retention_days !== undefined) {
        await setRetentionDays(ctx, patch.retention_days);
        await audit(c, {
          action: "project.retention_changed",
          details: { retention_days: patch.retention_days },
        });
      }
      return c.json(await projectView(ctx), 200);
    },
  );
