import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../../app-env.ts";
import { database } from "../../db/client.ts";
import { endWebSession, signIn, signUp, startWebSession } from "../../domain/accounts.ts";
import { clearSessionCookie, SESSION_COOKIE, safeNext, setSessionCookie } from "../auth.ts";
import { errorMessage, pageContext, redirectWith, text } from "../forms.ts";
import { AuthPage, HomePage } from "../pages/auth-pages.tsx";

/** Sign-in attempts allowed per email, and per client address, each minute. */
export const SIGNIN_ATTEMPTS_PER_MINUTE = { perEmail: 10, perAddress: 30 };
const INVALID_CREDENTIALS = "That email and password do not match an account.";

async function signinAllowed(env: AppEnv["Bindings"], email: string, address: string) {
  const limiter = (key: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key));
  const [byEmail, byAddress] = await Promise.all([
    limiter(`signin:email:${email.trim().toLowerCase()}`).consume(
      SIGNIN_ATTEMPTS_PER_MINUTE.perEmail,
    ),
    limiter(`signin:address:${address}`).consume(SIGNIN_ATTEMPTS_PER_MINUTE.perAddress),
  ]);
  return byEmail.allowed && byAddress.allowed;
}

export const authRoutes = new Hono<AppEnv>()
  .get("/", (c) =>
    c.get("account") ? c.redirect("/projects", 303) : c.html(<HomePage page={pageContext(c)} />),
  )
  .get("/signin", (c) =>
    c.html(<AuthPage page={pageContext(c)} mode="signin" next={c.req.query("next")} />),
  )
  .get("/signup", (c) => c.html(<AuthPage page={pageContext(c)} mode="signup" />))
  .post("/signup", async (c) => {
    const form = await c.req.parseBody();
    try {
      const db = database(c.env.DB);
      const account = await signUp(db, text(form, "email"), text(form, "password"), new Date());
      setSessionCookie(c, await startWebSession(db, account.id, new Date()));
      return redirectWith(c, "/projects", {
        notice: "Welcome to keyproof. Create your first project.",
      });
    } catch (error) {
      return redirectWith(c, "/signup", { error: errorMessage(error) });
    }
  })
  .post("/signin", async (c) => {
    const form = await c.req.parseBody();
    const email = text(form, "email");
    const next = safeNext(text(form, "next"));
    const address = c.req.header("cf-connecting-ip") ?? "local";
    if (!(await signinAllowed(c.env, email, address))) {
      return c.html(
        <AuthPage
          page={{
            ...pageContext(c),
            flash: { error: "Too many attempts. Wait a minute and try again." },
          }}
          mode="signin"
          email={email}
        />,
        429,
      );
    }
    const db = database(c.env.DB);
    const account = await signIn(db, email, text(form, "password"));
    if (!account) {
      return c.html(
        <AuthPage
          page={{ ...pageContext(c), flash: { error: INVALID_CREDENTIALS } }}
          mode="signin"
          email={email}
          next={next}
        />,
        401,
      );
    }
    setSessionCookie(c, await startWebSession(db, account.id, new Date()));
    return c.redirect(next, 303);
  })
  .post("/signout", async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await endWebSession(database(c.env.DB), token);
    clearSessionCookie(c);
    return c.redirect("/", 303);
  });
