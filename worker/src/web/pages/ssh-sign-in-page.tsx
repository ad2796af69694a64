import { CopyButton, Csrf } from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { Layout } from "../layout.tsx";

/**
 * Sign in by proving an SSH key: the command that signs this browser's code, and the box its
 * output is pasted into. After a password, the same step with a recovery code as the way out.
 */
export function SshSignInPage(props: {
  page: PageContext;
  command: string;
  /** The step after a password: only this account's keys count, or one of its recovery codes. */
  afterPassword: boolean;
  minutes: number;
}) {
  return (
    <Layout title="Sign in with an SSH key" page={props.page}>
      <h1>{props.afterPassword ? "Prove your SSH key" : "Sign in with an SSH key"}</h1>
      <p>
        {props.afterPassword
          ? "Your account signs in with a registered SSH key as well as its password. "
          : "Sign in with an SSH key registered to your account. "}
        Run this in a terminal on the machine that holds the key (use your key's path), then paste
        what it prints below. The code works once, in this browser only, for {props.minutes}{" "}
        minutes.
      </p>
      <pre class="command">
        <code>{props.command}</code>
      </pre>
      <CopyButton text={props.command} label="Copy the command" />
      <form class="stack" method="post" action="/signin/ssh">
        <Csrf token={props.page.csrf} />
        <label>
          The signature (from <code>-----BEGIN SSH SIGNATURE-----</code> to its END line)
          <textarea name="signature" rows={8} maxlength={16384} />
        </label>
        {props.afterPassword ? (
          <label>
            Or one of your recovery codes
            <input name="recovery_code" autocomplete="one-time-code" maxlength={64} />
          </label>
        ) : null}
        <button type="submit">Sign in</button>
      </form>
      <p class="muted">
        Sign only a command this page shows you, in your own browser: a signature signs in the
        browser that asked for its code.
      </p>
    </Layout>
  );
}
