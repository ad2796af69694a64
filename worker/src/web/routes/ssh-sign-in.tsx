import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../app-env.ts";
import { directoryDb } from "../../db/databases.ts";
import { startWebSession } from "../../domain/accounts.ts";
import { originOf, recordSecurityEvent } from "../../domain/security-log.ts";
import { recordSignInFailure, signInBlocked } from "../../domain/sign-in-limits.ts";
import {
  claimedKey,
  newSignInCode,
  proveSignIn,
  SIGN_IN_CODE_SECONDS,
  signInCommand,
  signInMessage,
  useRecoveryCode,
} from "../../domain/ssh-sign-in.ts";
import { seal, unseal } from "../../lib/sealed.ts";
import { cookieName, setSessionCookie } from "../auth.ts";
import { browserAddress, pageContext, text } from "../forms.ts";
import { SshSignInPage } from "../pages/ssh-sign-in-page.tsx";

/** The cookie that binds a sign-in code to the browser that asked for it. */
const CODE_COOKIE = "kp_ssh_signin";
const SEAL_PURPOSE = "ssh-sign-in";

interface PendingCode {
  code: string;
  expiresAt: number;
  /** Set on the step after this account's password: only its keys count. */
  accountId: string | null;
}

async function pendingCode(c: Context<AppEnv>): Promise<PendingCode | null> {
  const opened = await unseal(c.env, SEAL_PURPOSE, getCookie(c, cookieName(c, CODE_COOKIE)));
  const [code = "", expires = "", account = "-"] = (opened ?? "").split(" ");
  const expiresAt = Number(expires) * 1000;
  if (!code || !(expiresAt > Date.now())) return null;
  return { code, expiresAt, accountId: account === "-" ? null : account };
}

/** Gives the browser a new code (for `accountId`'s second step, when set). */
export async function giveSignInCode(c: Context<AppEnv>, accountId: string | null) {
  const code = newSignInCode();
  const expires = Math.floor(Date.now() / 1000) + SIGN_IN_CODE_SECONDS;
  const value = await seal(c.env, SEAL_PURPOSE, `${code} ${expires} ${accountId ?? "-"}`);
  setCookie(c, cookieName(c, CODE_COOKIE), value, {
    httpOnly: true,
    secure: true,
    sameSite: "Lax",
    path: "/",
    maxAge: SIGN_IN_CODE_SECONDS,
  });
  return { code, expiresAt: expires * 1000, accountId };
}

const hostOf = (c: Context<AppEnv>) => new URL(c.env.PUBLIC_URL || c.req.url).host;

function page(c: Context<AppEnv>, pending: PendingCode, status: 200 | 400 | 401 | 429 = 200) {
  return c.html(
    <SshSignInPage
      page={pageContext(c)}
      command={signInCommand(signInMessage(hostOf(c), pending.code))}
      afterPassword={pending.accountId !== null}
      minutes={SIGN_IN_CODE_SECONDS / 60}
    />,
    status,
  );
}

/** Shows the page again with `error`, and a fresh code (the one tried may be spent). */
async function refused(
  c: Context<AppEnv>,
  pending: PendingCode,
  error: string,
  status: 400 | 401 | 429,
) {
  const fresh = await giveSignInCode(c, pending.accountId);
  return c.html(
    <SshSignInPage
      page={{ ...pageContext(c), flash: { error } }}
      command={signInCommand(signInMessage(hostOf(c), fresh.code))}
      afterPassword={fresh.accountId !== null}
      minutes={SIGN_IN_CODE_SECONDS / 60}
    />,
    status,
  );
}

/** `/signin/ssh`: sign in by proving an SSH key, or the step after a password. */
export const sshSignInRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    if (c.get("account")) return c.redirect("/projects", 303);
    // A code still good (the step after a password keeps its account) is shown again.
    const pending = (await pendingCode(c)) ?? (await giveSignInCode(c, null));
    return page(c, pending);
  })
  .post("/", async (c) => {
    const form = await c.req.parseBody();
    const pending = await pendingCode(c);
    if (!pending)
      return refused(
        c,
        { code: "", expiresAt: 0, accountId: null },
        "The sign-in code expired: sign the new one below.",
        400,
      );
    const address = browserAddress(c);
    const db = directoryDb(c.env);
    const origin = originOf(c);
    const recovery = text(form, "recovery_code");
    // Failures count as a password's do: per address, and per key (or account, for a recovery
    // code), so guesses at one key never block another's sign-in.
    const limitName =
      recovery && pending.accountId
        ? `recovery:${pending.accountId}`
        : `ssh-key:${claimedKey(text(form, "signature")) ?? "unreadable"}`;
    const wait = await signInBlocked(c.env, limitName, address);
    if (wait !== null) {
      c.header("Retry-After", String(wait));
      return refused(c, pending, "Too many attempts from here. Wait a minute and try again.", 429);
    }
    let signedIn: { accountId: string; way: string; details: Record<string, string> } | null = null;
    if (recovery && pending.accountId) {
      if (await useRecoveryCode(db, pending.accountId, recovery)) {
        await recordSecurityEvent(db, pending.accountId, "recovery_code_used", origin);
        signedIn = { accountId: pending.accountId, way: "password+recovery_code", details: {} };
      }
    } else {
      const proof = await proveSignIn(
        db,
        text(form, "signature"),
        signInMessage(hostOf(c), pending.code),
        pending.code,
        pending.accountId,
      );
      if (proof.ok)
        signedIn = {
          accountId: proof.accountId,
          way: pending.accountId ? "password+ssh_key" : "ssh_key",
          details: { fingerprint: proof.fingerprint },
        };
      else {
        await recordSignInFailure(c.env, limitName, address);
        if (pending.accountId)
          await recordSecurityEvent(db, pending.accountId, "sign_in_failed", origin, {
            way: "ssh_key",
          });
        return refused(c, pending, proof.problem, 401);
      }
    }
    if (!signedIn) {
      await recordSignInFailure(c.env, limitName, address);
      if (pending.accountId)
        await recordSecurityEvent(db, pending.accountId, "sign_in_failed", origin, {
          way: "recovery_code",
        });
      return refused(
        c,
        pending,
        "That recovery code is not one of this account's unused codes.",
        401,
      );
    }
    deleteCookie(c, cookieName(c, CODE_COOKIE), { path: "/", secure: true });
    setSessionCookie(
      c,
      await startWebSession(db, signedIn.accountId, new Date(), {
        ...origin,
        signedInWith: signedIn.way,
      }),
    );
    await recordSecurityEvent(db, signedIn.accountId, "signed_in", origin, {
      way: signedIn.way,
      ...signedIn.details,
    });
    return c.redirect("/projects", 303);
  });
