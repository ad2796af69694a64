import type { accountPasskeys } from "../../db/directory.ts";
import { MIN_PASSWORD_LENGTH } from "../../domain/accounts.ts";
import { Csrf, DangerButton, Field, FormProblems, shortTime, Table } from "../components.tsx";
import { type FormState, typedValue } from "../forms.ts";

type PasskeyRow = typeof accountPasskeys.$inferSelect;

/** The scripts of a page with a passkey form: the app's own and /passkey.js. */
export const PASSKEY_PAGE_SCRIPTS = ["/app.js", "/passkey.js"];

/** A button that signs in with a passkey (shown by /passkey.js where the browser has WebAuthn). */
export function PasskeySignInForm(props: {
  csrf: string;
  next?: string | undefined;
  label: string;
}) {
  return (
    <form
      class="stack"
      method="post"
      action="/signin/passkey"
      data-passkey="get"
      data-options="/signin/passkey/options"
      hidden
    >
      <Csrf token={props.csrf} />
      {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
      <input type="hidden" name="response" />
      <button type="submit">{props.label}</button>
      <p class="muted" role="status" data-passkey-status />
    </form>
  );
}

/** The security page's passkeys: each with when it was added and last used, and a new one. */
export function PasskeySection(props: {
  csrf: string;
  passkeys: PasskeyRow[];
  form?: FormState | undefined;
}) {
  return (
    <>
      <h2 id="passkeys">Passkeys</h2>
      <p class="muted">
        A passkey signs you in alone, with no email or password typed: your device or security key
        holds it, for this site only. With a passkey or SSH key registered, your password alone no
        longer signs in: after it, the sign-in asks for one of them, or a recovery code.
      </p>
      {props.passkeys.length === 0 ? (
        <p class="muted">No passkey yet.</p>
      ) : (
        <Table head={["Name", "Added", "Last used", ""]}>
          {props.passkeys.map((passkey) => (
            <tr>
              <td data-label="Name" class="breakable">
                {passkey.name}
                {passkey.backedUp ? <span class="muted"> (synced)</span> : null}
              </td>
              <td data-label="Added">{shortTime(passkey.createdAt)}</td>
              <td data-label="Last used">
                {passkey.lastUsedAt ? shortTime(passkey.lastUsedAt) : "never"}
              </td>
              <td>
                <DangerButton
                  action={`/account/passkeys/${passkey.id}/remove`}
                  csrf={props.csrf}
                  label="Remove"
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <FormProblems form={props.form} />
      <form
        class="stack"
        method="post"
        action="/account/passkeys"
        data-passkey="create"
        data-options="/account/passkeys/options"
        hidden
      >
        <Csrf token={props.csrf} />
        <Field name="name" form={props.form} label="Name (which device or key it is)">
          <input name="name" required maxlength={100} value={typedValue(props.form, "name")} />
        </Field>
        <input type="hidden" name="response" />
        <button type="submit">Add a passkey</button>
        <p class="muted" role="status" data-passkey-status />
      </form>
      <noscript>
        <p class="muted">Adding or using a passkey needs JavaScript.</p>
      </noscript>
    </>
  );
}

/** The security page's password change: the current one, then the new one. */
export function PasswordSection(props: { csrf: string; form?: FormState | undefined }) {
  return (
    <>
      <h2 id="password">Password</h2>
      <p class="muted">Changing it signs out every other browser signed in to this account.</p>
      <FormProblems form={props.form} />
      <form class="stack" method="post" action="/account/password">
        <Csrf token={props.csrf} />
        <Field name="current_password" form={props.form} label="Current password">
          <input name="current_password" type="password" autocomplete="current-password" required />
        </Field>
        <Field name="new_password" form={props.form} label="New password">
          <input
            name="new_password"
            type="password"
            autocomplete="new-password"
            minlength={MIN_PASSWORD_LENGTH}
            required
          />
        </Field>
        <button type="submit">Change password</button>
      </form>
    </>
  );
}
