import { createRoute } from "@hono/zod-openapi";
import { listEvents } from "../domain/event-log.ts";
import { listEnvelope } from "../schemas/common.ts";
import { event, eventListQuery } from "../schemas/webhooks.ts";
import { jsonResponse } from "./responses.ts";
import { apiRouter } from "./router.ts";

export const eventRoutes = apiRouter().openapi(
  createRoute({
    method: "get",
    operationId: "listEvents",
    path: "/",
    tags: ["Events"],
    summary: "The project's event log, newest first",
    description:
      "Every event any webhook could receive, for as long as its session is kept (deleting, or erasing after `retention_days`, takes its events): compare with what your receiver saw to reconcile.",
    request: { query: eventListQuery },
    responses: { 200: jsonResponse(listEnvelope(event), "A page of events") },
  }),
  async (c) => c.json(await listEvents(c.var.project, c.req.valid("query"), c.var.ownWrites), 200),
);
