import { CopyButton, Csrf } from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { Layout } from "../layout.tsx";
import { PASSKEY_PAGE_SCRIPTS, PasskeySignInForm } from "./sign-in-parts.tsx";

/**
 * Sign in by proving an SSH key: the command that signs this browser's code, and the box its
 * output is pasted into. After a password, the step that asks for the account's passkey or SSH
 * key, with a recovery code as the way out.
 */
export function SshSignInPage(props: {
  page: PageContext;
  command: string;
  /** The step after a password: only this account's passkeys and keys count, or a recovery code. */
  afterPassword: boolean;
  /** What the account can prove (after a password); SSH alone otherwise. */
  ways: { passkey: boolean; sshKey: boolean };
  minutes: number;
}) {
  const { afterPassword, ways } = props;
  return (
    <Layout
      title={afterPassword ? "Second step" : "Sign in with an SSH key"}
      page={props.page}
      scripts={ways.passkey ? PASSKEY_PAGE_SCRIPTS : undefined}
    >
      <h1>{afterPassword ? "Prove it is you" : "Sign in with an SSH key"}</h1>
      {afterPassword ? (
        <p>
          Your account signs in with {ways.passkey ? "a passkey" : ""}
          {ways.passkey && ways.sshKey ? " or " : ""}
          {ways.sshKey ? "a registered SSH key" : ""} as well as its password.
        </p>
      ) : null}
      {ways.passkey ? <PasskeySignInForm csrf={props.page.csrf} label="Use your passkey" /> : null}
      {ways.sshKey ? (
        <>
          <p>
            {afterPassword ? "" : "Sign in with an SSH key registered to your account. "}
            Run this in a terminal on the machine that holds the key (use your key's path), then
            paste what it prints below. The code works once, in this browser only, for{" "}
            {props.minutes} minutes.
          </p>
          <pre class="command">
            <code>{props.command}</code>
          </pre>
          <CopyButton text={props.command} label="Copy the command" />
        </>
      ) : null}
      <form class="stack" method="post" action="/signin/ssh">
        <Csrf token={props.page.csrf} />
        {ways.sshKey ? (
          <label>
            The signature (from <code>-----BEGIN SSH SIGNATURE-----</code> to its END line)
            <textarea name="signature" rows={8} maxlength={16384} />
          </label>
        ) : null}
        {afterPassword ? (
          <label>
            Or one of your recovery codes
            <input name="recovery_code" autocomplete="one-time-code" maxlength={64} />
          </label>
        ) : null}
        <button type="submit">Sign in</button>
      </form>
      {ways.sshKey ? (
        <p class="muted">
          Sign only a command this page shows you, in your own browser: a signature signs in the
          browser that asked for its code.
        </p>
      ) : null}
    </Layout>
  );
}
