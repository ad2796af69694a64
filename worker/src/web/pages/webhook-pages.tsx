import { EVENT_TYPES } from "../../db/webhooks.ts";
import type { Delivery, Webhook } from "../../schemas/webhooks.ts";
import { CopyButton, Csrf, PostButton, Status, Table } from "../components.tsx";
import { Layout, type PageContext } from "../layout.tsx";

interface WebhookFormProps {
  page: PageContext;
  project: { id: string; name: string };
  webhook?: Webhook;
  deliveries?: Delivery[];
  secret?: string;
}

export function headersText(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
}

export function WebhookPage(props: WebhookFormProps) {
  const { page, project, webhook } = props;
  const base = `/projects/${project.id}/webhooks`;
  return (
    <Layout title={webhook ? "Webhook" : "New webhook"} page={page}>
      <h1>{webhook ? "Webhook" : "New webhook"}</h1>
      {webhook ? (
        <p>
          <Status value={webhook.enabled ? "enabled" : "disabled"} /> <code>{webhook.id}</code>
        </p>
      ) : null}
      <form class="stack" method="post" action={webhook ? `${base}/${webhook.id}` : base}>
        <Csrf token={page.csrf} />
        <label>
          URL
          <input
            name="url"
            type="url"
            required
            value={webhook?.url ?? ""}
            placeholder="https://example.com/keyproof"
          />
        </label>
        <label>
          Method
          <select name="method">
            {["post", "put", "patch"].map((method) => (
              <option value={method} selected={(webhook?.method ?? "post") === method}>
                {method.toUpperCase()}
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>Events (none checked: all)</legend>
          {EVENT_TYPES.map((type) => (
            <label class="check">
              <input
                type="checkbox"
                name="events"
                value={type}
                checked={webhook?.events.includes(type)}
              />{" "}
              {type}
            </label>
          ))}
        </fieldset>
        <label>
          <span>
            Extra headers, one <code>Name: value</code> per line
          </span>
          <textarea name="headers">{webhook ? headersText(webhook.headers) : ""}</textarea>
        </label>
        <label>
          Retries (0–20)
          <input
            name="retries"
            type="number"
            min={0}
            max={20}
            value={String(webhook?.retries ?? 5)}
          />
        </label>
        <label>
          First retry after (seconds)
          <input
            name="initial_backoff"
            type="number"
            min={1}
            value={String(webhook?.initial_backoff ?? 10)}
          />
        </label>
        <label>
          Backoff multiplier
          <input
            name="backoff_multiplier"
            type="number"
            min={1}
            max={10}
            step="0.1"
            value={String(webhook?.backoff_multiplier ?? 2)}
          />
        </label>
        <label class="check">
          <input type="checkbox" name="enabled" checked={webhook?.enabled ?? true} /> Enabled
        </label>
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

export function DeliveriesTable(props: {
  deliveries: Delivery[];
  page: PageContext;
  retryBase?: string;
}) {
  if (props.deliveries.length === 0) return <p class="muted">No deliveries yet.</p>;
  return (
    <Table head={["Event", "Status", "Attempts", "Last answer", ""]} class="deliveries">
      {props.deliveries.map((delivery) => {
        const last = delivery.attempts.at(-1);
        return (
          <tr>
            <td>
              {delivery.event} <span class="muted mono">{delivery.id}</span>
            </td>
            <td>
              <Status value={delivery.status} />
            </td>
            <td>{delivery.attempts.length}</td>
            <td>{last ? (last.status_code ?? last.error ?? "") : ""}</td>
            <td>
              {props.retryBase ? (
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
