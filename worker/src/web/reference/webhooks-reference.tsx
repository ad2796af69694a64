import { Table } from "../components.tsx";
import { Prose } from "./prose.tsx";

const EVENTS: [string, string, string][] = [
  [
    "new_connection",
    "An SSH connection to the session starts, or a signature proof arrives",
    "`{kind}_connection_id`, `method` (`ssh` or `signature`), `ip_address`, `client_version`",
  ],
  [
    "key_collected",
    "A collection connection ends having proven a key not collected before (one event per key)",
    "`{kind}_connection_id`, `method`, `key` (the key record, with `security_key` and `certificate`)",
  ],
  [
    "verified",
    "A verification session becomes `verified`",
    "`{kind}_connection_id`, `method`, `keys` (the keys that connection proved)",
  ],
  [
    "failed_attempt",
    "A verification connection proves no configured key, or the user declines",
    "`{kind}_connection_id`, `method`, `outcome`, `failed_attempts`, `max_attempts`",
  ],
  [
    "connection_interrupted",
    "The SSH bridge restarted while a connection waited for the user (at the `must_confirm` prompt): nothing was kept, no attempt counted",
    "`{kind}_connection_id`, `method`, `reason` (`restarting`)",
  ],
  [
    "status_changed",
    "The session's status changes (a connection, complete, expiry)",
    "`status`, `previous_status`",
  ],
  [
    "redacted",
    "The session's personal data was erased (`POST .../redact/`); its `external_id` is null here",
    "`redacted_at`",
  ],
  ["ping", "`POST /api/v1/webhooks/{webhook_id}/test/`", "`webhook_id`, `message`"],
];

const ENVELOPE: [string, string][] = [
  ["entity", "`collect_session`, `verify_session`, or `webhook` for a ping"],
  ["id", "The session id (the webhook id for a ping)"],
  ["event", "The event type"],
  ["event_id", "`evt_...`, the same as in the event log"],
  ["webhook_id", "The webhook delivered to"],
  ["webhook_invocation_id", "`whi_...`: the `webhook-id` header, the same on every attempt"],
  ["trigger_time", "When the change happened"],
  ["request_time", "When this attempt was sent"],
  ["attempt", "1 for the first attempt"],
  [
    "payload",
    "`{kind}_session_id`, `{kind}_session_external_id`, `{kind}_session_connection_identifier`, and the event's own fields",
  ],
];

const VERIFY_SNIPPET = `import { Webhook } from "standardwebhooks";

const wh = new Webhook(process.env.KEYPROOF_WEBHOOK_SECRET); // "whsec_..."
// In your handler, with the raw body (before any JSON parsing):
const delivery = wh.verify(rawBody, request.headers); // throws on a bad signature or an old timestamp
// Deduplicate on request.headers["webhook-id"]: retries carry the same one.`;

/** The webhook half of the reference: what is sent, when, and how to check it came from keyproof. */
export function WebhooksReference() {
  return (
    <>
      <h2 id="webhook-events">Webhook events</h2>
      <p>
        Project webhooks hear every session of the project; session webhooks only theirs. Each event
        is written with the change that caused it, so none is lost; <code>events</code> on a webhook
        filters them (empty: all).
      </p>
      <Table head={["Event", "When", "Payload beyond the session fields"]}>
        {EVENTS.map(([name, when, payload]) => (
          <tr>
            <td>
              <code>{name}</code>
            </td>
            <td>
              <Prose text={when} />
            </td>
            <td>
              <Prose text={payload} />
            </td>
          </tr>
        ))}
      </Table>
      <h2 id="webhook-deliveries">Deliveries and verification</h2>
      <p>
        Each delivery is a JSON request with the webhook's method and headers, signed per{" "}
        <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>: <code>webhook-id</code>{" "}
        (the same on every retry), <code>webhook-timestamp</code> and <code>webhook-signature</code>{" "}
        (<code>v1,</code> + base64 HMAC-SHA256 of <code>id.timestamp.body</code> keyed with the
        secret). Any 2xx within 15 s is success; 410 disables the webhook; anything else is retried
        after <code>initial_backoff × backoff_multiplier^(n-1)</code> seconds, or a longer{" "}
        <code>Retry-After</code>. A delivery waiting for a retry survives restarts and lost queue
        messages. Delivery is at least once: deduplicate on <code>webhook-id</code>.
      </p>
      <Table head={["Envelope field", "Description"]} class="fields">
        {ENVELOPE.map(([name, description]) => (
          <tr>
            <td>
              <code>{name}</code>
            </td>
            <td>
              <Prose text={description} />
            </td>
          </tr>
        ))}
      </Table>
      <p>Verify each request with the secret before trusting it:</p>
      <pre tabindex={0}>
        <code>{VERIFY_SNIPPET}</code>
      </pre>
    </>
  );
}
