import { accountLabel, configuredForges } from "../../domain/forges.ts";
import type { SessionDetail } from "../../domain/session-views.ts";
import { proofLinks, sshCommand } from "../../domain/session-views.ts";
import type { Env } from "../../env.ts";
import type { CollectedKey } from "../../schemas/public-keys.ts";
import type { Delivery, EventView } from "../../schemas/webhooks.ts";
import {
  Check,
  CopyButton,
  Csrf,
  Field,
  FormProblems,
  PostButton,
  Status,
  Table,
} from "../components.tsx";
import { type FormState, typedValue } from "../forms.ts";
import { Layout, type PageContext } from "../layout.tsx";
import { DeliveriesTable } from "./webhook-pages.tsx";

type Kind = "collect" | "verify";
const STATUSES: Record<Kind, string[]> = {
  collect: ["pending", "completed", "expired"],
  verify: ["pending", "verified", "failed", "expired"],
};

interface ListProps {
  page: PageContext;
  project: { id: string; name: string };
  kind: Kind;
  status?: string | undefined;
  sessions: {
    id: string;
    status: string;
    externalId: string | null;
    createdAt: string;
    expiredAt: string;
  }[];
  offset: number;
  limit: number;
  total: number;
}

export function SessionListPage(props: ListProps) {
  const base = `/projects/${props.project.id}/sessions`;
  const query = (offset: number) =>
    `${base}?kind=${props.kind}${props.status ? `&status=${props.status}` : ""}&offset=${offset}`;
  return (
    <Layout title="Sessions" page={props.page}>
      <h1>{props.project.name}: sessions</h1>
      <form class="filters" method="get" action={base}>
        <label>
          Kind
          <select name="kind">
            <option value="collect" selected={props.kind === "collect"}>
              Collection
            </option>
            <option value="verify" selected={props.kind === "verify"}>
              Verification
            </option>
          </select>
        </label>
        <label>
          Status
          <select name="status">
            <option value="">any</option>
            {STATUSES[props.kind].map((status) => (
              <option value={status} selected={props.status === status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="secondary">
          Filter
        </button>
        <a class="button" href={`${base}/new?kind=${props.kind}`}>
          New {props.kind === "collect" ? "collection" : "verification"} session
        </a>
      </form>
      <Table head={["Session", "Status", "External id", "Created"]}>
        {props.sessions.map((session) => (
          <tr>
            <td class="mono">
              <a href={`${base}/${session.id}`}>{session.id}</a>
            </td>
            <td>
              <Status value={session.status} />
            </td>
            <td>{session.externalId ?? ""}</td>
            <td>{session.createdAt.slice(0, 19).replace("T", " ")}</td>
          </tr>
        ))}
      </Table>
      <p class="muted">
        {props.total === 0
          ? "No sessions."
          : `${props.offset + 1}–${props.offset + props.sessions.length} of ${props.total}`}{" "}
        {props.offset > 0 ? (
          <a href={query(Math.max(0, props.offset - props.limit))}>Previous</a>
        ) : null}{" "}
        {props.offset + props.sessions.length < props.total ? (
          <a href={query(props.offset + props.limit)}>Next</a>
        ) : null}
      </p>
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
        <button type="submit">Create session</button>
      </form>
    </Layout>
  );
}

const date = (time: string | null, unbounded: string) =>
  time ? `${time.slice(0, 19).replace("T", " ")} UTC` : unbounded;

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
        {session.kind === "collect" ? "Collection" : "Verification"} session{" "}
        <span class="mono">{session.id}</span>
      </h1>
      <p>
        Status: <Status value={session.status} />
        {session.externalId ? <span class="muted"> · external id {session.externalId}</span> : null}
        <span class="muted"> · expires {session.expiredAt.slice(0, 19).replace("T", " ")} UTC</span>
        {session.requireSecurityKey ? <span class="muted"> · only security keys</span> : null}
        {session.requireUserVerification ? (
          <span class="muted"> · security keys must check a PIN or biometric</span>
        ) : null}
      </p>
      <p>Give this command to the user:</p>
      <p class="copy-row">
        <code id="ssh-command">{command}</code> <CopyButton text={command} />
      </p>
      <p class="copy-row">
        <span>or send them to their proof page:</span>
        <a id="proof-url" href={proofUrl}>
          {proofUrl}
        </a>
        <CopyButton text={proofUrl} />
      </p>
      <p>
        {open && session.multiConnection ? (
          <PostButton action={`${base}/complete`} csrf={props.page.csrf} label="Complete" />
        ) : null}{" "}
        <PostButton action={`${base}/delete`} csrf={props.page.csrf} label="Delete" kind="danger" />
      </p>
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
            <span class="muted">{connection.created_at.slice(0, 19).replace("T", " ")}</span> ·{" "}
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
      <Table>
        {props.events.map((event) => (
          <tr>
            <td>{event.type}</td>
            <td class="muted">{event.created_at.slice(0, 19).replace("T", " ")}</td>
            <td class="mono">{event.id}</td>
          </tr>
        ))}
      </Table>
      <h2>Webhook deliveries</h2>
      <DeliveriesTable deliveries={props.deliveries} page={props.page} />
    </Layout>
  );
}
