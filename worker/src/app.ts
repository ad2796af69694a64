import { OpenAPIHono } from "@hono/zod-openapi";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { auditLogRoutes } from "./api/audit-log.ts";
import { authInfoRoutes } from "./api/auth-info.ts";
import { readNearCaller } from "./api/bookmarks.ts";
import { eventRoutes } from "./api/events.ts";
import { idempotent } from "./api/idempotency.ts";
import { limitBodyTo, rateLimit, requireApiKey } from "./api/middleware.ts";
import {
  buildOpenApiDocument,
  type OpenApiDocument,
  registerApiKeyScheme,
  registerWebhookEvents,
} from "./api/openapi-document.ts";
import { problemResponse, toApiError } from "./api/problem.ts";
import { projectRoutes } from "./api/project.ts";
import { logRequests } from "./api/request-log.ts";
import { apiRouter } from "./api/router.ts";
import { collectSessionRoutes, verifySessionRoutes } from "./api/sessions.ts";
import { signatureRoutes } from "./api/signatures.ts";
import { collectTestHelperRoutes, verifyTestHelperRoutes } from "./api/test-helpers.ts";
import { projectWebhookRoutes, sessionWebhookRoutes } from "./api/webhooks.ts";
import type { AppEnv } from "./app-env.ts";
import { setSimulatedQueryMs } from "./development/d1-simulation.ts";
import { JWKS_MAX_AGE_SECONDS, publishedKeys } from "./domain/attestations.ts";
import { sessionObject } from "./domain/session-address.ts";
import { internalRoutes } from "./internal/routes.ts";
import { ApiError } from "./lib/errors.ts";
import { metering, readMeters, resetMeters } from "./lib/meter.ts";
import { MAX_INTERNAL_BODY_BYTES } from "./protocol/messages.ts";
import { LIMITS } from "./schemas/limits.ts";
import { buildWebApp } from "./web/app.tsx";
import { chosenTheme, webSession } from "./web/auth.ts";
import { isWebPath, webNotFound } from "./web/not-found.tsx";
import { referencePage } from "./web/reference/reference-page.tsx";

const limitBody = limitBodyTo(LIMITS.maxBodyBytes);
/** The bridge's finish report carries up to 32 key blobs, certificates included. */
const limitInternalBody = limitBodyTo(MAX_INTERNAL_BODY_BYTES);

export function buildApp() {
  // `strict: false`: the trailing slash is canonical and its absence is accepted.
  const app = new OpenAPIHono<AppEnv>({ strict: false });

  app.use(requestId(), logRequests);
  app.use(
    secureHeaders({
      // Pages load only what the Worker itself serves: no inline scripts, no other origins.
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
      },
      xFrameOptions: "DENY",
      // Invitation links carry their credential in the path; no page leaks its URL onwards.
      referrerPolicy: "no-referrer",
    }),
  );
  app.use(
    methodNotAllowed({
      app,
      // A browser that opens an address only a form posts to gets a page, not JSON.
      onMethodNotAllowed: (c, methods) =>
        isWebPath(c.req.path)
          ? webNotFound(c)
          : problemResponse(
              c,
              new ApiError(
                405,
                `${c.req.method} is not allowed here; use ${methods.join(", ")}`,
                undefined,
                { Allow: methods.join(", ") },
              ),
            ),
    }),
  );

  // The document is generated from the routes below; built once per isolate, since converting
  // every schema takes longer than serving the result.
  let document: OpenApiDocument | null = null;
  const documentFor = (env: AppEnv["Bindings"]) => {
    document ??= buildOpenApiDocument(app, env.PUBLIC_URL);
    return document;
  };
  app.get("/api/v1/openapi.json", (c) => c.json(documentFor(c.env)));
  // Signed in, the reference's header leads back to the projects like every other page's.
  app.get("/docs", webSession, (c) =>
    c.html(
      referencePage(documentFor(c.env), {
        csrf: c.var.csrf,
        account: c.var.account,
        path: c.req.path,
        theme: chosenTheme(c),
      }),
    ),
  );
  // The keys that sign attestations, for anyone to verify them offline.
  app.get("/.well-known/jwks.json", async (c) => {
    c.header("cache-control", `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
    return c.json(await publishedKeys(c.env));
  });

  // Development only: what the requests so far cost (bench/cost.ts reads and resets it).
  app.on(["GET", "DELETE"], "/__dev/meters", (c) => {
    if (!metering(c.env)) return c.notFound();
    const read = readMeters();
    if (c.req.method === "DELETE") resetMeters();
    return c.json(read);
  });
  // A primary's time a query (SIMULATED_D1_QUERY_MS), changed mid-run: bench/history.ts's burst.
  app.put("/__dev/primary", async (c) => {
    if (!metering(c.env) || !c.env.SIMULATED_D1_QUERY_MS) return c.notFound();
    const ms = Number(c.req.query("query_ms"));
    if (!(Number.isInteger(ms) && ms >= 0 && ms <= 1000))
      return c.json({ error: "query_ms: a whole number of milliseconds, 0 to 1000" }, 400);
    setSimulatedQueryMs(ms);
    return c.json({ query_ms: ms });
  });
  app.get("/__dev/sessions/:session_id/storage", async (c) => {
    if (!metering(c.env)) return c.notFound();
    const stub = sessionObject(c.env, { sessionId: c.req.param("session_id") });
    return c.json({ bytes: await stub.storageBytes() });
  });

  // Public: the connection identifier names the session, as it does over SSH.
  app.route("/api/v1/signatures", signatureRoutes);

  // Who may call is decided here, at the mount: every route below needs an API key.
  const api = apiRouter();
  // The caller is known and admitted before anything it sent (a bookmark, a body) is acted on.
  api.use(limitBody, requireApiKey, rateLimit, readNearCaller, idempotent);
  api.route("/auth/info", authInfoRoutes);
  api.route("/ssh/collect/sessions", collectSessionRoutes);
  api.route("/ssh/collect/sessions", sessionWebhookRoutes("collect"));
  api.route("/ssh/verify/sessions", verifySessionRoutes);
  api.route("/ssh/verify/sessions", sessionWebhookRoutes("verify"));
  api.route("/webhooks", projectWebhookRoutes);
  api.route("/events", eventRoutes);
  api.route("/project", projectRoutes);
  api.route("/audit-log", auditLogRoutes);
  api.route("/test_helpers/ssh/collect/sessions", collectTestHelperRoutes);
  api.route("/test_helpers/ssh/verify/sessions", verifyTestHelperRoutes);
  registerApiKeyScheme(api);
  registerWebhookEvents(api);
  app.route("/api/v1", api);

  const internal = new OpenAPIHono<AppEnv>({ strict: false });
  internal.use(limitInternalBody);
  internal.route("/", internalRoutes);
  app.route("/internal/v1", internal);
  app.route("/", buildWebApp());

  app.notFound((c) =>
    isWebPath(c.req.path)
      ? webNotFound(c)
      : problemResponse(c, new ApiError(404, `Nothing at ${c.req.method} ${c.req.path}`)),
  );
  app.onError((error, c) => problemResponse(c, toApiError(error, c)));
  return app;
}
