import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  connectionKeys,
  connections,
  type SessionRow,
  sessionKeys,
  sessions,
} from "../db/sessions.ts";
import {
  eventRows,
  eventRowsOfSessions,
  eventsOfSessions,
  isDeliveryOf,
  webhookInvocations,
} from "../db/webhooks.ts";
import { isOpen, refused } from "./session-rules.ts";

/**
 * Redaction: a closed session's personal data erased on request, its outline kept —
 * id, kind, status, counts of keys, connections and attempts, timestamps, `redacted_at`. What
 * goes, everywhere it is stored (the object, D1's rows, the event log, delivery records), is
 * named once here; a text the API must show is replaced by REDACTED, anything nullable by null.
 */
export const REDACTED = "[redacted]";

/** A stored public key, collected or configured, with nothing left that identifies it. */
export const REDACTED_KEY = {
  publicKeySsh: REDACTED,
  publicKeyPem: null,
  publicKeyMd5: REDACTED,
  publicKeySha256: REDACTED,
  comment: null,
  certificate: null,
} as const;

/** A configured key: also the integrator's name and reference for it, and its forge account. */
export const REDACTED_CONFIGURED_KEY = {
  ...REDACTED_KEY,
  name: null,
  externalId: null,
  source: null,
} as const;

/** Where a connection came from and with what software. */
export const REDACTED_CONNECTION = { ipAddress: REDACTED, clientVersion: REDACTED } as const;

/** The session's own text that may name its user. */
export const REDACTED_SESSION = {
  externalId: null,
  returnUrl: null,
  principal: null,
  sshBanner: null,
  sshMessage: null,
} satisfies Partial<SessionRow>;

/** Only a closed session is redacted: an open one would record new personal data after. */
export function redactionRefusal(session: SessionRow) {
  if (!isOpen(session)) return null;
  return refused(
    409,
    `The session still accepts connections (status ${session.status}): complete it (POST .../complete/, multi-connection sessions) or wait until it expires, then redact it; or delete it (DELETE) to erase it whole`,
  );
}

/** A key in an event payload (`key`, or each of `keys`) as `expression`, redacted. */
const redactedKeyJson = (expression: string) =>
  `json_replace(${expression}, '$.public_key_ssh', '${REDACTED}', '$.public_key_pem', NULL, '$.public_key_md5', '${REDACTED}', '$.public_key_sha256', '${REDACTED}', '$.comment', NULL, '$.certificate', NULL, '$.source', NULL)`;

/** The keys a connection's index row holds (`keys`), each redacted as REDACTED_KEY says. */
const REDACTED_CONNECTION_KEYS = sql.raw(
  `(SELECT json_group_array(json(json_replace(value, ${Object.entries(REDACTED_KEY)
    .map(([field, value]) => `'$.${field}', ${value === null ? "NULL" : `'${value}'`}`)
    .join(", ")}))) FROM json_each(keys))`,
);

/**
 * Rewrites a payload (`payload`, SQL) in its personal fields where they are (json_replace adds
 * nothing): the session's `external_id`, a connection's address and software, the keys of
 * `key_collected` and `verified`, and the attestation of `status_changed`.
 */
const redactedPayload = (payload: string) => `json_replace(${payload},
  '$.collect_session_external_id', NULL,
  '$.verify_session_external_id', NULL,
  '$.ip_address', '${REDACTED}',
  '$.client_version', '${REDACTED}',
  '$.attestation', NULL,
  '$.key', json(${redactedKeyJson(`json_extract(${payload}, '$.key')`)}),
  '$.keys', json((SELECT json_group_array(json(${redactedKeyJson("value")})) FROM json_each(${payload}, '$.keys'))))`;

/** An event row's events (`event_rows.events`), each payload redacted. */
const REDACTED_EVENTS = sql.raw(`(SELECT json_group_array(json(json_set(stored.value, '$.p',
  json(${redactedPayload("json_extract(stored.value, '$.p')")}))))
  FROM json_each(events) AS stored)`);

/** The fields its events share (`event_rows.common`), redacted as a payload is. */
const REDACTED_COMMON = sql.raw(redactedPayload("common"));

/**
 * The statements that redact one session in D1, in the push that carries its redaction (index-
 * push.ts): its keys and connections, its events as the log and every delivery show them, and
 * what receivers answered to those deliveries (a receiver may echo what it was sent).
 */
export function redactionStatements(db: Database, projectId: string, sessionId: string) {
  const which = and(eq(sessions.id, sessionId), eq(sessions.projectId, projectId));
  return [
    db.update(sessions).set(REDACTED_SESSION).where(eq(sessions.id, sessionId)),
    db.update(sessionKeys).set(REDACTED_CONFIGURED_KEY).where(eq(sessionKeys.sessionId, sessionId)),
    db
      .update(connections)
      .set({ ...REDACTED_CONNECTION, keys: REDACTED_CONNECTION_KEYS as never })
      .where(eq(connections.sessionId, sessionId)),
    db.update(connectionKeys).set(REDACTED_KEY).where(eq(connectionKeys.sessionId, sessionId)),
    db
      .update(eventRows)
      .set({ events: REDACTED_EVENTS as never, common: REDACTED_COMMON as never })
      .where(eventRowsOfSessions(which)),
    db
      .update(webhookInvocations)
      .set({
        attemptLog: sql`(SELECT json_group_array(json(json_set(value, '$.response_body', NULL))) FROM json_each(${webhookInvocations.attemptLog}))`,
      })
      .where(isDeliveryOf(eventsOfSessions(which))),
  ] as const;
}
