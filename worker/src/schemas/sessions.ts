import { z } from "zod";
import { listQuery, timestamp } from "./common.ts";
import { LIMITS } from "./limits.ts";
import { collectedKey, configuredKey, configuredKeyInput } from "./public-keys.ts";
import { displayText } from "./text.ts";
import { webhook, webhookCreate } from "./webhooks.ts";

/** Webhooks created with a session; they hear only that session's events. */
const sessionWebhooks = z
  .array(webhookCreate)
  .max(LIMITS.maxWebhooksPerSession)
  .optional()
  .describe("Webhooks for this session alone, created with it");

/** In the response that created them, session webhooks carry their secret. */
const sessionWebhook = webhook.extend({
  secret: z.string().optional().describe("Only in the response that created the webhook"),
});

const optionalText = (max: number) => displayText(max).nullable().optional();

/** Options both kinds share; no defaults here so PATCH can tell "absent" from "false". */
const sharedOptions = {
  external_id: optionalText(LIMITS.maxExternalIdLength).describe("Your reference for the user"),
  multi_key: z.boolean().optional().describe("Collect or check more than one key (default false)"),
  multi_connection: z
    .boolean()
    .optional()
    .describe("Accept more connections until completed or expired (default false)"),
  must_confirm: z
    .boolean()
    .optional()
    .describe("The user must press `y` before anything is kept (default false)"),
  ssh_banner: optionalText(LIMITS.maxSshLineLength).describe("Shown before authentication"),
  ssh_message: optionalText(LIMITS.maxSshLineLength).describe("Shown after the result"),
  timeout: z
    .int()
    .min(LIMITS.minTimeoutSeconds)
    .max(LIMITS.maxTimeoutSeconds)
    .optional()
    .describe(
      `Lifetime in seconds; default ${LIMITS.defaultTimeoutSeconds}. Not with \`expired_at\``,
    ),
  expired_at: z.iso
    .datetime({ offset: true })
    .optional()
    .describe("When the session expires (future, at most 30 days ahead). Not with `timeout`"),
};

const verifyOptions = {
  match_all_keys: z
    .boolean()
    .optional()
    .describe("Every configured key must be proven, not just one (default false)"),
  max_attempts: z
    .int()
    .min(1)
    .max(LIMITS.maxAttempts)
    .optional()
    .describe("Failed connections before the session fails (default 1)"),
};

export const TIMEOUT_WITH_EXPIRED_AT = "Cannot use both timeout and expired_at";

/** `timeout` and `expired_at` are alternatives; the error names `expired_at`. */
function oneExpiry(value: { timeout?: number; expired_at?: string }, ctx: z.RefinementCtx) {
  if (value.timeout !== undefined && value.expired_at !== undefined) {
    ctx.addIssue({ code: "custom", path: ["expired_at"], message: TIMEOUT_WITH_EXPIRED_AT });
  }
}

export const collectSessionCreate = z
  .strictObject({ ...sharedOptions, webhooks: sessionWebhooks })
  .superRefine(oneExpiry)
  .meta({ id: "CollectSessionCreate" });

export const collectSessionPatch = z
  .strictObject(sharedOptions)
  .superRefine(oneExpiry)
  .meta({ id: "CollectSessionPatch" });

export const verifySessionCreate = z
  .strictObject({
    ...sharedOptions,
    ...verifyOptions,
    webhooks: sessionWebhooks,
    keys: z
      .array(configuredKeyInput)
      .min(1)
      .max(LIMITS.maxKeysPerVerifySession)
      .describe(`The keys to prove, 1 to ${LIMITS.maxKeysPerVerifySession}`),
  })
  .superRefine(oneExpiry)
  .meta({ id: "VerifySessionCreate" });

export const verifySessionPatch = z
  .strictObject({ ...sharedOptions, ...verifyOptions })
  .superRefine(oneExpiry)
  .meta({ id: "VerifySessionPatch" });

export const collectStatus = z.enum(["pending", "completed", "expired"]);
export const verifyStatus = z.enum(["pending", "verified", "failed", "expired"]);

export const collectSessionListQuery = listQuery.extend({
  status: collectStatus.optional(),
  external_id: z.string().max(LIMITS.maxExternalIdLength).optional(),
});

export const verifySessionListQuery = listQuery.extend({
  status: verifyStatus.optional(),
  external_id: z.string().max(LIMITS.maxExternalIdLength).optional(),
});

export const connection = z
  .object({
    id: z.string(),
    ip_address: z.string(),
    client_version: z.string().describe("e.g. `SSH-2.0-OpenSSH_9.6`"),
    created_at: timestamp,
    closed_at: timestamp.nullable(),
    confirmed: z.boolean().nullable().describe("null unless the session has `must_confirm`"),
    outcome: z.string(),
    keys: z.array(collectedKey),
  })
  .meta({ id: "Connection" });

const sessionFields = {
  id: z.string(),
  connection_identifier: z.string().describe("The SSH username"),
  ssh_command: z.string().describe("The exact command to give the user"),
  external_id: z.string().nullable(),
  multi_key: z.boolean(),
  multi_connection: z.boolean(),
  must_confirm: z.boolean(),
  ssh_banner: z.string().nullable(),
  ssh_message: z.string().nullable(),
  expired_at: timestamp,
  created_at: timestamp,
  updated_at: timestamp,
  completed_at: timestamp.nullable().describe("When the session stopped accepting connections"),
};

export const collectSession = z
  .object({ ...sessionFields, status: collectStatus })
  .meta({ id: "CollectSession" });

export const verifySession = z
  .object({
    ...sessionFields,
    status: verifyStatus,
    match_all_keys: z.boolean(),
    max_attempts: z.int(),
    failed_attempts: z.int(),
    verified_at: timestamp.nullable(),
    keys: z.array(configuredKey),
  })
  .meta({ id: "VerifySession" });

export const collectSessionDetail = collectSession
  .extend({ connections: z.array(connection), webhooks: z.array(sessionWebhook) })
  .meta({ id: "CollectSessionDetail" });

export const verifySessionDetail = verifySession
  .extend({ connections: z.array(connection), webhooks: z.array(sessionWebhook) })
  .meta({ id: "VerifySessionDetail" });

export type SessionOptionsInput = z.infer<typeof verifySessionPatch>;
export type CollectSession = z.infer<typeof collectSession>;
export type VerifySession = z.infer<typeof verifySession>;
export type Connection = z.infer<typeof connection>;
export type CollectSessionDetail = z.infer<typeof collectSessionDetail>;
export type VerifySessionDetail = z.infer<typeof verifySessionDetail>;
