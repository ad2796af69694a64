import type {
  accountPasskeys,
  accountSshKeys,
  securityLog,
  webSessions,
} from "../../db/directory.ts";
import { SECURITY_LOG_KEPT_DAYS, SECURITY_LOG_SHOWN } from "../../domain/security-log.ts";
import {
  CopyButton,
  Csrf,
  DangerButton,
  Field,
  FormProblems,
  shortTime,
  Table,
} from "../components.tsx";
import { type FormState, type PageContext, typedValue } from "../forms.ts";
import { Layout } from "../layout.tsx";
import { PASSKEY_PAGE_SCRIPTS, PasskeySection, PasswordSection } from "./sign-in-parts.tsx";

type SecurityRow = typeof securityLog.$inferSelect;
type BrowserRow = typeof webSessions.$inferSelect;
type SshKeyRow = typeof accountSshKeys.$inferSelect;

const EVENT_WORDS: Record<SecurityRow["event"], string> = {
  account_created: "Account created",
  signed_in: "Signed in",
  sign_in_failed: "Sign-in failed: wrong password",
  sign_in_blocked: "Sign-in refused: too many wrong passwords",
  signed_out: "Signed out",
  browser_ended: "A browser signed out from here",
  other_browsers_ended: "Every other browser signed out from here",
  ssh_key_added: "SSH key added",
  ssh_key_removed: "SSH key removed",
  passkey_added: "Passkey added",
  passkey_removed: "Passkey removed",
  password_changed: "Password changed",
  recovery_codes_created: "Recovery codes made",
  recovery_code_used: "Signed in with a recovery code",
};

/** A failed sign-in says which way failed: the password's, or a second factor's. */
const FAILED_WAYS: Record<string, string> = {
  passkey: "Sign-in failed: a passkey's answer was refused",
  ssh_key: "Sign-in failed: an SSH key's signature was refused",
  recovery_code: "Sign-in failed: a wrong recovery code",
};

const eventWords = (entry: SecurityRow) =>
  (entry.event === "sign_in_failed" && FAILED_WAYS[String(entry.details.way ?? "")]) ||
  EVENT_WORDS[entry.event];

const WAYS: Record<string, string> = {
  password: "password",
  sign_up: "signing up",
  ssh_key: "SSH key",
  passkey: "passkey",
  "password+passkey": "password and passkey",
  "password+ssh_key": "password and SSH key",
  "password+recovery_code": "password and recovery code",
};

/** The account's own security page: its signed-in browsers and its security log. */
export function SecurityPage(props: {
  page: PageContext;
  browsers: BrowserRow[];
  currentId: string;
  log: SecurityRow[];
  keys: SshKeyRow[];
  passkeys: (typeof accountPasskeys.$inferSelect)[];
  /** Recovery codes just made: shown this once. */
  recoveryCodes?: string[] | undefined;
  keyForm?: FormState | undefined;
  passkeyForm?: FormState | undefined;
  passwordForm?: FormState | undefined;
}) {
  const { page } = props;
  const others = props.browsers.filter((browser) => browser.id !== props.currentId).length;
  return (
    <Layout title="Account security" page={page} scripts={PASSKEY_PAGE_SCRIPTS}>
      <h1>Account security</h1>
      {props.recoveryCodes ? (
        <div class="notice" id="recovery-codes">
          <p>
            <strong>Your recovery codes, shown this once.</strong> Each signs in once after your
            password, if you no longer have your passkeys or keys. Keep them somewhere safe.
          </p>
          <pre>
            <code>{props.recoveryCodes.join("\n")}</code>
          </pre>
          <CopyButton text={props.recoveryCodes.join("\n")} label="Copy the codes" />
        </div>
      ) : null}
      <PasskeySection csrf={page.csrf} passkeys={props.passkeys} form={props.passkeyForm} />
      <h2 id="ssh-keys">SSH keys</h2>
      <p class="muted">
        Sign in by proving one of these keys (<a href="/signin/ssh">Sign in with an SSH key</a>).
        With a key registered, your password alone no longer signs in, as with a passkey.
      </p>
      {props.keys.length === 0 ? (
        <p class="muted">No SSH key yet.</p>
      ) : (
        <Table head={["Name", "Fingerprint", "Added", "Last used", ""]}>
          {props.keys.map((key) => (
            <tr>
              <td data-label="Name" class="breakable">
                {key.name}
              </td>
              <td data-label="Fingerprint" class="breakable">
                <code>{key.fingerprint}</code>
              </td>
              <td data-label="Added">{shortTime(key.createdAt)}</td>
              <td data-label="Last used">{key.lastUsedAt ? shortTime(key.lastUsedAt) : "never"}</td>
              <td>
                <DangerButton
                  action={`/account/ssh-keys/${key.id}/remove`}
                  csrf={page.csrf}
                  label="Remove"
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <FormProblems form={props.keyForm} />
      <form class="stack" method="post" action="/account/ssh-keys">
        <Csrf token={page.csrf} />
        <Field name="name" form={props.keyForm} label="Name">
          <input name="name" required maxlength={100} value={typedValue(props.keyForm, "name")} />
        </Field>
        <Field name="public_key" form={props.keyForm} label="Public key (the .pub file's line)">
          <textarea name="public_key" rows={3} required maxlength={16384}>
            {typedValue(props.keyForm, "public_key")}
          </textarea>
        </Field>
        <button type="submit">Add SSH key</button>
      </form>
      {props.keys.length + props.passkeys.length > 0 ? (
        <form method="post" action="/account/recovery-codes">
          <Csrf token={page.csrf} />
          <button type="submit">Make new recovery codes</button>
        </form>
      ) : null}
      <PasswordSection csrf={page.csrf} form={props.passwordForm} />
      <h2 id="browsers">Signed-in browsers</h2>
      <Table head={["Since", "From", "Signed in with", ""]}>
        {props.browsers.map((browser) => (
          <tr>
            <td data-label="Since">{shortTime(browser.createdAt)}</td>
            <td data-label="From" class="breakable">
              {browser.ipAddress ?? "—"} <span class="muted">{browser.userAgent ?? ""}</span>
            </td>
            <td data-label="Signed in with">
              {browser.signedInWith ? (WAYS[browser.signedInWith] ?? browser.signedInWith) : "—"}
            </td>
            <td>
              {browser.id === props.currentId ? (
                <strong>This browser</strong>
              ) : (
                <DangerButton
                  action={`/account/browsers/${browser.id}/end`}
                  csrf={page.csrf}
                  label="Sign out"
                />
              )}
            </td>
          </tr>
        ))}
      </Table>
      {others > 0 ? (
        <DangerButton
          action="/account/browsers/end-others"
          csrf={page.csrf}
          label={`Sign out every other browser (${others})`}
        />
      ) : null}
      <h2 id="log">Security log</h2>
      <p class="muted">
        The newest {SECURITY_LOG_SHOWN} of your sign-ins, failed and refused sign-ins and browsers
        signed out, kept {SECURITY_LOG_KEPT_DAYS} days.
      </p>
      <Table head={["When", "What", "From"]}>
        {props.log.map((entry) => (
          <tr>
            <td data-label="When">{shortTime(entry.createdAt)}</td>
            <td data-label="What">{eventWords(entry)}</td>
            <td data-label="From" class="breakable">
              {entry.ipAddress} <span class="muted">{entry.userAgent}</span>
            </td>
          </tr>
        ))}
      </Table>
    </Layout>
  );
}
