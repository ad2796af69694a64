import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { database } from "../db/client.ts";
import { accountForWebSession, WEB_SESSION_DAYS } from "../domain/accounts.ts";
import { timingSafeEqual } from "../domain/passwords.ts";
import { randomBase32 } from "../lib/ids.ts";

export const SESSION_COOKIE = "kp_session";
export const CSRF_COOKIE = "kp_csrf";
export const CSRF_FIELD = "_csrf";

const cookieOptions = { httpOnly: true, secure: true, sameSite: "Lax", path: "/" } as const;

/**
 * Every web request: who is signed in (if anyone), and this browser's CSRF token. The token is a
 * double-submit value: an HttpOnly cookie that each form repeats in a hidden field.
 */
export const webSession = createMiddleware<AppEnv>(async (c, next) => {
  let csrf = getCookie(c, CSRF_COOKIE);
  if (!csrf || !/^[0-9a-z]{32}$/.test(csrf)) {
    csrf = randomBase32(32);
    setCookie(c, CSRF_COOKIE, csrf, cookieOptions);
  }
  c.set("csrf", csrf);
  const token = getCookie(c, SESSION_COOKIE);
  const account = token ? await accountForWebSession(database(c.env.DB), token, new Date()) : null;
  if (account) c.set("account", account);
  await next();
  c.header("cache-control", "no-store");
});

/** Pages behind sign-in send everyone else to /signin, and back afterwards. */
export const requireAccount = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get("account")) {
    const back = new URL(c.req.url).pathname;
    return c.redirect(`/signin?next=${encodeURIComponent(back)}`, 303);
  }
  await next();
});

/** Every state-changing form must repeat the CSRF cookie; anything else is refused with 403. */
export const verifyCsrf = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === "POST") {
    const form = await c.req.parseBody();
    const sent = typeof form[CSRF_FIELD] === "string" ? form[CSRF_FIELD] : "";
    const expected = getCookie(c, CSRF_COOKIE) ?? "";
    const encoder = new TextEncoder();
    if (!expected || !timingSafeEqual(encoder.encode(sent), encoder.encode(expected))) {
      return c.text(
        "This form has expired or did not come from keyproof. Go back, reload the page and try again.",
        403,
      );
    }
  }
  await next();
});

export function setSessionCookie(c: Context<AppEnv>, token: string) {
  setCookie(c, SESSION_COOKIE, token, { ...cookieOptions, maxAge: WEB_SESSION_DAYS * 86_400 });
}

export function clearSessionCookie(c: Context<AppEnv>) {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true });
}

/** Only same-site paths are followed after sign-in. */
export function safeNext(next: string | undefined): string {
  return next && /^\/[^/\\]/.test(next) ? next : "/projects";
}
