import { z } from "zod";
import {
  EVENT_ENTITIES,
  EVENT_TYPES,
  INVOCATION_STATUSES,
  WEBHOOK_METHODS,
} from "../db/webhooks.ts";
import { listQuery, timestamp } from "./common.ts";
import { headerValue } from "./text.ts";

export const WEBHOOK_LIMITS = {
  maxUrlLength: 2048,
  maxHeaders: 20,
  maxHeaderValueLength: 1024,
  maxRetries: 20,
  maxInitialBackoffSeconds: 86_400,
  maxBackoffMultiplier: 10,
} as const;

/** Headers the signature and the envelope depend on; extra headers may not replace them. */
const RESERVED_HEADERS =
  /^(webhook-|content-type$|content-length$|host$|user-agent$|connection$|transfer-encoding$)/i;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const eventType = z
  .enum(EVENT_TYPES)
  .describe(
    "`new_connection`, `key_collected`, `verified`, `failed_attempt`, `connection_interrupted`, `status_changed`, `redacted` or `ping`",
  );

const url = z
  .url({ protocol: /^https?$/, error: "Must be an http or https URL" })
  .max(WEBHOOK_LIMITS.maxUrlLength)
  .describe("http or https URL that receives the deliveries");

const headers = z
  .record(
    z
      .string()
      .regex(
        HEADER_NAME,
        "Not a valid header name: use letters, digits and !#$%&'*+.^_`|~- only (an HTTP token)",
      )
      .refine((name) => !RESERVED_HEADERS.test(name), {
        message: "This header is set by keyproof and cannot be replaced",
      }),
    headerValue(WEBHOOK_LIMITS.maxHeaderValueLength),
  )
  .refine((value) => Object.keys(value).length <= WEBHOOK_LIMITS.maxHeaders, {
    message: `At most ${WEBHOOK_LIMITS.maxHeaders} headers`,
  })
  .describe("Extra request headers")
  // The generator leaves a record's key schema out; the names' rule is part of the contract.
  .meta({ propertyNames: { type: "string", pattern: HEADER_NAME.source } });

const webhookFields = {
  url,
  method: z.enum(WEBHOOK_METHODS).describe("HTTP method (default post)"),
  headers,
  events: z
    .array(eventType)
    .max(EVENT_TYPES.length)
    .describe("Event types to receive; empty means all"),
  retries: z
    .int()
    .min(0)
    .max(WEBHOOK_LIMITS.maxRetries)
    .describe("Retries after the first attempt (default 5)"),
  initial_backoff: z
    .int()
    .min(1)
    .max(WEBHOOK_LIMITS.maxInitialBackoffSeconds)
    .describe("Seconds before the first retry (default 10)"),
  backoff_multiplier: z
    .number()
    .min(1)
    .max(WEBHOOK_LIMITS.maxBackoffMultiplier)
    .describe("Each retry waits this many times longer than the last (default 2)"),
  enabled: z.boolean().describe("Deliveries are made only while enabled (default true)"),
};

export const WEBHOOK_DEFAULTS = {
  method: "post",
  headers: {},
  events: [],
  retries: 5,
  initial_backoff: 10,
  backoff_multiplier: 2,
  enabled: true,
} as const;

/** Create and PUT: everything but `url` has a default. */
export const webhookCreate = z
  .strictObject({
    url: webhookFields.url,
    method: webhookFields.method.default(WEBHOOK_DEFAULTS.method),
    headers: webhookFields.headers.default({}),
    events: webhookFields.events.default([]),
    retries: webhookFields.retries.default(WEBHOOK_DEFAULTS.retries),
    initial_backoff: webhookFields.initial_backoff.default(WEBHOOK_DEFAULTS.initial_backoff),
    backoff_multiplier: webhookFields.backoff_multiplier.default(
      WEBHOOK_DEFAULTS.backoff_multiplier,
    ),
    enabled: webhookFields.enabled.default(WEBHOOK_DEFAULTS.enabled),
  })
  .meta({
    id: "WebhookCreate",
    example: { url: "https://example.com/keyproof", events: ["verified", "status_changed"] },
  });

export const webhookPatch = z
  .strictObject(webhookFields)
  .partial()
  .meta({ id: "WebhookPatch", example: { enabled: false } });

