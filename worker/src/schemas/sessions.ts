import { z } from "zod";
import { CONNECTION_OUTCOMES } from "../db/sessions.ts";
import { UNCOUNTED_REASONS } from "../protocol/key-outcomes.ts";
import { CONNECTION_METHODS } from "../protocol/messages.ts";
import { listQuery, timestamp } from "./common.ts";
import { LIMITS } from "./limits.ts";
import {
  certificateAuthority,
  certificateAuthorityInput,
  collectedKey,
  configuredKey,
  configuredKeyInput,
} from "./public-keys.ts";
import { returnUrlProblem } from "./return-url.ts";
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

/** An absolute http(s) URL without credentials; whether http may be used is the Worker's to say. */
const returnUrl = z
  .string()
  .max(LIMITS.maxReturnUrlLength)
  .refine((text) => returnUrlProblem(text, true) === null, {
    message: "return_url must be an absolute https URL without a user name or password",
  })
  .meta({ format: "uri", pattern: "^[Hh][Tt][Tt][Pp][Ss]?://[^@/]+(/.*)?$" });

/** Options both kinds share; no defaults here so PATCH can tell "absent" from "false". */
const sharedOptions = {
  external_id: optionalText(LIMITS.maxExternalIdLength).describe(
    "Your own reference for this user or request (up to 255 characters, no control characters); returned as is and usable as a list filter",
  ),
  multi_key: z.boolean().optional().describe("Collect or check more than one key (default false)"),
  multi_connection: z
    .boolean()
    .optional()
    .describe("Accept more connections until completed or expired (default false)"),
  must_confirm: z
    .boolean()
    .optional()
    .describe("The user must press `y` before anything is kept (default false)"),
  ssh_banner: optionalText(LIMITS.maxSshLineLength).describe(
    "Text the user's SSH client shows before authentication (up to 2048 characters; newlines and tabs allowed, other control characters refused)",
  ),
  ssh_message: optionalText(LIMITS.maxSshLineLength).describe(
    "Text shown on the user's terminal after the result (up to 2048 characters; newlines and tabs allowed, other control characters refused)",
  ),
  require_security_key: z
    .boolean()
    .optional()
    .describe(
      "Only FIDO security keys (`ssh-keygen -t ed25519-sk`) count; any other key is refused with a sentence and not recorded (default false)",
    ),
  require_user_verification: z
    .boolean()
    .optional()
    .describe(
      "A security key's proof counts only if the key checked a PIN or biometric (its user-verified flag; keys made with `-O verify-required`) (default false)",
    ),
  return_url: returnUrl
    .nullable()
    .optional()
    .describe(
      "Where the hosted proof page sends the user once the session is done (with `multi_connection`, once a key is proven), with `keyproof_session_id`, `keyproof_status` and `keyproof_attestation` added to its query; your own query (a `state`) is kept. An absolute `https` URL (`http` only when running locally), up to 2048 characters, without user name or password",
    ),
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

export const NOTHING_TO_PROVE = "Give at least one of keys, keys_from and certificate_authorities";

/** A verification session needs a key to expect or a CA to trust; `principal` needs a CA. */
function somethingToProve(
  value: {
    keys: unknown[];
    keys_from?: unknown[] | undefined;
    certificate_authorities: unknown[];
    principal?: string | undefined;
  },
  ctx: z.RefinementCtx,
) {
  const given = value.keys.length + (value.keys_from?.length ?? 0);
  if (given === 0 && value.certificate_authorities.length === 0) {
    ctx.addIssue({ code: "custom", path: ["keys"], message: NOTHING_TO_PROVE });
  }
  if (value.principal !== undefined && value.certificate_authorities.length === 0) {
    ctx.addIssue({
      code: "custom",
      path: ["principal"],
      message: "principal applies to certificates: give certificate_authorities too",
    });
  }
}

export const collectSessionCreate = z
  .strictObject({ ...sharedOptions, webhooks: sessionWebhooks })
  .superRefine(oneExpiry)
  .meta({
    id: "CollectSessionCreate",
    example: {
      external_id: "user-42",
      ssh_banner: "Acme asks you to prove your SSH key.",
      ssh_message: "Thanks, you can close this window.",
    },
  });

export const collectSessionPatch = z
  .strictObject(sharedOptions)
  .superRefine(oneExpiry)
  .meta({ id: "CollectSessionPatch", example: { timeout: 900, must_confirm: true } });

export const verifySessionCreate = z
  .strictObject({
    ...sharedOptions,
    ...verifyOptions,
    webhooks: sessionWebhooks,
    keys: z
      .array(configuredKeyInput)
      .max(LIMITS.maxKeysPerVerifySession)
      .default([])
      .describe(
        `The keys the user must prove they hold, up to ${LIMITS.maxKeysPerVerifySession}; each at most once. May be empty when \`certificate_authorities\` is given`,
      ),
    keys_from: z
      .array(z.string().max(200).describe("`<forge>:<username>`, e.g. `github:alice`"))
      .min(1)
      .max(LIMITS.maxKeysFromAccounts)
      .optional()
      .describe(
        `Up to ${LIMITS.maxKeysFromAccounts} accounts on code forges (\`github:alice\`, \`gitlab:bob\`, \`codeberg:carol\`, or a forge this service adds with FORGES): the keys each lists at \`<forge>/<username>.keys\` become configured keys with their \`source\`, fetched once at creation. Keys keyproof refuses are skipped and listed in \`skipped_keys\`. With \`keys\`, at most ${LIMITS.maxKeysPerVerifySession} keys in all`,
      ),
    certificate_authorities: z
      .array(certificateAuthorityInput)
      .max(LIMITS.maxCertificateAuthorities)
      .default([])
      .describe(
        `Up to ${LIMITS.maxCertificateAuthorities} CAs: a login with a valid user certificate from one of them (listing \`principal\`, when given) proves an expected key. With \`match_all_keys\` they count as one more key to prove`,
      ),
    principal: displayText(LIMITS.maxPrincipalLength)
      .min(1)
      .optional()
      .describe(
        "A principal that certificates from `certificate_authorities` must list (like a username on sshd)",
      ),
  })
  .superRefine(oneExpiry)
  .superRefine(somethingToProve)
  .meta({
    id: "VerifySessionCreate",
    example: {
      external_id: "user-42",
      keys: [
        {
          name: "laptop",
          public_key:
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBrdIDVv73+l3FTU30IyNXJPZOlmJyJuGYz8C39JZsyb you@laptop",
        },
      ],
      max_attempts: 3,
    },
  });

export const verifySessionPatch = z
  .strictObject({ ...sharedOptions, ...verifyOptions })
  .superRefine(oneExpiry)
  .meta({ id: "VerifySessionPatch", example: { max_attempts: 5 } });

export const collectStatus = z
  .enum(["pending", "completed", "expired"])
  .describe("`pending` while it accepts connections, then `completed` or `expired`");
export const verifyStatus = z
  .enum(["pending", "verified", "failed", "expired"])
  .describe("`pending` while it accepts connections, then `verified`, `failed` or `expired`");

const externalIdFilter = z
  .string()
  .max(LIMITS.maxExternalIdLength)
  .optional()
  .describe("Only sessions with exactly this `external_id`");

export const collectSessionListQuery = listQuery.extend({
  status: collectStatus.optional().describe("Only sessions in this status"),
  external_id: externalIdFilter,
});

export const verifySessionListQuery = listQuery.extend({
  status: verifyStatus.optional().describe("Only sessions in this status"),
  external_id: externalIdFilter,
});

export const connection = z
  .object({
    id: z.string().describe("`con_...`"),
    method: z
      .enum(CONNECTION_METHODS)
      .describe("`ssh` through the bridge, or `signature` (`ssh-keygen -Y sign` sent over HTTPS)"),
    ip_address: z
      .string()
      .describe("The client's address (a trusted load balancer's PROXY header when there is one)"),
    client_version: z
      .string()
      .describe(
        "The client's SSH identification, e.g. `SSH-2.0-OpenSSH_9.6` (for a signature, its HTTP User-Agent); anything but printable ASCII is escaped as `\\xNN`",
      ),
    created_at: timestamp,
    closed_at: timestamp.nullable().describe("null while the connection is in progress"),
    confirmed: z
      .boolean()
      .nullable()
      .describe("Whether the user pressed `y`; null unless the session had `must_confirm`"),
    outcome: z
      .enum(CONNECTION_OUTCOMES)
      .describe(
        "`in_progress`; `collected` or `verified`; `no_key` (nothing proven), `no_match` (no expected key), `declined`; `expired` or `closed` (the session closed meanwhile); `interrupted` (the bridge restarted before the user answered: nothing kept, no attempt counted); `disconnected` (the bridge never reported back)",
      ),
    keys: z.array(collectedKey).describe("Keys this connection proved and the session kept"),
    refusals: z
      .array(z.enum(UNCOUNTED_REASONS))
      .describe(
        "Why keys the client offered did not count, each reason once, e.g. `not_expected`, `certificate_source_address`, `certificate_unknown_option`, `certificate_verify_required`, `not_touched`, `sha1`, `rsa_too_short`. Codes only: keyproof never records a key a session did not ask for",
      ),
  })
  .meta({ id: "Connection" });

const sessionFields = {
  id: z.string().describe("`cs_...` or `vs_...`"),
  connection_identifier: z
    .string()
    .describe("The SSH username: 26 lowercase letters and digits, 130 random bits"),
  ssh_command: z
    .string()
    .describe("The exact command to give the user, e.g. `ssh abc...@ssh.example.com`"),
  proof_url: z
    .string()
    .describe(
      "A page to send the user to instead of building one: the command, the bridge's host key fingerprints, the signature alternative, and the status, live. Public: it shows no `external_id`, key names or other sessions",
    ),
  signature_challenge: z
    .string()
    .describe(
      "What a user without SSH access signs with `ssh-keygen -Y sign -n keyproof`; a proof that counts uses it up, and a new one is shown while the session accepts connections",
    ),
  signature_url: z.string().describe("Where that signature is sent (POST, public: no API key)"),
  sign_command: z
    .string()
    .describe(
      "The one line such a user runs: signs the challenge with their key and sends it, printing the result",
    ),
  external_id: z.string().nullable().describe("Your reference, as given"),
  multi_key: z.boolean().describe("More than one key is collected or checked per connection"),
  multi_connection: z.boolean().describe("Connections are accepted until completed or expired"),
  must_confirm: z.boolean().describe("The user must press `y` before anything is kept"),
  require_security_key: z.boolean().describe("Only FIDO security keys count"),
  require_user_verification: z
    .boolean()
    .describe("A security key's proof counts only with a PIN or biometric check"),
  ssh_banner: z.string().nullable().describe("Shown before authentication"),
  ssh_message: z.string().nullable().describe("Shown after the result"),
  return_url: z
    .string()
    .nullable()
    .describe("Where the proof page sends the user when done, with the result; null for none"),
  expired_at: timestamp.describe("When the session expires if still open"),
  created_at: timestamp,
  updated_at: timestamp.describe("Changed by every PATCH, connection and status change"),
  completed_at: timestamp.nullable().describe("When the session stopped accepting connections"),
  redacted_at: timestamp
    .nullable()
    .describe(
      "When its personal data was erased (`POST .../redact/`): keys, fingerprints, addresses and client software read `[redacted]`, and `external_id`, `return_url`, `principal`, key names, comments and certificates are null; null while not redacted",
    ),
  livemode: z.boolean().describe("`false` for a test session (made with a `kp_test_` key)"),
};

export const collectSession = z
  .object({ ...sessionFields, status: collectStatus })
  .meta({ id: "CollectSession", description: "A collection session" });

export const verifySession = z
  .object({
    ...sessionFields,
    status: verifyStatus,
    match_all_keys: z.boolean().describe("Every configured key must be proven"),
    max_attempts: z.int().describe("Failed connections allowed before the session fails"),
    failed_attempts: z.int().describe("Connections so far that proved no configured key"),
    verified_at: timestamp.nullable().describe("When the session became `verified`"),
    keys: z.array(configuredKey).describe("The keys to prove, in the order given"),
    certificate_authorities: z
      .array(certificateAuthority)
      .describe("The CAs whose certificates prove a key, in the order given"),
    principal: z.string().nullable().describe("The principal their certificates must list"),
    certificate_verified_at: timestamp
      .nullable()
      .describe("When a connection first proved a key with a certificate from one of them"),
  })
  .meta({ id: "VerifySession", description: "A verification session" });

const detailFields = {
  connections: z.array(connection).describe("Every connection so far, newest first"),
  webhooks: z.array(sessionWebhook).describe("This session's own webhooks"),
};

export const collectSessionDetail = collectSession
  .extend(detailFields)
  .meta({ id: "CollectSessionDetail", description: "A collection session with its connections" });

export const verifySessionDetail = verifySession
  .extend({
    ...detailFields,
    skipped_keys: z
      .array(
        z.object({
          source: z.string().describe("The account that lists it, e.g. `github:alice`"),
          public_key: z.string().describe("The key as the account lists it"),
          reason: z.string().describe("Why keyproof did not add it"),
        }),
      )
      .optional()
      .describe(
        "Only in the response that created the session: the first 20 keys the `keys_from` accounts list that were not added (DSA, short RSA, degenerate, already given). A private key an account lists by mistake is one entry that shows none of it",
      ),
    skipped_count: z
      .int()
      .optional()
      .describe("Only with `skipped_keys`: how many keys were skipped in all"),
  })
  .meta({
    id: "VerifySessionDetail",
    description: "A verification session with its connections",
  });

export const sessionIdParam = z.object({
  session_id: z.string().max(64).describe("The session's `id`"),
});

export type SessionOptionsInput = z.infer<typeof verifySessionPatch>;
export type CollectSession = z.infer<typeof collectSession>;
export type VerifySession = z.infer<typeof verifySession>;
export type Connection = z.infer<typeof connection>;
export type CollectSessionDetail = z.infer<typeof collectSessionDetail>;
export type VerifySessionDetail = z.infer<typeof verifySessionDetail>;
