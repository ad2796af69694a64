import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { ApiError } from "../lib/errors.ts";
import { log } from "../lib/log.ts";
import { indexUnavailable, isIndexUnavailable } from "../lib/unavailable.ts";
import { LIMITS } from "../schemas/limits.ts";
import {
  chosenTheme,
  requireAccount,
  requireMember,
  requireOwner,
  verifyCsrf,
  webSession,
} from "./auth.ts";
import { FAVICON } from "./favicon.ts";
import { Layout } from "./layout.tsx";
import { accountSecurityRoutes } from "./routes/account-security.tsx";
import { auditLogRoutes } from "./routes/audit-log.tsx";
import { invitationRoutes } from "./routes/invitation-links.tsx";
import { accountPasskeyRoutes, passkeySignInRoutes } from "./routes/passkeys.tsx";
import {
  invitationAdminRoutes,
  projectListRoutes,
  projectSettingsRoutes,
} from "./routes/project-settings.tsx";
import { proofRoutes } from "./routes/proof.tsx";
import { sessionRoutes } from "./routes/sessions.tsx";
import { authRoutes } from "./routes/sign-in.tsx";
import { sshSignInRoutes } from "./routes/ssh-sign-in.tsx";
import { webhookRoutes } from "./routes/webhooks.tsx";
import { APP_SCRIPT, PASSKEY_SCRIPT, PROOF_SCRIPT } from "./scripts.ts";
import { requireSecondFactor } from "./second-factor.ts";
import { STYLESHEET } from "./style.ts";

/** The pages at the site's root; everything else of the web app sits under a guarded mount. */
const ROOT_PAGES = [
  "/",
  "/signin",
  "/signin/ssh",
  "/signin/passkey",
  "/signin/passkey/options",
  "/signup",
  "/signout",
  "/theme",
];

/**
 * A sign-in, sign-up or sign-out from a client whose User-Agent is longer than any browser's is
 * refused (400) and logged, before anything is read or signed in: the security log keeps a user
 * agent, and a header of kilobytes is no browser's.
 */
const MAX_USER_AGENT = 1024;
const saneUserAgent = createMiddleware<AppEnv>(async (c, next) => {
  const length = c.req.header("user-agent")?.length ?? 0;
  if (c.req.method !== "POST" || length <= MAX_USER_AGENT) return next();
  log(c.env, "warn", "sign-in refused: user agent too long", { route: c.req.path, length });
  return c.text(
    `This browser's User-Agent header is ${length} characters long; keyproof signs in no client whose User-Agent is over ${MAX_USER_AGENT}. Nothing was signed in.`,
    400,
  );
});

/** A form is read only once its size is known to be sane: anyone can post to /signin. */
const formLimit = bodyLimit({
  maxSize: LIMITS.maxBodyBytes,
  onError: (c) => c.text(`The form is larger than ${LIMITS.maxBodyBytes / 1024} KiB.`, 413),
});

/**
 * The server-rendered web app: plain forms, no client-side JavaScript needed. Who may see a page
 * is decided by where it is mounted, so a new page under a mount is guarded without anyone
 * remembering to add a check:
 *   /projects/*                    signed in
 *   /projects/:project_id/*        a member of that project (with a second factor, if its
 *                                  owners require one)
 *   /projects/:project_id/invitations/*   an owner
 *   /projects/:project_id/audit-log       an owner
 *   /invitations/*                 signed in
 *   /account/*                     signed in: the account's own security page
 */
export function buildWebApp() {
  const web = new Hono<AppEnv>({ strict: false });
  // The web app's own files: each small, public and cached.
  for (const [path, body, type] of [
    ["/app.css", STYLESHEET, "text/css"],
    ["/app.js", APP_SCRIPT, "text/javascript"],
    ["/proof.js", PROOF_SCRIPT, "text/javascript"],
    ["/passkey.js", PASSKEY_SCRIPT, "text/javascript"],
    ["/favicon.svg", FAVICON, "image/svg+xml"],
    // Browsers ask for /favicon.ico by themselves; the same icon answers.
    ["/favicon.ico", FAVICON, "image/svg+xml"],
  ] as const) {
    web.get(path, (c) =>
      c.body(body, 200, { "content-type": type, "cache-control": "public, max-age=3600" }),
    );
  }
  // Public: the connection identifier names the session, as it does over SSH.
  web.route("/p", proofRoutes);
  for (const path of ROOT_PAGES) web.use(path, saneUserAgent, formLimit, webSession, verifyCsrf);
  web.route("/signin/ssh", sshSignInRoutes);
  web.route("/signin/passkey", passkeySignInRoutes);
  web.route("/", authRoutes);

  const owners = new Hono<AppEnv>().use(requireOwner).route("/", invitationAdminRoutes);
  const auditors = new Hono<AppEnv>().use(requireOwner).route("/", auditLogRoutes);
  const project = new Hono<AppEnv>()
    .use(requireMember, requireSecondFactor)
    .route("/invitations", owners)
    .route("/audit-log", auditors)
    .route("/", projectSettingsRoutes)
    .route("/", sessionRoutes)
    .route("/", webhookRoutes);
  const projects = new Hono<AppEnv>()
    .use(formLimit, webSession, verifyCsrf, requireAccount)
    .route("/", projectListRoutes)
    .route("/:project_id", project);
  const invitations = new Hono<AppEnv>()
    .use(formLimit, webSession, verifyCsrf, requireAccount)
    .route("/", invitationRoutes);
  const account = new Hono<AppEnv>()
    .use(formLimit, webSession, verifyCsrf, requireAccount)
    .route("/passkeys", accountPasskeyRoutes)
    .route("/", accountSecurityRoutes);
  web.route("/projects", projects);
  web.route("/invitations", invitations);
  web.route("/account", account);

  web.onError((thrown, c) => {
    // D1 away is a page saying to try again (503), not the Worker's 500.
    const unavailable = isIndexUnavailable(thrown);
    const error = unavailable ? indexUnavailable() : thrown;
    if (!(error instanceof ApiError) || (error.status >= 500 && !unavailable)) throw error;
    for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
    const page = { csrf: c.var.csrf ?? "", account: c.var.account, theme: chosenTheme(c) };
    return c.html(
      <Layout title={error.detail} page={page}>
        <h1>
          {error.status === 404
            ? "Not found"
            : unavailable
              ? "Try again in a moment"
              : "That did not work"}
        </h1>
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