export const webhook = z
  .object({
    id: z.string().describe("`wh_...`"),
    session_id: z
      .string()
      .nullable()
      .describe("The session it belongs to; null for a project webhook (every session's events)"),
    url: z.string().describe("Where deliveries go"),
    method: z.enum(WEBHOOK_METHODS).describe("HTTP method of each delivery"),
    headers: z.record(z.string(), z.string()).describe("Extra headers sent with each delivery"),
    events: z.array(eventType).describe("Event types it receives; empty means all"),
    retries: z.int().describe("Retries after the first attempt"),
    initial_backoff: z.int().describe("Seconds before the first retry"),
    backoff_multiplier: z.number().describe("Each retry waits this many times longer"),
    enabled: z.boolean().describe("Deliveries are made only while enabled; 410 Gone disables it"),
    livemode: z
      .boolean()
      .describe(
        "`false` for a test webhook (made with a `kp_test_` key): it hears only test events, a live one only live events",
      ),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Webhook", description: "A webhook (its secret is shown only when created)" });

export const webhookWithSecret = webhook
  .extend({ secret: z.string().describe("`whsec_...`: verifies the Standard Webhooks signature") })
  .meta({ id: "WebhookWithSecret", description: "A new webhook, with its signing secret" });

export const webhookSecret = z
  .object({ secret: z.string().describe("`whsec_...`") })
  .meta({ id: "WebhookSecret", description: "A webhook's signing secret" });

export const deliveryAttempt = z
  .object({
    attempt: z.int().describe("1 for the first attempt"),
    request_time: timestamp,
    duration_ms: z.int().describe("Time to the receiver's answer (or the error)"),
    status_code: z.int().nullable().describe("The receiver's HTTP status; null if none came"),
    response_body: z.string().nullable().describe("The first KiB of the response"),
    error: z.string().nullable().describe("Why the attempt did not succeed, if it did not"),
  })
  .meta({ id: "DeliveryAttempt", description: "One attempt of a delivery" });

export const delivery = z
  .object({
    id: z.string().describe("The invocation id (`whi_...`), sent as `webhook-id` on every attempt"),
    webhook_id: z.string(),
    event_id: z.string().describe("The event delivered (`evt_...`)"),
    event: eventType,
    status: z
      .enum(INVOCATION_STATUSES)
      .describe("`pending`, `retrying`, `succeeded`, `failed` or `cancelled` (webhook disabled)"),
    attempts: z.array(deliveryAttempt).describe("Every attempt, oldest first"),
    next_attempt_at: timestamp
      .nullable()
      .describe("When the next attempt is due; null once the delivery succeeded or failed"),
    failure_reason: z
      .string()
      .nullable()
      .describe("Why a failed or cancelled delivery stopped, in a sentence"),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Delivery", description: "One event for one webhook, with every attempt" });

export const event = z
  .object({
    id: z.string().describe("`evt_...`; sorts by time"),
    type: eventType,
    entity: z
      .enum(EVENT_ENTITIES)
      .describe("`collect_session`, `verify_session`, or `webhook` for a test ping"),
    session_id: z.string().nullable().describe("The session it is about; null for a ping"),
    payload: z
      .record(z.string(), z.unknown())
      .describe("The event's payload, as webhooks deliver it (docs/webhooks.md)"),
    livemode: z.boolean().describe("`false` for test data (made with a `kp_test_` key)"),
    created_at: timestamp,
  })
  .meta({ id: "Event", description: "An entry of the project's event log" });

export const eventListQuery = listQuery.extend({
  session_id: z.string().max(64).optional().describe("Only this session's events"),
  type: eventType.optional().describe("Only events of this type"),
});

export const deliveryListQuery = listQuery.extend({
  status: z.enum(INVOCATION_STATUSES).optional().describe("Only deliveries in this status"),
});

export const webhookIdParam = z.object({
  webhook_id: z.string().max(64).describe("The webhook's `id`"),
});

export type WebhookCreateInput = z.infer<typeof webhookCreate>;
export type WebhookPatchInput = z.infer<typeof webhookPatch>;
export type Webhook = z.infer<typeof webhook>;
export type Delivery = z.infer<typeof delivery>;
export type EventView = z.infer<typeof event>;
