import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { listEvents } from "../domain/event-log.ts";
import { eventListQuery } from "../schemas/webhooks.ts";
import { projectContext } from "./middleware.ts";
import { validate } from "./validate.ts";

export const eventRoutes = new Hono<AppEnv>().get(
  "/",
  validate("query", eventListQuery),
  async (c) => c.json(await listEvents(projectContext(c), c.req.valid("query"))),
);
