import { Hono } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import type { SessionKind } from "../db/sessions.ts";
import {
  keysOfSessions,
  listSessionRows,
  loadSessionDetail,
  type SessionDetail,
  type SessionListFilter,
} from "../domain/session-views.ts";
import {
  type CreateSessionInput,
  completeSession,
  createSession,
  deleteSession,
  updateSession,
} from "../domain/sessions.ts";
import { webhookView } from "../domain/webhooks.ts";
import type { Env } from "../env.ts";
import type { SessionOptionsInput } from "../schemas/sessions.ts";
import { projectContext, requireJsonBody } from "./middleware.ts";
import { validate } from "./validate.ts";

type SessionSummary = Pick<SessionDetail, "session" | "keys">;

/** What differs between collection and verification sessions; the routes are the same. */
export interface SessionRouteSpec<Summary, Detail> {
  kind: SessionKind;
  create: z.ZodType<CreateSessionInput, unknown>;
  patch: z.ZodType<SessionOptionsInput, unknown>;
  listQuery: z.ZodType<SessionListFilter, unknown>;
  summaryView: (env: Env, summary: SessionSummary) => Summary;
  detailView: (env: Env, detail: SessionDetail) => Detail;
}

export function sessionRoutes<Summary, Detail>(spec: SessionRouteSpec<Summary, Detail>) {
  const { kind } = spec;
  return new Hono<AppEnv>()
    .post("/", requireJsonBody, validate("json", spec.create), async (c) => {
      const ctx = projectContext(c);
      const { session, keys, webhooks } = await createSession(ctx, kind, c.req.valid("json"));
      const withSecrets = webhooks.map((row) => ({ ...webhookView(row), secret: row.secret }));
      const detail = { session, keys, connections: [], webhooks: withSecrets };
      return c.json(spec.detailView(c.env, detail) as object, 201);
    })
    .get("/", validate("query", spec.listQuery), async (c) => {
      const ctx = projectContext(c);
      const { rows, page } = await listSessionRows(ctx, kind, c.req.valid("query"));
      const keys =
        kind === "verify"
          ? await keysOfSessions(
              ctx.db,
              rows.map((row) => row.id),
            )
          : [];
      const items = rows.map((session) => spec.summaryView(c.env, { session, keys }));
      return c.json({ items, ...page });
    })
    .get("/:session_id", async (c) => {
      const detail = await loadSessionDetail(projectContext(c), kind, c.req.param("session_id"));
      return c.json(spec.detailView(c.env, detail) as object);
    })
    .patch("/:session_id", requireJsonBody, validate("json", spec.patch), async (c) => {
      const ctx = projectContext(c);
      const sessionId = c.req.param("session_id");
      await updateSession(ctx, kind, sessionId, c.req.valid("json"));
      return c.json(
        spec.detailView(c.env, await loadSessionDetail(ctx, kind, sessionId)) as object,
      );
    })
    .post("/:session_id/complete", async (c) => {
      const ctx = projectContext(c);
      const sessionId = c.req.param("session_id");
      await completeSession(ctx, kind, sessionId);
      return c.json(
        spec.detailView(c.env, await loadSessionDetail(ctx, kind, sessionId)) as object,
      );
    })
    .delete("/:session_id", async (c) => {
      await deleteSession(projectContext(c), kind, c.req.param("session_id"));
      return c.body(null, 204);
    });
}
