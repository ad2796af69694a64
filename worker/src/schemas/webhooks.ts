import { z } from "zod";
import { EVENT_TYPES } from "../db/webhooks.ts";
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

export const eventType = z.enum(EVENT_TYPES);

const url = z
  .url({ protocol: /^https?$/, error: "Must be an http or https URL" })
  .max(WEBHOOK_LIMITS.maxUrlLength)
  .describe("http or https URL that receives the deliveries");

const headers = z
  .record(
    z
      .string()
      .regex(HEADER_NAME, "Not a valid header name")
      .refine((name) => !RESERVED_HEADERS.test(name), {
        message: "This header is set by keyproof and cannot be replaced",
      }),
    headerValue(WEBHOOK_LIMITS.maxHeaderValueLength),
  )
  .refine((value) => Object.keys(value).length <= WEBHOOK_LIMITS.maxHeaders, {
    message: `At most ${WEBHOOK_LIMITS.maxHeaders} headers`,
  })
  .describe("Extra request headers");

const webhookFields = {
  url,
  method: z.enum(["post", "put", "patch"]).describe("HTTP method (default post)"),
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
  .meta({ id: "WebhookCreate" });

export const webhookPatch = z.strictObject(webhookFields).partial().meta({ id: "WebhookPatch" });

export const webhook = z
  .object({
    id: z.string(),
    session_id: z.string().nullable().describe("Null for a project webhook"),
    url: z.string(),
    method: z.enum(["post", "put", "patch"]),
    headers: z.record(z.string(), z.string()),
    events: z.array(eventType),
    retries: z.int(),
    initial_backoff: z.int(),
    backoff_multiplier: z.number(),
    enabled: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Webhook" });

export const webhookWithSecret = webhook
  .extend({ secret: z.string().describe("`whsec_...`: verifies the Standard Webhooks signature") })
  .meta({ id: "WebhookWithSecret" });

export const webhookSecret = z.object({ secret: z.string() }).meta({ id: "WebhookSecret" });

export const deliveryAttempt = z
  .object({
    attempt: z.int(),
    request_time: timestamp,
    duration_ms: z.int(),
    status_code: z.int().nullable(),
    response_body: z.string().nullable().describe("The first KiB of the response"),
    error: z.string().nullable(),
  })
  .meta({ id: "DeliveryAttempt" });

export const delivery = z
  .object({
    id: z.string().describe("The invocation id, sent as `webhook-id` on every attempt"),
    webhook_id: z.string(),
    event_id: z.string(),
    event: eventType,
    status: z.enum(["pending", "retrying", "succeeded", "failed", "cancelled"]),
    attempts: z.array(deliveryAttempt),
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
  .meta({ id: "Delivery" });

export const event = z
  .object({
    id: z.string(),
    type: eventType,
    entity: z.enum(["collect_session", "verify_session", "webhook"]),
    session_id: z.string().nullable(),
    payload: z.record(z.string(), z.unknown()),
    created_at: timestamp,
  })
  .meta({ id: "Event" });

export const eventListQuery = listQuery.extend({
  session_id: z.string().max(64).optional(),
  type: eventType.optional(),
});

export const deliveryListQuery = listQuery.extend({
  status: z.enum(["pending", "retrying", "succeeded", "failed", "cancelled"]).optional(),
});

export type WebhookCreateInput = z.infer<typeof webhookCreate>;
export type WebhookPatchInput = z.infer<typeof webhookPatch>;
export type Webhook = z.infer<typeof webhook>;
export type Delivery = z.infer<typeof delivery>;
export type EventView = z.infer<typeof event>;
