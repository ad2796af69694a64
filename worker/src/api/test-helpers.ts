import { createRoute } from "@hono/zod-openapi";
import {
  collectSessionDetailView,
  detailOf,
  verifySessionDetailView,
} from "../domain/session-views.ts";
import { simulate } from "../domain/test-helpers.ts";
import { clientAddress } from "../lib/client-address.ts";
import { ApiError } from "../lib/errors.ts";
import type { SessionKind } from "../protocol/messages.ts";
import { collectSessionDetail, sessionIdParam, verifySessionDetail } from "../schemas/sessions.ts";
import { simulateRequest } from "../schemas/test-helpers.ts";
import { noteBookmark } from "./bookmarks.ts";
import { jsonBody, jsonResponse, problems } from "./responses.ts";
import { apiRouter } from "./router.ts";

/**
 * `POST /api/v1/test_helpers/ssh/{collect,verify}/sessions/{id}/simulate/`: test keys
 * only. A live key is told what any unknown path is told, so live integrations never lean on it.
 */
function testHelperRoutes(kind: SessionKind) {
  const noun = kind === "collect" ? "collection session" : "verification session";
  const detail = kind === "collect" ? collectSessionDetail : verifySessionDetail;
  const router = apiRouter();
  router.use("*", async (c, next) => {
    // Before the body is read: to a live key the path does not exist, whatever it sends.
    if (c.var.project.livemode) throw new ApiError(404, `Nothing at ${c.req.method} ${c.req.path}`);
    await next();
  });
  return router.openapi(
    createRoute({
      method: "post",
      path: "/{session_id}/simulate",
      operationId: `simulate${kind === "collect" ? "Collect" : "Verify"}Session`,
      tags: ["Test helpers"],
      summary: `Drive a test ${noun} to an outcome`,
      description:
        "Test keys (`kp_test_`) only; a live key gets 404 as for an unknown path. `prove` records a proof as a real `ssh` would (a key made up of `key_type`, the given `public_key`, or a verification session's configured keys), `fail_attempt` a connection that proves nothing counted, `decline` a user answering `n` at the `must_confirm` prompt, `expire` the session's expiry, now. Each runs through the same transitions as the real thing: the same events, webhooks, attestation, proof page and return flow; a closed session refuses with 409, as `ssh` would be refused.",
      request: { params: sessionIdParam, ...jsonBody(simulateRequest, true) },
      responses: {
        200: jsonResponse(detail, `The ${noun} afterwards, with its connections`),
        ...problems({
          409: "The session refuses it as it would refuse a real user: closed, busy, or `decline` without `must_confirm`",
        }),
      },
    }),
    async (c) => {
      const ctx = c.var.project;
      if (ctx.livemode) throw new ApiError(404, `Nothing at ${c.req.method} ${c.req.path}`);
      const sessionId = c.req.valid("param").session_id;
      const written = await simulate(
        ctx,
        kind,
        sessionId,
        c.req.valid("json"),
        clientAddress(c.req.raw.headers, c.env),
      );
      noteBookmark(c, written.bookmark, sessionId);
      const shown = await detailOf(ctx, written.value);
      return c.json(
        kind === "collect"
          ? collectSessionDetailView(c.env, shown)
          : verifySessionDetailView(c.env, shown),
        200,
      );
    },
  );
}

export const collectTestHelperRoutes = testHelperRoutes("collect");
export const verifyTestHelperRoutes = testHelperRoutes("verify");
