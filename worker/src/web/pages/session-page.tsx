import { accountLabel, configuredForges } from "../../domain/forges.ts";
import type { SessionDetail } from "../../domain/session-views.ts";
import { proofLinks, sshCommand } from "../../domain/session-views.ts";
import type { Env } from "../../env.ts";
import type { CollectedKey } from "../../schemas/public-keys.ts";
import type { Delivery, EventView } from "../../schemas/webhooks.ts";
import {
  ConfirmedPostButton,
  CopyButton,
  Csrf,
  PostButton,
  Status,
  shortTime,
  Table,
} from "../components.tsx";
import type { PageContext } from "../forms.ts";
import { Layout } from "../layout.tsx";
import { DeliveriesTable } from "./webhook-pages.tsx";

/** One session: its status, command, connections and keys, events and deliveries, and what may be done to it. */
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
 * A closed session's personal data erased for good: the box must be ticked, so one
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
