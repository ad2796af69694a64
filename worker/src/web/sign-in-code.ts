import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../app-env.ts";
import { directoryDb } from "../db/databases.ts";
import { startWebSession } from "../domain/accounts.ts";
import { type Origin, recordSecurityEvent } from "../domain/security-log.ts";
import { newSignInCode, SIGN_IN_CODE_SECONDS } from "../domain/ssh-sign-in.ts";
import { seal, unseal } from "../lib/sealed.ts";
import { cookieName, safeNext, setSessionCookie } from "./auth.ts";

/**
 * A sign-in code binds a sign-in by SSH key or passkey to the browser that asked for it: it lives
 * in that browser's own HttpOnly cookie (sealed, with its expiry, the account when it is the step
 * after a password, and where to go afterwards), and the key signs it or the passkey answers it
 * as its challenge. A proof made for another browser's code therefore signs in nobody here.
 */
const CODE_COOKIE = "kp_ssh_signin";
const SEAL_PURPOSE = "ssh-sign-in";

export interface PendingCode {
  code: string;
  expiresAt: number;
  /** Set on the step after this account's password: only its keys and passkeys count. */
  accountId: string | null;
  /** Where the browser goes once signed in (an invitation, a project page). */
  next: string;
}

export async function pendingCode(c: Context<AppEnv>): Promise<PendingCode | null> {
  const opened = await unseal(c.env, SEAL_PURPOSE, getCookie(c, cookieName(c, CODE_COOKIE)));
  const [code = "", expires = "", account = "-", next = ""] = (opened ?? "").split(" ");
  const expiresAt = Number(expires) * 1000;
  if (!code || !(expiresAt > Date.now())) return null;
  return {
    code,
    expiresAt,
    accountId: account === "-" ? null : account,
    next: safeNext(decodeURIComponent(next), new URL(c.req.url).origin),
  };
}

/** Gives the browser a new code (for `accountId`'s second step, when set). */
export async function giveSignInCode(
  c: Context<AppEnv>,
  accountId: string | null,
  next?: string,
): Promise<PendingCode> {
  const code = newSignInCode();
  const expires = Math.floor(Date.now() / 1000) + SIGN_IN_CODE_SECONDS;
  const where = safeNext(next, new URL(c.req.url).origin);
  const value = await seal(
    c.env,
    SEAL_PURPOSE,
    `${code} ${expires} ${accountId ?? "-"} ${encodeURIComponent(where)}`,
  );
  setCookie(c, cookieName(c, CODE_COOKIE), value, {
    httpOnly: true,
    secure: true,
    sameSite: "Lax",
    path: "/",
    maxAge: SIGN_IN_CODE_SECONDS,
  });
  return { code, expiresAt: expires * 1000, accountId, next: where };
}

/** The browser's code when still good, else a new one that signs in any account. */
export const currentOrNewCode = async (c: Context<AppEnv>) =>
  (await pendingCode(c)) ?? (await giveSignInCode(c, null));

/** Signs the browser in as `accountId` once a code was proven, and sends it where it was going. */
export async function finishSignIn(
  c: Context<AppEnv>,
  pending: PendingCode,
  origin: Origin,
  signedIn: { accountId: string; way: string; details: Record<string, string> },
) {
  const db = directoryDb(c.env);
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
  return c.redirect(pending.next, 303);
}
