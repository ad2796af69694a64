import { z } from "zod";
import { SESSION_STATUSES } from "../protocol/messages.ts";
import { timestamp } from "./common.ts";
import { collectedKey } from "./public-keys.ts";

/**
 * What each webhook delivery carries, for the OpenAPI document's `webhooks` and so for
 * typed clients. The payloads are built in domain/events.ts and domain/connection-rules.ts; these
 * schemas describe them, and a test checks real deliveries against them.
 */

type Kind = "collect" | "verify";

/** The fields every payload about a session starts with, named for its kind. */
function sessionFields<K extends Kind>(kind: K) {
  return {
    [`${kind}_session_id`]: z.string().describe("The session's id"),
    [`${kind}_session_external_id`]: z.string().nullable().describe("Your `external_id`"),
    [`${kind}_session_connection_identifier`]: z.string(),
  } as Record<`${K}_session_id` | `${K}_session_connection_identifier`, z.ZodString> &
    Record<`${K}_session_external_id`, z.ZodNullable<z.ZodString>>;
}

function connectionFields<K extends Kind>(kind: K) {
  return {
    ...sessionFields(kind),
    [`${kind}_connection_id`]: z.string().describe("The connection's id"),
    method: z.enum(["ssh", "signature"]).describe("How the connection proved its keys"),
  } as ReturnType<typeof sessionFields<K>> &
    Record<`${K}_connection_id`, z.ZodString> & {
      method: z.ZodEnum<{ ssh: "ssh"; signature: "signature" }>;
    };
}

const newConnection = <K extends Kind>(kind: K) =>
  z.object({
    ...connectionFields(kind),
    ip_address: z.string(),
    client_version: z.string(),
  });

/** The bridge restarted while the connection waited for the user: nothing counted. */
const connectionInterrupted = <K extends Kind>(kind: K) =>
  z.object({
    ...connectionFields(kind),
    reason: z
      .enum(["restarting", "disconnected"])
      .describe(
        "Why: `restarting`, the SSH bridge was restarting while the user was asked to confirm; `disconnected`, the bridge stopped answering for the connection (its place lapsed after 45 s)",
      ),
  });

const statusChanged = <K extends Kind>(kind: K) =>
  z.object({
    ...sessionFields(kind),
    status: z.enum(SESSION_STATUSES),
    previous_status: z.enum(SESSION_STATUSES),
    attestation: z
      .string()
      .nullable()
      .optional()
      .describe(
        "When the change ends the session: its result signed (an attestation, as `GET .../attestation/` gives), signed as this attempt was sent and valid for 10 minutes; null when the service signs none or the session was redacted. Only deliveries carry it: the event log does not",
      ),
  });

/** The session's personal data was erased on request: what is left says only when. */
const redacted = <K extends Kind>(kind: K) =>
  z.object({
    ...sessionFields(kind),
    redacted_at: timestamp.describe("When it was redacted"),
  });

/** The envelope of one delivery of `event` about a session of `kind` (or the webhook's ping). */
function envelope<E extends string, T extends string, P extends z.ZodType>(
  entity: E,
  event: T,
  payload: P,
  id: string,
) {
  return z
    .object({
      entity: z.literal(entity),
      id: z.string().describe("The session's id (the webhook's, for `ping`)"),
      event: z.literal(event),
      event_id: z.string(),
      livemode: z
        .boolean()
        .describe("`false` for an event about test data, sent only to test webhooks"),
      webhook_id: z.string(),
      webhook_invocation_id: z
        .string()
        .describe("Also the `webhook-id` header; the same on every retry"),
      trigger_time: timestamp.describe("When the event happened"),
      request_time: timestamp.describe("When this attempt was sent"),
      attempt: z.int().describe("1 for the first attempt"),
      payload,
    })
    .meta({ id });
}

/** Every delivery keyproof makes, by webhook name (`<entity>.<event>`). */
export const WEBHOOK_EVENTS = {
  "collect_session.new_connection": envelope(
    "collect_session",
    "new_connection",
    newConnection("collect"),
    "CollectNewConnectionEvent",
  ),
  "collect_session.key_collected": envelope(
    "collect_session",
    "key_collected",
    z.object({ ...connectionFields("collect"), key: collectedKey.omit({ created_at: true }) }),
    "CollectKeyCollectedEvent",
  ),
  "collect_session.connection_interrupted": envelope(
    "collect_session",
    "connection_interrupted",
    connectionInterrupted("collect"),
    "CollectConnectionInterruptedEvent",
  ),
  "collect_session.status_changed": envelope(
    "collect_session",
    "status_changed",
    statusChanged("collect"),
    "CollectStatusChangedEvent",
  ),
  "collect_session.redacted": envelope(
    "collect_session",
    "redacted",
    redacted("collect"),
    "CollectRedactedEvent",
  ),
  "verify_session.new_connection": envelope(
    "verify_session",
    "new_connection",
    newConnection("verify"),
    "VerifyNewConnectionEvent",
  ),
  "verify_session.verified": envelope(
    "verify_session",
    "verified",
    z.object({
      ...connectionFields("verify"),
      keys: z
        .array(
          collectedKey.omit({ created_at: true }).extend({
            source: z
              .string()
              .nullable()
              .describe("The forge account (`github:alice`) of the configured key it matched"),
          }),
        )
        .describe("The keys that matched"),
    }),
    "VerifyVerifiedEvent",
  ),
  "verify_session.failed_attempt": envelope(
    "verify_session",
    "failed_attempt",
    z.object({
      ...connectionFields("verify"),
      outcome: z.string().describe("`no_key`, `no_match` or `declined`"),
      failed_attempts: z.int(),
      max_attempts: z.int(),
    }),
    "VerifyFailedAttemptEvent",
  ),
  "verify_session.connection_interrupted": envelope(
    "verify_session",
    "connection_interrupted",
    connectionInterrupted("verify"),
    "VerifyConnectionInterruptedEvent",
  ),
  "verify_session.status_changed": envelope(
    "verify_session",
    "status_changed",
    statusChanged("verify"),
    "VerifyStatusChangedEvent",
  ),
  "verify_session.redacted": envelope(
    "verify_session",
    "redacted",
    redacted("verify"),
    "VerifyRedactedEvent",
  ),
  "webhook.ping": envelope(
    "webhook",
    "ping",
    z.object({ webhook_id: z.string(), message: z.string() }),
    "PingEvent",
  ),
};

/** Any delivery, as `verifyWebhook` in the client returns it. */
export const webhookEvent = z
  .union(Object.values(WEBHOOK_EVENTS) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]])
  .meta({ id: "WebhookEvent", description: "One delivery: the envelope and its payload" });
