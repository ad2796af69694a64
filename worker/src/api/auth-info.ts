import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import type { AuthInfo } from "../schemas/auth-info.ts";

export const authInfoRoutes = new Hono<AppEnv>().get("/", (c) => {
  const { key, projectName } = c.get("auth");
  const body: AuthInfo = {
    id: key.id,
    name: key.name,
    project_id: key.projectId,
    project_name: projectName,
    created_at: key.createdAt,
    expired_at: key.expiredAt,
  };
  return c.json(body);
});
