import { type Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../../app-env.ts";
import { directoryDb } from "../../db/databases.ts";
import { changePassword } from "../../domain/accounts.ts";
import { passkeysOf } from "../../domain/passkeys.ts";
import {
  browsersOf,
  endBrowser,
  endOtherBrowsers,
  originOf,
  recordSecurityEvent,
  securityLogOf,
} from "../../domain/security-log.ts";
import { recordSignInFailure, signInBlocked } from "../../domain/sign-in-limits.ts";
import {
  addSshKey,
  createRecoveryCodes,
  hasRecoveryCodes,
  removeSshKey,
  sshKeysOf,
} from "../../domain/ssh-sign-in.ts";
import { sha256Hex } from "../../lib/encoding.ts";
import { ApiError, badRequest } from "../../lib/errors.ts";
import { cookieName, SESSION_COOKIE } from "../auth.ts";
import {
  browserAddress,
  type FormState,
  formState,
  pageContext,
  redirectWith,
  TOO_MANY_ATTEMPTS,
  text,
} from "../forms.ts";
import { SecurityPage } from "../pages/security-page.tsx";

/** Form fields never sent back to the page. */
const PASSWORDS = ["current_password", "new_password"];

/** The signed-in browser's own session id: the SHA-256 of its cookie's token. */
const currentSessionId = async (c: Context<AppEnv>) =>
  sha256Hex(getCookie(c, cookieName(c, SESSION_COOKIE)) ?? "");

/** `/account/...`: the signed-in account's own security page and what it does. */
export async function securityPage(
  c: Context<AppEnv>,
  shown: {
    recoveryCodes?: string[];
    keyForm?: FormState;
    passkeyForm?: FormState;
    passwordForm?: FormState;
  } = {},
  status: 200 | 400 | 401 | 409 | 429 = 200,
) {
  const db = directoryDb(c.env);
  const [browsers, log, keys, passkeys] = await Promise.all([
    browsersOf(db, c.var.account.id, new Date()),
    securityLogOf(db, c.var.account.id),
    sshKeysOf(db, c.var.account.id),
    passkeysOf(db, c.var.account.id),
  ]);
  return c.html(
    <SecurityPage
      page={pageContext(c)}
      browsers={browsers}
      currentId={await currentSessionId(c)}
      log={log}
      keys={keys}
      passkeys={passkeys}
      recoveryCodes={shown.recoveryCodes}
      keyForm={shown.keyForm}
      passkeyForm={shown.passkeyForm}
      passwordForm={shown.passwordForm}
    />,
    status,
  );
}

/**
 * After a passkey or SSH key is added. The account's first: from now on its password alone does
 * not sign in, so a way back is made — recovery codes, shown this once.
 */
export async function factorAdded(c: Context<AppEnv>, back: string, notice: string) {
  const db = directoryDb(c.env);
  const accountId = c.var.account.id;
  if (await hasRecoveryCodes(db, accountId)) return redirectWith(c, back, { notice });
  const recoveryCodes = await createRecoveryCodes(db, accountId);
  await recordSecurityEvent(db, accountId, "recovery_codes_created", originOf(c));
  return securityPage(c, { recoveryCodes });
}

export const accountSecurityRoutes = new Hono<AppEnv>()
  .get("/security", (c) => securityPage(c))
  .post("/ssh-keys", async (c) => {
    const db = directoryDb(c.env);
    const form = await c.req.parseBody();
    const accountId = c.var.account.id;
    try {
      const key = await addSshKey(db, accountId, {
        name: text(form, "name"),
        publicKey: text(form, "public_key"),
      });
      await recordSecurityEvent(db, accountId, "ssh_key_added", originOf(c), {
        fingerprint: key.fingerprint,
      });
      return factorAdded(c, "/account/security#ssh-keys", "SSH key added.");
    } catch (error) {
      const status = error instanceof ApiError && error.status === 409 ? 409 : 400;
      return securityPage(c, { keyForm: formState(form, error) }, status);
    }
  })
  .post("/ssh-keys/:key_id/remove", async (c) => {
    const db = directoryDb(c.env);
    const removed = await removeSshKey(db, c.var.account.id, c.req.param("key_id"));
    if (!removed)
      return redirectWith(c, "/account/security#ssh-keys", {
        error: "That key is already removed.",
      });
    await recordSecurityEvent(db, c.var.account.id, "ssh_key_removed", originOf(c), {
      fingerprint: removed.fingerprint,
    });
    return redirectWith(c, "/account/security#ssh-keys", { notice: "SSH key removed." });
  })
  .post("/password", async (c) => {
    const db = directoryDb(c.env);
    const form = await c.req.parseBody();
    const { account } = c.var;
    const address = browserAddress(c);
    const refused = (location: string, message: string, status: 400 | 401 | 429) =>
      securityPage(
        c,
        { passwordForm: formState(form, badRequest(location, message), PASSWORDS) },
        status,
      );
    // A wrong current password counts as a wrong sign-in would: per account and address.
    const wait = await signInBlocked(c.env, account.email, address);
    if (wait !== null) {
      c.header("Retry-After", String(wait));
      return refused("body", TOO_MANY_ATTEMPTS, 429);
    }
    try {
      const changed = await changePassword(
        db,
        account,
        text(form, "current_password"),
        text(form, "new_password"),
      );
      if (!changed) {
        await recordSignInFailure(c.env, account.email, address);
        return refused("body.current_password", "That is not this account's password", 401);
      }
    } catch (error) {
      return securityPage(c, { passwordForm: formState(form, error, PASSWORDS) }, 400);
    }
    const ended = await endOtherBrowsers(db, account.id, await currentSessionId(c));
    await recordSecurityEvent(db, account.id, "password_changed", originOf(c), { browsers: ended });
    return redirectWith(c, "/account/security#password", {
      notice: `Password changed. ${ended} other browser${ended === 1 ? "" : "s"} signed out.`,
    });
  })
  .post("/recovery-codes", async (c) => {
    const db = directoryDb(c.env);
    const recoveryCodes = await createRecoveryCodes(db, c.var.account.id);
    await recordSecurityEvent(db, c.var.account.id, "recovery_codes_created", originOf(c));
    return securityPage(c, { recoveryCodes });
  })
  .post("/browsers/end-others", async (c) => {
    const db = directoryDb(c.env);
    const ended = await endOtherBrowsers(db, c.var.account.id, await currentSessionId(c));
    await recordSecurityEvent(db, c.var.account.id, "other_browsers_ended", originOf(c), {
      browsers: ended,
    });
    return redirectWith(c, "/account/security", {
      notice: `${ended} other browser${ended === 1 ? "" : "s"} signed out.`,
    });
  })
  .post("/browsers/:session_id/end", async (c) => {
    const db = directoryDb(c.env);
    const ended = await endBrowser(db, c.var.account.id, c.req.param("session_id"));
    if (!ended)
      return redirectWith(c, "/account/security", { error: "That browser is already signed out." });
    await recordSecurityEvent(db, c.var.account.id, "browser_ended", originOf(c));
    return redirectWith(c, "/account/security", { notice: "That browser is signed out." });
  });
