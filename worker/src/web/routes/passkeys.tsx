import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../app-env.ts";
import { directoryDb } from "../../db/databases.ts";
import {
  addPasskey,
  claimedPasskey,
  newRegistrationChallenge,
  provePasskey,
  registrationOptions,
  relyingPartyOf,
  removePasskey,
  signInOptions,
} from "../../domain/passkeys.ts";
import { originOf, recordSecurityEvent } from "../../domain/security-log.ts";
import { recordSignInFailure, signInBlocked } from "../../domain/sign-in-limits.ts";
import { SIGN_IN_CODE_SECONDS, spendSignInCode } from "../../domain/ssh-sign-in.ts";
import { badRequest } from "../../lib/errors.ts";
import { seal, unseal } from "../../lib/sealed.ts";
import { cookieName } from "../auth.ts";
import {
  browserAddress,
  formState,
  pageContext,
  redirectWith,
  TOO_MANY_ATTEMPTS,
  text,
} from "../forms.ts";
import { AuthPage } from "../pages/auth-pages.tsx";
import { finishSignIn, giveSignInCode, type PendingCode, pendingCode } from "../sign-in-code.ts";
import { factorAdded, securityPage } from "./account-security.tsx";
import { signInStep } from "./ssh-sign-in.tsx";

/**
 * Passkeys in the web app. The browser's side is /passkey.js: it asks for the options (a form
 * post, CSRF-checked), hands them to `navigator.credentials`, and posts the answer in the same
 * form. Signing in answers the browser's sign-in code (web/sign-in-code.ts); adding a passkey
 * answers a challenge sealed into this browser's cookie with the account and its expiry.
 */
const REGISTRATION_COOKIE = "kp_passkey_registration";
const REGISTRATION_PURPOSE = "passkey-registration";

/** Where a refused passkey sign-in lands: the step after a password, or the sign-in page. */
function refuse(
  c: Context<AppEnv>,
  pending: PendingCode | null,
  error: string,
  status: 400 | 401 | 429,
) {
  if (pending?.accountId) return signInStep(c, pending, { error, status });
  const page = { ...pageContext(c), flash: { error } };
  return c.html(<AuthPage page={page} mode="signin" next={pending?.next} />, status);
}

/** `/signin/passkey`: a passkey alone (any account's, discoverable) or after a password. */
export const passkeySignInRoutes = new Hono<AppEnv>()
  .post("/options", async (c) => {
    const form = await c.req.parseBody();
    const pending = (await pendingCode(c)) ?? (await giveSignInCode(c, null, text(form, "next")));
    const db = directoryDb(c.env);
    return c.json(
      await signInOptions(db, relyingPartyOf(c.req.url), pending.code, pending.accountId),
    );
  })
  .post("/", async (c) => {
    const form = await c.req.parseBody();
    const pending = await pendingCode(c);
    if (!pending) return refuse(c, null, "The sign-in expired: use your passkey again.", 400);
    const db = directoryDb(c.env);
    const origin = originOf(c);
    const address = browserAddress(c);
    const answer = text(form, "response");
    // Failures count per passkey and address, as a password's do per account and address.
    const limitName = `passkey:${claimedPasskey(answer) ?? "unreadable"}`;
    const wait = await signInBlocked(c.env, limitName, address);
    if (wait !== null) {
      c.header("Retry-After", String(wait));
      return refuse(c, pending, TOO_MANY_ATTEMPTS, 429);
    }
    const rp = relyingPartyOf(c.req.url);
    const proof = await provePasskey(db, rp, answer, pending.code, pending.accountId);
    if (!proof.ok) {
      await recordSignInFailure(c.env, limitName, address);
      // Logged for the account on the step after its password, or whose passkey it named.
      const named = pending.accountId ?? proof.accountId;
      if (named) await recordSecurityEvent(db, named, "sign_in_failed", origin, { way: "passkey" });
      return refuse(c, pending, proof.problem, 401);
    }
    return finishSignIn(c, pending, origin, {
      accountId: proof.accountId,
      way: pending.accountId ? "password+passkey" : "passkey",
      details: { passkey: proof.name },
    });
  });

/** The registration challenge this browser was given for this account, if still good. */
async function registrationChallenge(c: Context<AppEnv>): Promise<string | null> {
  const sealed = getCookie(c, cookieName(c, REGISTRATION_COOKIE));
  deleteCookie(c, cookieName(c, REGISTRATION_COOKIE), { path: "/", secure: true });
  const opened = await unseal(c.env, REGISTRATION_PURPOSE, sealed);
  const [challenge = "", expires = "", account = ""] = (opened ?? "").split(" ");
  const good = challenge && Number(expires) * 1000 > Date.now() && account === c.var.account.id;
  return good ? challenge : null;
}

/** `/account/passkeys`: the signed-in account adds and removes its passkeys. */
export const accountPasskeyRoutes = new Hono<AppEnv>()
  .post("/options", async (c) => {
    const challenge = newRegistrationChallenge();
    const expires = Math.floor(Date.now() / 1000) + SIGN_IN_CODE_SECONDS;
    const { id, email } = c.var.account;
    const value = await seal(c.env, REGISTRATION_PURPOSE, `${challenge} ${expires} ${id}`);
    setCookie(c, cookieName(c, REGISTRATION_COOKIE), value, {
      httpOnly: true,
      secure: true,
      sameSite: "Strict",
      path: "/",
      maxAge: SIGN_IN_CODE_SECONDS,
    });
    const db = directoryDb(c.env);
    return c.json(
      await registrationOptions(db, relyingPartyOf(c.req.url), { id, email }, challenge),
    );
  })
  .post("/", async (c) => {
    const db = directoryDb(c.env);
    const form = await c.req.parseBody();
    const accountId = c.var.account.id;
    try {
      const challenge = await registrationChallenge(c);
      if (!challenge || !(await spendSignInCode(db, challenge)))
        throw badRequest("body", "That passkey's challenge expired or was used: add it again");
      const passkey = await addPasskey(db, relyingPartyOf(c.req.url), accountId, {
        name: text(form, "name"),
        response: text(form, "response"),
        challenge,
      });
      await recordSecurityEvent(db, accountId, "passkey_added", originOf(c), {
        passkey: passkey.name,
      });
      return factorAdded(c, "/account/security#passkeys", "Passkey added.");
    } catch (error) {
      return securityPage(c, { passkeyForm: formState(form, error, ["response"]) }, 400);
    }
  })
  .post("/:passkey_id/remove", async (c) => {
    const db = directoryDb(c.env);
    const removed = await removePasskey(db, c.var.account.id, c.req.param("passkey_id"));
    if (!removed)
      return redirectWith(c, "/account/security#passkeys", {
        error: "That passkey is already removed.",
      });
    await recordSecurityEvent(db, c.var.account.id, "passkey_removed", originOf(c), {
      passkey: removed.name,
    });
    return redirectWith(c, "/account/security#passkeys", { notice: "Passkey removed." });
  });
