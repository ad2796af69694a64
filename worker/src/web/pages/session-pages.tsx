import { accountLabel, configuredForges } from "../../domain/forges.ts";
import type { SessionDetail } from "../../domain/session-views.ts";
import { proofLinks, sshCommand } from "../../domain/session-views.ts";
import type { Env } from "../../env.ts";
import type { CollectedKey } from "../../schemas/public-keys.ts";
import type { Delivery, EventView } from "../../schemas/webhooks.ts";
import {
  Check,
  ConfirmedPostButton,
  CopyButton,
  Csrf,
  Field,
  FormProblems,
  PostButton,
  Status,
  shortTime,
  Table,
} from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { type FormState, typedValue } from "../forms.ts";
import { Layout } from "../layout.tsx";
import { DeliveriesTable } from "./webhook-pages.tsx";

type Kind = "collect" | "verify";
const KIND_NAMES: Record<Kind, string> = { collect: "Collection", verify: "Verification" };
/** Every status a list can filter on, with the kinds of session that can have it. */
const STATUSES: [status: string, kinds: Kind[]][] = [
  ["pending", ["collect", "verify"]],
  ["completed", ["collect"]],
  ["verified", ["verify"]],
  ["failed", ["verify"]],
  ["expired", ["collect", "verify"]],
];

interface ListProps {
  page: PageContext;
  project: { id: string; name: string };
  /** `undefined`: both kinds, the list's default. */
  kind?: Kind | undefined;
  status?: string | undefined;
  sessions: {
    id: string;
    kind: Kind;
    status: string;
    externalId: string | null;
    createdAt: string;
  }[];
  offset: number;
  limit: number;
  total: number;
}

