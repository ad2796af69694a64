import { createRoute } from "@hono/zod-openapi";
import { authInfo } from "../schemas/auth-info.ts";
import { jsonResponse } from "./responses.ts";
import { apiRouter } from "./router.ts";

export const authInfoRoutes = apiRouter().openapi(
  createRoute({
    method: "get",
    operationId: "getAuthInfo",
    path: "/",
    tags: ["Auth"],
    summary: "Describe the calling API key and its project",
    description: "A cheap way to check that a key works and which project it belongs to.",
    responses: { 200: jsonResponse(authInfo, "The key and its project") },
  }),
  (c) => {
    const { key, projectName } = c.var.apiKey;
    return c.json(
      {
        id: key.id,
        name: key.name,
        project_id: key.projectId,
        project_name: projectName,
        livemode: key.livemode,
        created_at: key.createdAt,
        expired_at: key.expiredAt,
      },
      200,
    );
  },
);
