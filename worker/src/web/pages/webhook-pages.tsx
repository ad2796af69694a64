import { EVENT_TYPES } from "../../db/webhooks.ts";
import type { Delivery, Webhook } from "../../schemas/webhooks.ts";
import {
  Check,
  CopyButton,
  Csrf,
  Field,
  FieldError,
  FormProblems,
  PostButton,
  Status,
  shortTime,
  Table,
} from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { type FormState, typedValue } from "../forms.ts";
import { Layout } from "../layout.tsx";

interface WebhookFormProps {
  page: PageContext;
  project: { id: string; name: string };
  webhook?: Webhook;
  deliveries?: Delivery[];
  secret?: string;
  /** The form as the user sent it, when it came back with problems. */
  form?: FormState | undefined;
}

export function headersText(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
}

export function WebhookPage(props: WebhookFormProps) {
  const { page, project, webhook, form } = props;
  const base = `/projects/${project.id}/webhooks`;
  const value = (name: string, fallback: string) => typedValue(form, name, fallback);
  const events = form ? [form.values.events ?? []].flat() : (webhook?.events ?? []);
  return (
    <Layout title={webhook ? `Webhook ${new URL(webhook.url).host}` : "New webhook"} page={page}>
      <h1 class="breakable">{webhook ? webhook.url : "New webhook"}</h1>
      {webhook ? (
        <p>
          <Status value={webhook.enabled ? "enabled" : "disabled"} /> <code>{webhook.id}</code>
        </p>
      ) : null}
      <FormProblems form={form} />
      <form class="stack" method="post" action={webhook ? `${base}/${webhook.id}` : base}>
        <Csrf token={page.csrf} />
        <Field name="url" form={form} label="URL">
          <input
            name="url"
            type="url"
            required
            value={value("url", webhook?.url ?? "")}
            placeholder="https://example.com/keyproof"
          />
        </Field>
        <Field name="method" form={form} label="Method">
          <select name="method">
            {["post", "put", "patch"].map((method) => (
              <option
                value={method}
                selected={value("method", webhook?.method ?? "post") === method}
              >
                {method.toUpperCase()}
              </option>
            ))}
          </select>
        </Field>
        <fieldset>
          <legend>Events (none checked: all)</legend>
          {EVENT_TYPES.map((type) => (
            <label class="check">
              <input type="checkbox" name="events" value={type} checked={events.includes(type)} />{" "}
              {type}
            </label>
          ))}
          <FieldError form={form} name="events" />
        </fieldset>
        <Field
          name="headers"
          form={form}
          label={
            <>
              Extra headers, one <code>Name: value</code> per line
            </>
          }
        >
          <textarea name="headers">
            {value("headers", webhook ? headersText(webhook.headers) : "")}
          </textarea>
        </Field>
        <Field name="retries" form={form} label="Retries (0 to 20)">
          <input
            name="retries"
            type="number"
            min={0}
            max={20}
            value={value("retries", String(webhook?.retries ?? 5))}
          />
        </Field>
        <Field name="initial_backoff" form={form} label="First retry after (seconds)">
          <input
            name="initial_backoff"
            type="number"
            min={1}
            value={value("initial_backoff", String(webhook?.initial_backoff ?? 10))}
          />
        </Field>
        <Field name="backoff_multiplier" form={form} label="Backoff multiplier (1 to 10)">
          <input
            name="backoff_multiplier"
            type="number"
            min={1}
            max={10}
            step="0.1"
            value={value("backoff_multiplier", String(webhook?.backoff_multiplier ?? 2))}
          />
        </Field>
        <Check name="enabled" form={form} checked={webhook?.enabled ?? true}>
          Enabled
        </Check>
        <button type="submit">{webhook ? "Save" : "Create webhook"}</button>
      </form>
      {webhook ? (
        <>
          <h2>Signing secret</h2>
          {props.secret ? (
            <p class="copy-row secret">
              <code id="webhook-secret">{props.secret}</code> <CopyButton text={props.secret} />
            </p>
          ) : (
            <PostButton
              action={`${base}/${webhook.id}/secret`}
              csrf={page.csrf}
              label="Reveal secret"
              kind="secondary"
            />
          )}
          <h2>Deliveries</h2>
          <p>
            <PostButton
              action={`${base}/${webhook.id}/test`}
              csrf={page.csrf}
              label="Send test event"
            />
          </p>
          <DeliveriesTable
            deliveries={props.deliveries ?? []}
            page={page}
            retryBase={`${base}/${webhook.id}/deliveries`}
          />
          <h2>Delete</h2>
          <PostButton
            action={`${base}/${webhook.id}/delete`}
            csrf={page.csrf}
            label="Delete webhook"
            kind="danger"
          />
        </>
      ) : null}
    </Layout>
  );
}

/** Statuses a delivery can be sent again from: it stopped. Pending ones are still being tried. */
const RETRYABLE = new Set(["failed", "cancelled"]);

/**
 * A delivery's id (the `webhook-id` header) is 56 characters: a table shows its start and end,
 * which tell deliveries apart, and the whole id on hover.
 */
const shortDeliveryId = (id: string) =>
  id.length > 24 ? `${id.slice(0, 14)}…${id.slice(-6)}` : id;

export function DeliveriesTable(props: {
  deliveries: Delivery[];
  page: PageContext;
  retryBase?: string;
}) {
  if (props.deliveries.length === 0) return <p class="muted">No deliveries yet.</p>;
  return (
    <Table head={["Time", "Event", "Status", "Attempts", "Response", ""]} class="deliveries">
      {props.deliveries.map((delivery) => {
        const last = delivery.attempts.at(-1);
        const response = last
          ? last.status_code !== null
            ? `HTTP ${last.status_code}`
            : (last.error ?? "")
          : delivery.next_attempt_at
            ? `first attempt ${shortTime(delivery.next_attempt_at)}`
            : "";
        return (
          <tr>
            <td data-label="Time">{shortTime(delivery.created_at)}</td>
            <td data-label="Event">
              {delivery.event}{" "}
              <span class="muted mono delivery-id" title={delivery.id}>
                {shortDeliveryId(delivery.id)}
              </span>
            </td>
            <td data-label="Status">
              <Status value={delivery.status} />
            </td>
            <td data-label="Attempts">{delivery.attempts.length}</td>
            <td data-label="Response" class="breakable">
              {delivery.failure_reason ?? response}
            </td>
            <td>
              {props.retryBase && RETRYABLE.has(delivery.status) ? (
                <PostButton
                  action={`${props.retryBase}/${delivery.id}/retry`}
                  csrf={props.page.csrf}
                  label="Retry"
                  kind="secondary"
                />
              ) : null}
            </td>
          </tr>
        );
      })}
    </Table>
  );
}
