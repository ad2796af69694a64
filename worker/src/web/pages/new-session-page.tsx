import type { SessionKind as Kind } from "../../protocol/messages.ts";
import { Check, Csrf, Field, FormProblems } from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { type FormState, typedValue } from "../forms.ts";
import { Layout } from "../layout.tsx";

/** The form that creates a session of either kind, as the API's create does. */
export function NewSessionPage(props: {
  page: PageContext;
  project: { id: string; name: string };
  kind: Kind;
  /** The form as the user sent it, when it came back with problems. */
  form?: FormState | undefined;
}) {
  const { form } = props;
  const verify = props.kind === "verify";
  const value = (name: string, fallback = "") => typedValue(form, name, fallback);
  return (
    <Layout title="New session" page={props.page}>
      <h1>New {verify ? "verification" : "collection"} session</h1>
      <FormProblems form={form} />
      <form class="stack" method="post" action={`/projects/${props.project.id}/sessions`}>
        <Csrf token={props.page.csrf} />
        <input type="hidden" name="kind" value={props.kind} />
        {verify ? (
          <>
            <Field
              name="keys"
              form={form}
              label="Public keys to verify (one OpenSSH line each, or RFC 4716 / PEM blocks)"
            >
              <textarea name="keys" placeholder="ssh-ed25519 AAAA... laptop">
                {value("keys")}
              </textarea>
            </Field>
            <Field
              name="keys_from"
              form={form}
              label="Or the keys an account lists on a code forge (up to 5, separated by spaces)"
            >
              <input
                name="keys_from"
                placeholder="github:alice gitlab:bob"
                maxlength={1000}
                value={value("keys_from")}
              />
            </Field>
            <Field
              name="certificate_authorities"
              form={form}
              label="Certificate authorities to trust (optional; their user certificates prove a key)"
            >
              <textarea name="certificate_authorities" placeholder="ssh-ed25519 AAAA... company CA">
                {value("certificate_authorities")}
              </textarea>
            </Field>
            <Field
              name="principal"
              form={form}
              label="Principal their certificates must list (optional)"
            >
              <input name="principal" maxlength={255} value={value("principal")} />
            </Field>
          </>
        ) : null}
        <Field name="external_id" form={form} label="External id (optional)">
          <input name="external_id" maxlength={255} value={value("external_id")} />
        </Field>
        <Check name="multi_key" form={form}>
          Accept more than one key
        </Check>
        <Check name="multi_connection" form={form}>
          Accept more than one connection
        </Check>
        <Check name="must_confirm" form={form}>
          The user must confirm with <kbd>y</kbd>
        </Check>
        <Check name="require_security_key" form={form}>
          Only FIDO security keys count
        </Check>
        <Check name="require_user_verification" form={form}>
          Security keys must check a PIN or biometric
        </Check>
        {verify ? (
          <>
            <Check name="match_all_keys" form={form}>
              Every key must be proven
            </Check>
            <Field name="max_attempts" form={form} label="Attempts allowed (1 to 1000)">
              <input
                name="max_attempts"
                type="number"
                min={1}
                max={1000}
                value={value("max_attempts", "1")}
              />
            </Field>
          </>
        ) : null}
        <Field name="ssh_banner" form={form} label="Banner shown before authentication (optional)">
          <textarea name="ssh_banner" maxlength={2048}>
            {value("ssh_banner")}
          </textarea>
        </Field>
        <Field name="ssh_message" form={form} label="Message shown after the result (optional)">
          <textarea name="ssh_message" maxlength={2048}>
            {value("ssh_message")}
          </textarea>
        </Field>
        <Field name="timeout" form={form} label="Lifetime in seconds (60 to 2592000; default 3600)">
          <input name="timeout" type="number" min={60} max={2592000} value={value("timeout")} />
        </Field>
        <Field
          name="return_url"
          form={form}
          label="Return URL (optional): where the proof page sends the user when done, with the result"
        >
          <input
            name="return_url"
            type="url"
            maxlength={2048}
            placeholder="https://app.example.com/keyproof/done"
            value={value("return_url")}
          />
        </Field>
        <Field
          name="webhooks"
          form={form}
          label="Webhook URL for this session alone (optional; every event, signed)"
        >
          <input
            name="webhook_url"
            type="url"
            maxlength={2048}
            placeholder="https://app.example.com/keyproof/events"
            value={value("webhook_url")}
          />
        </Field>
        <button type="submit">Create session</button>
      </form>
    </Layout>
  );
}
