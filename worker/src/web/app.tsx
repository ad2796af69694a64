import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { ApiError } from "../lib/errors.ts";
import { requireAccount, verifyCsrf, webSession } from "./auth.ts";
import { Layout } from "./layout.tsx";
import { authRoutes } from "./routes/auth.tsx";
import { projectRoutes } from "./routes/projects.tsx";
import { sessionRoutes } from "./routes/sessions.tsx";
import { webhookRoutes } from "./routes/webhooks.tsx";
import { STYLESHEET } from "./style.ts";

const WEB_PATHS = ["/", "/signin", "/signup", "/signout", "/projects", "/projects/*"];

/** The server-rendered web app: plain forms, no client-side JavaScript needed. */
export function buildWebApp() {
  const web = new Hono<AppEnv>({ strict: false });
  web.get("/app.css", (c) =>
    c.body(STYLESHEET, 200, {
      "content-type": "text/css",
      "cache-control": "public, max-age=3600",
    }),
  );
  // Only the web app's own paths: the API and the internal endpoints have their own auth.
  for (const path of WEB_PATHS) web.use(path, webSession, verifyCsrf);
  web.route("/", authRoutes);
  web.use("/projects", requireAccount);
  web.use("/projects/*", requireAccount);
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