export function SessionListPage(props: ListProps) {
  const base = `/projects/${props.project.id}/sessions`;
  const filtered = props.kind !== undefined || props.status !== undefined;
  const query = (offset: number) => {
    const params = new URLSearchParams();
    if (props.kind) params.set("kind", props.kind);
    if (props.status) params.set("status", props.status);
    params.set("offset", String(offset));
    return `${base}?${params}`;
  };
  return (
    <Layout title="Sessions" page={props.page}>
      <div class="title-row">
        <h1>Sessions</h1>
        <div class="actions">
          <a class="button" href={`${base}/new?kind=collect`}>
            New collection session
          </a>
          <a class="button" href={`${base}/new?kind=verify`}>
            New verification session
          </a>
        </div>
      </div>
      <form class="filters" method="get" action={base} data-filters>
        <label>
          Kind
          <select name="kind">
            <option value="" selected={!props.kind}>
              All
            </option>
            {(["collect", "verify"] as const).map((kind) => (
              <option value={kind} selected={props.kind === kind}>
                {KIND_NAMES[kind]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status">
            <option value="">Any</option>
            {STATUSES.map(([status, kinds]) => (
              <option
                value={status}
                data-kinds={kinds.join(" ")}
                selected={props.status === status}
                hidden={props.kind !== undefined && !kinds.includes(props.kind)}
              >
                {status}
              </option>
            ))}
          </select>
        </label>
        <noscript>
          <button type="submit" class="secondary">
            Filter
          </button>
        </noscript>
      </form>
      {props.total === 0 ? (
        <div class="empty">
          {filtered ? (
            <p>
              No sessions match this filter. <a href={base}>Show every session</a>
            </p>
          ) : (
            <>
              <p>
                <strong>No sessions yet.</strong> A session is one person proving an SSH key: create
                one with a button above to try it, or from your backend with{" "}
                <code>POST /api/v1/ssh/collect/sessions/</code>.
              </p>
              <p>
                <a href="/docs">Read the API reference</a>
              </p>
            </>
          )}
        </div>
      ) : (
        <>
          <Table head={["Session", "Kind", "Status", "External id", "Created"]}>
            {props.sessions.map((session) => (
              <tr>
                <td data-label="Session" class="mono">
                  <a href={`${base}/${session.id}`}>{session.id}</a>
                </td>
                <td data-label="Kind">{KIND_NAMES[session.kind]}</td>
                <td data-label="Status">
                  <Status value={session.status} />
                </td>
                <td data-label="External id" class="breakable">
                  {session.externalId ?? ""}
                </td>
                <td data-label="Created">{shortTime(session.createdAt)}</td>
              </tr>
            ))}
          </Table>
          <p class="muted pager">
            {`${props.offset + 1}–${props.offset + props.sessions.length} of ${props.total}`}{" "}
            {props.offset > 0 ? (
              <a href={query(Math.max(0, props.offset - props.limit))}>Previous</a>
            ) : null}{" "}
            {props.offset + props.sessions.length < props.total ? (
              <a href={query(props.offset + props.limit)}>Next</a>
            ) : null}
          </p>
        </>
      )}
    </Layout>
  );
}

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

const date = (time: string | null, unbounded: string) => (time ? shortTime(time) : unbounded);

/** How a proven key was held: its security key's report, and the certificate it came in. */
function KeyProof(props: {
  securityKey: CollectedKey["security_key"];
  certificate: CollectedKey["certificate"];
}) {
  const { securityKey, certificate } = props;
  const held = securityKey && [
    securityKey.user_present ? "touched" : "not touched",
    securityKey.user_verified ? "PIN or biometric checked" : "no PIN or biometric",
    `counter ${securityKey.counter}`,
  ];
  const certifies =
    certificate &&
    `(serial ${certificate.serial}) for ${
      certificate.principals.length > 0 ? certificate.principals.join(", ") : "no principals"
    }, valid ${date(certificate.valid_after, "always")} to ${date(certificate.valid_before, "forever")}, CA `;
  return (
    <>
      {securityKey && held ? (
        <div class="key-proof">
          {`Security key (${securityKey.application}): ${held.join(", ")}`}
          {securityKey.counter_regressed ? (
            <strong class="warning"> · the counter went back: this key may have been cloned</strong>
          ) : null}
        </div>
      ) : null}
      {certificate ? (
        <div class="key-proof">
          Certificate <span class="mono">{certificate.key_id}</span> {certifies}
          <code>{certificate.ca_public_key_sha256}</code>{" "}
          <Status value={certificate.valid ? "valid" : "invalid"} />
        </div>
      ) : null}
    </>
  );
}

interface DetailProps {
  page: PageContext;
  env: Env;
  project: { id: string; name: string };
  detail: SessionDetail;
  events: EventView[];
  deliveries: Delivery[];
  /** A webhook made with the session from the form, whose secret is shown this once. */
  webhookSecret?: { url: string; secret: string } | undefined;
}

/**
 * A closed session's personal data erased for good (SPEC §19): the box must be ticked, so one
 * click cannot do it.
 */
function RedactForm(props: { base: string; csrf: string }) {
  return (
    <form class="stack" method="post" action={`${props.base}/redact`} id="redact-form">
      <Csrf token={props.csrf} />
      <h2>Redact personal data</h2>
      <p class="muted">
        Erases this session's public keys, fingerprints, key comments and names, certificates,
        client addresses and software, external id and return URL — here, in its events and in its
        webhook deliveries. Its outline stays: status, counts and times. This cannot be undone.
      </p>
      <label class="check">
        <input type="checkbox" name="confirm" value="redact" required /> I understand that this
        cannot be undone
      </label>
      <button type="submit" class="danger">
        Redact
      </button>
    </form>
  );
}

export function SessionPage(props: DetailProps) {
  const { session, connections, given } = props.detail;
  const base = `/projects/${props.project.id}/sessions/${session.id}`;
  const command = sshCommand(props.env, session.connectionIdentifier);
  const proofUrl = proofLinks(props.env, session).proof_url;
  const open = session.completedAt === null;
  return (
    <Layout title={session.id} page={props.page}>
      <h1>
        {session.livemode ? null : <span class="test-mark">Test </span>}
        {session.kind === "collect" ? "Collection" : "Verification"} session{" "}
        <span class="mono breakable">{session.id}</span>
      </h1>
      <p>
        Status: <Status value={session.status} />
        {session.externalId ? (
          <span class="muted breakable"> · external id {session.externalId}</span>
        ) : null}
        <span class="muted"> · expires {shortTime(session.expiredAt)}</span>
        {session.requireSecurityKey ? <span class="muted"> · only security keys</span> : null}
        {session.requireUserVerification ? (
          <span class="muted"> · security keys must check a PIN or biometric</span>
        ) : null}
      </p>
      {props.webhookSecret ? (
        <div class="secret">
          <p>
            The webhook for <span class="breakable">{props.webhookSecret.url}</span> signs with this
            secret. Copy it now: it is shown only once.
          </p>
          <p class="copy-row">
            <code id="webhook-secret">{props.webhookSecret.secret}</code>{" "}
            <CopyButton text={props.webhookSecret.secret} />
          </p>
        </div>
      ) : null}
      {open ? (
        <>
          <p>Give this command to the user:</p>
          <p class="copy-row">
            <code id="ssh-command">{command}</code> <CopyButton text={command} />
          </p>
          <p class="copy-row">
            <span>or send them to their proof page:</span>
            <a id="proof-url" class="breakable" href={proofUrl}>
              {proofUrl}
            </a>
            <CopyButton text={proofUrl} />
          </p>
        </>
      ) : (
        <p class="muted" id="session-closed">
          This session accepts no more connections, so there is no command to give out. Its{" "}
          <a id="proof-url" href={proofUrl}>
            proof page
          </a>{" "}
          shows the user the outcome.
        </p>
      )}
      <p class="actions">
        {open && session.multiConnection ? (
          <PostButton action={`${base}/complete`} csrf={props.page.csrf} label="Complete" />
        ) : null}
        <ConfirmedPostButton
          action={`${base}/delete`}
          csrf={props.page.csrf}
          label="Delete"
          confirm="delete"
          consequence="the session, its keys, connections, events and deliveries are erased, and its command stops working"
        />
      </p>
      {session.redactedAt ? (
        <p class="flash notice" id="redacted">
          Redacted {shortTime(session.redactedAt)}: its keys, addresses, client software and your
          references are erased; what is left is its outline.
        </p>
      ) : open ? null : (
        <RedactForm base={base} csrf={props.page.csrf} />
      )}
      {session.kind === "verify" ? (
        <>
          <h2>Keys to verify</h2>
          {given.keys.length === 0 ? (
            <p class="muted">None: a trusted certificate proves.</p>
          ) : null}
          <ul>
            {given.keys.map((key) => (
              <li>
                <code>{key.publicKeySha256}</code> {key.name ?? ""}{" "}
                {key.source ? (
                  <span class="muted">
                    from {accountLabel(configuredForges(props.env), key.source)}{" "}
                  </span>
                ) : null}
                {key.verifiedAt ? <Status value="verified" /> : <span class="muted">not yet</span>}
              </li>
            ))}
          </ul>
          {given.authorities.length > 0 ? (
            <>
              <h2>Trusted certificate authorities</h2>
              <ul>
                {given.authorities.map((authority) => (
                  <li>
                    <code>{authority.publicKeySha256}</code> {authority.name ?? ""}
                  </li>
                ))}
              </ul>
              <p class="muted">
                {session.principal
                  ? `Certificates must list the principal "${session.principal}". `
                  : "Any principal. "}
                {session.certificateVerifiedAt ? (
                  <Status value="verified" />
                ) : (
                  "No certificate proven yet."
                )}
              </p>
            </>
          ) : null}
          <p class="muted">
            Failed attempts: {session.failedAttempts} of {session.maxAttempts}
          </p>
        </>
      ) : null}
      <h2>Connections</h2>
      {connections.length === 0 ? <p class="muted">Nobody has connected yet.</p> : null}
      {connections.map((connection) => (
        <section class="connection">
          <p>
            <Status value={connection.outcome} />{" "}
            <span class="muted">{shortTime(connection.created_at)}</span> ·{" "}
            {connection.method === "signature" ? "signature · " : null}
            {connection.ip_address} · <span class="mono">{connection.client_version}</span>
            {connection.confirmed === null ? null : (
              <span> · confirmed: {connection.confirmed ? "yes" : "no"}</span>
            )}
          </p>
          <ul>
            {connection.keys.map((key) => (
              <li>
                <code class="fingerprint">{key.public_key_sha256}</code>{" "}
                <span class="muted">
                  {key.public_key_algorithm} {key.public_key_bits}
                </span>
                <KeyProof securityKey={key.security_key} certificate={key.certificate} />
              </li>
            ))}
          </ul>
        </section>
      ))}
      <h2>Events</h2>
      {props.events.length === 0 ? (
        <p class="muted">No events yet: they appear when someone connects.</p>
      ) : (
        <Table head={["Time", "Event", "Id"]}>
          {props.events.map((event) => (
            <tr>
              <td data-label="Time">{shortTime(event.created_at)}</td>
              <td data-label="Event">{event.type}</td>
              <td data-label="Id" class="mono">
                {event.id}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <h2>Webhook deliveries</h2>
      <DeliveriesTable deliveries={props.deliveries} page={props.page} />
    </Layout>
  );
}
