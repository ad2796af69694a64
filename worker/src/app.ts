import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { authInfoRoutes } from "./api/auth-info.ts";
import { collectSessionRoutes } from "./api/collect-sessions.ts";
import { eventRoutes } from "./api/events.ts";
import { rateLimit, requireApiKey } from "./api/middleware.ts";
import { bodyTooLarge, problemResponse, toApiError } from "./api/problem.ts";
import { verifySessionRoutes } from "./api/verify-sessions.ts";
import { projectWebhookRoutes, sessionWebhookRoutes } from "./api/webhook-routes.ts";
import type { AppEnv } from "./app-env.ts";
import { internalRoutes } from "./internal/routes.ts";
import { ApiError } from "./lib/errors.ts";
import { LIMITS } from "./schemas/limits.ts";
import { buildOpenApiDocument } from "./schemas/openapi.ts";
import { buildWebApp } from "./web/app.tsx";
import { docsPage } from "./web/docs-page.tsx";

export function buildApp() {
  // `strict: false`: the trailing slash is canonical and its absence is accepted.
  const app = new Hono<AppEnv>({ strict: false });

  app.use(requestId());
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
      onMethodNotAllowed: (c, methods) =>
        problemResponse(
          c,
          new ApiError(
            405,
            `${c.req.method} is not allowed here; use ${methods.join(", ")}`,
            undefined,
            {
              Allow: methods.join(", "),
            },
          ),
        ),
    }),
  );

  app.get("/docs", (c) => c.html(docsPage()));
  // Built once per origin: converting every schema takes longer than serving the result.
  const openApiByOrigin = new Map<string, ReturnType<typeof buildOpenApiDocument>>();
  app.get("/api/v1/openapi.json", (c) => {
    const origin = new URL(c.req.url).origin;
    let document = openApiByOrigin.get(origin);
    if (!document) {
      document = buildOpenApiDocument(origin);
      openApiByOrigin.set(origin, document);
    }
    return c.json(document);
  });

  const api = new Hono<AppEnv>({ strict: false });
  api.use(
    bodyLimit({
      maxSize: LIMITS.maxBodyBytes,
      onError: () => {
        throw bodyTooLarge();
      },
    }),
    requireApiKey,
    rateLimit,
  );
  api.route("/auth/info", authInfoRoutes);
  api.route("/ssh/collect/sessions", collectSessionRoutes);
  api.route("/ssh/collect/sessions", sessionWebhookRoutes("collect"));
  api.route("/ssh/verify/sessions", verifySessionRoutes);
  api.route("/ssh/verify/sessions", sessionWebhookRoutes("verify"));
  api.route("/webhooks", projectWebhookRoutes);
  api.route("/events", eventRoutes);
  app.route("/api/v1", api);

  const internal = new Hono<AppEnv>({ strict: false });
  internal.use(
    bodyLimit({
      maxSize: LIMITS.maxBodyBytes,
      onError: () => {
        throw bodyTooLarge();
      },
    }),
  );
  internal.route("/", internalRoutes);
  app.route("/internal/v1", internal);
  app.route("/", buildWebApp());

  app.notFound((c) =>
    problemResponse(c, new ApiError(404, `Nothing at ${c.req.method} ${c.req.path}`)),
  );
  app.onError((error, c) => problemResponse(c, toApiError(error, c)));
  return app;
}
