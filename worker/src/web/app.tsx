import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env.ts";
import { ApiError } from "../lib/errors.ts";
import { LIMITS } from "../schemas/limits.ts";
import { requireAccount, verifyCsrf, webSession } from "./auth.ts";
import { Layout } from "./layout.tsx";
import { authRoutes } from "./routes/auth.tsx";
import { invitationRoutes } from "./routes/invitations.tsx";
import { projectRoutes } from "./routes/projects.tsx";
import { sessionRoutes } from "./routes/sessions.tsx";
import { webhookRoutes } from "./routes/webhooks.tsx";
import { COPY_SCRIPT, STYLESHEET } from "./style.ts";

const WEB_PATHS = [
  "/",
  "/signin",
  "/signup",
  "/signout",
  "/projects",
  "/projects/*",
  "/invitations/*",
];
const SIGNED_IN_PATHS = ["/projects", "/projects/*", "/invitations/*"];

/** The server-rendered web app: plain forms, no client-side JavaScript needed. */
export function buildWebApp() {
  const web = new Hono<AppEnv>({ strict: false });
  web.get("/app.css", (c) =>
    c.body(STYLESHEET, 200, {
      "content-type": "text/css",
      "cache-control": "public, max-age=3600",
    }),
  );
  web.get("/app.js", (c) =>
    c.body(COPY_SCRIPT, 200, {
      "content-type": "text/javascript",
      "cache-control": "public, max-age=3600",
    }),
  );
  // Only the web app's own paths: the API and the internal endpoints have their own auth.
  // A form is read only after its size is known to be sane: anyone can post to /signin.
  const formLimit = bodyLimit({
    maxSize: LIMITS.maxBodyBytes,
    onError: (c) => c.text(`The form is larger than ${LIMITS.maxBodyBytes / 1024} KiB.`, 413),
  });
  for (const path of WEB_PATHS) web.use(path, formLimit, webSession, verifyCsrf);
  for (const path of SIGNED_IN_PATHS) web.use(path, requireAccount);
  web.route("/", authRoutes);
  web.route("/", invitationRoutes);
  web.route("/", projectRoutes);
  web.route("/", webhookRoutes);
  web.route("/", sessionRoutes);
  web.onError((error, c) => {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const page = { csrf: c.get("csrf") ?? "", account: c.get("account") };
    return c.html(
      <Layout title={error.detail} page={page}>
        <h1>{error.status === 404 ? "Not found" : "That did not work"}</h1>
        <p>{error.detail}</p>
        <p>
          <a href="/projects">Back to your projects</a>
        </p>
      </Layout>,
      error.status,
    );
  });
  return web;
}
