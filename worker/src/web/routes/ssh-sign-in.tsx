import { type Context, Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { directoryDb } from "../../db/databases.ts";
import { hasPasskey } from "../../domain/passkeys.ts";
import { originOf, recordSecurityEvent } from "../../domain/security-log.ts";
import { recordSignInFailure, signInBlocked } from "../../domain/sign-in-limits.ts";
import {
  claimedKey,
  hasSshKey,
  proveSignIn,
  SIGN_IN_CODE_SECONDS,
  signInCommand,
  signInMessage,
  useRecoveryCode,
} from "../../domain/ssh-sign-in.ts";
import { browserAddress, pageContext, TOO_MANY_ATTEMPTS, text } from "../forms.ts";
import { SshSignInPage } from "../pages/ssh-sign-in-page.tsx";
import {
  currentOrNewCode,
  finishSignIn,
  giveSignInCode,
  type PendingCode,
  pendingCode,
} from "../sign-in-code.ts";

const hostOf = (c: Context<AppEnv>) => new URL(c.env.PUBLIC_URL || c.req.url).host;

/**
 * The SSH sign-in page, or the step after a password: with the ways this account has (a passkey,
 * an SSH key, a recovery code). Shown again after a refusal with a fresh code (the one tried may
 * be spent), keeping the account and where the browser was going.
 */
export async function signInStep(
  c: Context<AppEnv>,
  pending: PendingCode,
  refusal?: { error: string; status: 400 | 401 | 429 },
) {
  const shown = refusal ? await giveSignInCode(c, pending.accountId, pending.next) : pending;
  const db = directoryDb(c.env);
  const account = shown.accountId;
  const [passkey, sshKey] = account
    ? await Promise.all([hasPasskey(db, account), hasSshKey(db, account)])
    : [false, true];
  return c.html(
    <SshSignInPage
      page={refusal ? { ...pageContext(c), flash: { error: refusal.error } } : pageContext(c)}
      command={signInCommand(signInMessage(hostOf(c), shown.code))}
      afterPassword={account !== null}
      ways={{ passkey, sshKey }}
      minutes={SIGN_IN_CODE_SECONDS / 60}
    />,
    refusal?.status ?? 200,
  );
}

/** `/signin/ssh`: sign in by proving an SSH key, or the step after a password. */
export const sshSignInRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    if (c.get("account")) return c.redirect("/projects", 303);
    // A code still good (the step after a password keeps its account) is shown again.
    return signInStep(c, await currentOrNewCode(c));
  })
  .post("/", async (c) => {
    const form = await c.req.parseBody();
    const pending = await pendingCode(c);
    if (!pending)
      return signInStep(
        c,
        { code: "", expiresAt: 0, accountId: null, next: "/projects" },
        { error: "The sign-in code expired: sign the new one below.", status: 400 },
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
      return signInStep(c, pending, { error: TOO_MANY_ATTEMPTS, status: 429 });
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
        return signInStep(c, pending, { error: proof.problem, status: 401 });
      }
    }
    if (!signedIn) {
      await recordSignInFailure(c.env, limitName, address);
      if (pending.accountId)
        await recordSecurityEvent(db, pending.accountId, "sign_in_failed", origin, {
          way: "recovery_code",
        });
      return signInStep(c, pending, {
        error: "That recovery code is not one of this account's unused codes.",
        status: 401,
      });
    }
    return finishSignIn(c, pending, origin, signedIn);
  });
