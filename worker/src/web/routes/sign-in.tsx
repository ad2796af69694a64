import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../app-env.ts";
import { directoryDb } from "../../db/databases.ts";
import { endWebSession, signIn, signUp, startWebSession } from "../../domain/accounts.ts";
import { hasSecondFactor } from "../../domain/passkeys.ts";
import { accountIdOf, originOf, recordSecurityEvent } from "../../domain/security-log.ts";
import { recordSignInFailure, signInBlocked, signUpAllowed } from "../../domain/sign-in-limits.ts";
import {
  clearSessionCookie,
  cookieName,
  SESSION_COOKIE,
  safeNext,
  setSessionCookie,
  THEME_COOKIE,
  THEME_COOKIE_MAX_AGE_SECONDS,
} from "../auth.ts";
import {
  browserAddress,
  formState,
  pageContext,
  redirectWith,
  TOO_MANY_ATTEMPTS,
  text,
} from "../forms.ts";
import { AuthPage, HomePage } from "../pages/auth-pages.tsx";
import { giveSignInCode } from "../sign-in-code.ts";

const INVALID_CREDENTIALS = "That email and password do not match an account.";

export const authRoutes = new Hono<AppEnv>()
  .get("/", (c) =>
    c.get("account") ? c.redirect("/projects", 303) : c.html(<HomePage page={pageContext(c)} />),
  )
  .get("/signin", (c) =>
    c.html(<AuthPage page={pageContext(c)} mode="signin" next={c.req.query("next")} />),
  )
  .get("/signup", (c) =>
    c.html(<AuthPage page={pageContext(c)} mode="signup" next={c.req.query("next")} />),
  )
  .post("/signup", async (c) => {
    const form = await c.req.parseBody();
    // Where the user was going when asked to sign in (an invitation): kept through sign-up.
    const sent = text(form, "next") || undefined;
    const next = sent ? safeNext(sent, new URL(c.req.url).origin) : undefined;
    if (!(await signUpAllowed(c.env, browserAddress(c)))) {
      const page = { ...pageContext(c), flash: { error: TOO_MANY_ATTEMPTS } };
      return c.html(
        <AuthPage page={page} mode="signup" email={text(form, "email")} next={next} />,
        429,
      );
    }
    try {
      const db = directoryDb(c.env);
      const account = await signUp(db, text(form, "email"), text(form, "password"), new Date());
      const origin = originOf(c);
      setSessionCookie(
        c,
        await startWebSession(db, account.id, new Date(), { ...origin, signedInWith: "sign_up" }),
      );
      await recordSecurityEvent(db, account.id, "account_created", origin);
      return redirectWith(c, next ?? "/projects", {
        notice: next
          ? "Welcome to keyproof. Your account is ready."
          : "Welcome to keyproof. Create your first project.",
      });
    } catch (error) {
      const state = formState(form, error, ["password"]);
      return c.html(<AuthPage page={pageContext(c)} mode="signup" form={state} next={next} />, 400);
    }
  })
  .post("/signin", async (c) => {
    const form = await c.req.parseBody();
    const email = text(form, "email");
    const next = safeNext(text(form, "next"), new URL(c.req.url).origin);
    const address = browserAddress(c);
    const failed = (error: string, status: 401 | 429) =>
      c.html(
        <AuthPage
          page={{ ...pageContext(c), flash: { error } }}
          mode="signin"
          email={email}
          next={next}
        />,
        status,
      );
    // Only wrong passwords count, per account and address, so the owner is not locked out.
    const db = directoryDb(c.env);
    const origin = originOf(c);
    /** A failed or blocked sign-in goes to the security log of the account it named, if any. */
    const logFailure = async (event: "sign_in_failed" | "sign_in_blocked") => {
      const accountId = await accountIdOf(db, email);
      if (accountId) await recordSecurityEvent(db, accountId, event, origin);
    };
    const wait = await signInBlocked(c.env, email, address);
    if (wait !== null) {
      await logFailure("sign_in_blocked");
      c.header("Retry-After", String(wait));
      return failed(TOO_MANY_ATTEMPTS, 429);
    }
    const account = await signIn(db, email, text(form, "password"));
    if (!account) {
      await recordSignInFailure(c.env, email, address);
      await logFailure("sign_in_failed");
      return failed(INVALID_CREDENTIALS, 401);
    }
    // With a passkey or an SSH key registered, the password alone never signs in: one of them
    // is asked for next (or a recovery code), and the browser then goes where it was going.
    if (await hasSecondFactor(db, account.id)) {
      await giveSignInCode(c, account.id, next);
      return c.redirect("/signin/ssh", 303);
    }
    setSessionCookie(
      c,
      await startWebSession(db, account.id, new Date(), { ...origin, signedInWith: "password" }),
    );
    await recordSecurityEvent(db, account.id, "signed_in", origin, { way: "password" });
    return c.redirect(next, 303);
  })
  .post("/theme", async (c) => {
    // Light, dark, or (no cookie) whatever the device prefers; remembered for a year.
    const form = await c.req.parseBody();
    const theme = text(form, "theme");
    if (theme === "light" || theme === "dark")
      setCookie(c, cookieName(c, THEME_COOKIE), theme, {
        path: "/",
        httpOnly: true,
        secure: true,
        sameSite: "Lax",
        maxAge: THEME_COOKIE_MAX_AGE_SECONDS,
      });
    else deleteCookie(c, cookieName(c, THEME_COOKIE), { path: "/", secure: true });
    return c.redirect(safeNext(text(form, "next"), new URL(c.req.url).origin), 303);
  })
  .post("/signout", async (c) => {
    const token = getCookie(c, cookieName(c, SESSION_COOKIE));
    const account = c.get("account") as AppEnv["Variables"]["account"] | undefined;
    if (token) await endWebSession(directoryDb(c.env), token);
    if (account)
      await recordSecurityEvent(directoryDb(c.env), account.id, "signed_out", originOf(c));
    clearSessionCookie(c);
    return c.redirect("/", 303);
  });
