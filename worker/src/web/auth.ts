import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { directoryDb, shardDb } from "../db/databases.ts";
import { accountForWebSession, WEB_SESSION_DAYS } from "../domain/accounts.ts";
import { timingSafeEqual } from "../domain/passwords.ts";
import { assertOwner, projectForMember } from "../domain/projects.ts";
import { sha256Hex } from "../lib/encoding.ts";
import { randomBase32 } from "../lib/ids.ts";

export const SESSION_COOKIE = "kp_session";
export const CSRF_COOKIE = "kp_csrf";
export const CSRF_FIELD = "_csrf";
const CSRF_TOKEN = /^[0-9a-z]{32}$/;
/** Where a sign-in goes when `next` is missing or not a path on this site. */
const DEFAULT_NEXT = "/projects";

const cookieOptions = { httpOnly: true, secure: true, sameSite: "Lax", path: "/" } as const;

/**
 * Over HTTPS every cookie is named `__Host-...`: browsers then take it only when Secure, for this
 * host and path `/`, so a sibling subdomain cannot plant one. Plain-HTTP local runs keep the name.
 */
/** The colour theme a browser chose (light or dark); without it, the device's preference. */
export const THEME_COOKIE = "kp_theme";
export const THEME_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The theme this browser chose, if any. */
export function chosenTheme(c: Context<AppEnv>): "light" | "dark" | undefined {
  const theme = getCookie(c, cookieName(c, THEME_COOKIE));
  return theme === "light" || theme === "dark" ? theme : undefined;
}

export function cookieName(c: Context<AppEnv>, base: string): string {
  return new URL(c.req.url).protocol === "https:" ? `__Host-${base}` : base;
}

/** A signed-in browser's CSRF token is derived from its secret session token, so it is bound to it. */
async function sessionCsrfToken(sessionToken: string): Promise<string> {
  return (await sha256Hex(`csrf\n${sessionToken}`)).slice(0, 32);
}

/**
 * Every web request: who is signed in (if anyone), and the CSRF token its forms must repeat:
 * derived from the session when signed in; before that, a random HttpOnly cookie (double submit).
 */
export const webSession = createMiddleware<AppEnv>(async (c, next) => {
  const token = getCookie(c, cookieName(c, SESSION_COOKIE));
  const account = token ? await accountForWebSession(directoryDb(c.env), token, new Date()) : null;
  let csrf = getCookie(c, cookieName(c, CSRF_COOKIE));
  if (!csrf || !CSRF_TOKEN.test(csrf)) {
    csrf = randomBase32(32);
    setCookie(c, cookieName(c, CSRF_COOKIE), csrf, cookieOptions);
  }
  if (account && token) {
    c.set("account", account);
    csrf = await sessionCsrfToken(token);
  }
  c.set("csrf", csrf);
  await next();
  c.header("cache-control", "no-store");
});

/** Pages behind sign-in send everyone else to /signin, and back afterwards. */
export const requireAccount = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get("account")) {
    const url = new URL(c.req.url);
    return c.redirect(`/signin?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
  }
  await next();
});

/** Every state-changing form must carry this browser's CSRF token; anything else gets 403. */
export const verifyCsrf = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === "POST") {
    const form = await c.req.parseBody();
    const sent = typeof form[CSRF_FIELD] === "string" ? form[CSRF_FIELD] : "";
    const encoder = new TextEncoder();
    if (!timingSafeEqual(encoder.encode(sent), encoder.encode(c.get("csrf")))) {
      return c.text(
        "This form has expired or did not come from keyproof. Go back, reload the page and try again.",
        403,
      );
    }
  }
  await next();
});

export function setSessionCookie(c: Context<AppEnv>, token: string) {
  setCookie(c, cookieName(c, SESSION_COOKIE), token, {
    ...cookieOptions,
    maxAge: WEB_SESSION_DAYS * 86_400,
  });
}

export function clearSessionCookie(c: Context<AppEnv>) {
  deleteCookie(c, cookieName(c, SESSION_COOKIE), { path: "/", secure: true });
}

/**
 * Where to go after signing in: `next` resolved against this origin, kept only when it stays on
 * it. Control characters and backslashes are refused outright: browsers drop tabs and read `\`
 * as `/`, which turned `/\t/evil.example` into a link to another site.
 */
export function safeNext(next: string | undefined, origin: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (next === undefined || !next.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(next)) {
    return DEFAULT_NEXT;
  }
  try {
    const url = new URL(next, origin);
    return url.origin === origin ? url.pathname + url.search + url.hash : DEFAULT_NEXT;
  } catch {
    return DEFAULT_NEXT;
  }
}

/** Which data the dashboard shows, live or test: the switch in every project page. */
export const MODE_COOKIE = "keyproof_mode";

/**
 * Who may see a project's pages is decided where they are mounted: the signed-in account must
 * be a member (anyone else gets the same 404 as for no project). Pages read `c.var.member`.
 */
export const requireMember = createMiddleware<AppEnv>(async (c, next) => {
  const directory = directoryDb(c.env);
  const { project, role } = await projectForMember(
    directory,
    c.var.account.id,
    c.req.param("project_id") ?? "",
  );
  c.set("member", {
    project: {
      id: project.id,
      name: project.name,
      retentionDays: project.retentionDays,
      requireSecondFactor: project.requireSecondFactor,
    },
    role,
  });
  c.set("project", {
    db: shardDb(c.env, project.shard),
    directory,
    shard: project.shard,
    env: c.env,
    projectId: project.id,
    livemode: getCookie(c, cookieName(c, MODE_COOKIE)) !== "test",
    now: new Date(),
  });
  await next();
});

/** Owner-only pages and actions, mounted under this: everyone else gets 403. */
export const requireOwner = createMiddleware<AppEnv>(async (c, next) => {
  assertOwner(c.var.member.role, "do this");
  await next();
});
