import * as z from "zod/mini";
import { UNCOUNTED_REASONS } from "./key-outcomes.ts";

/**
 * The wire format between the bridge and the Worker's /internal/v1 endpoints (never in OpenAPI).
 * The Worker answers with codes; every sentence the SSH user reads is the bridge's to write.
 * Written with zod's mini API, which the bridge's bundle can shake down to what it uses: the
 * bridge carries no other zod, and its resting memory is what it loads.
 */

/** Keys a connection may offer, and so the most it can prove and record. */
export const MAX_KEYS_PER_CONNECTION = 32;
/** The largest key blob the bridge reports: a certificate with many principals and options fits. */
export const MAX_KEY_BLOB_BYTES = 12_288;
const MAX_KEY_BLOB_BASE64 = (MAX_KEY_BLOB_BYTES / 3) * 4;
/** A finish report with every key at its largest, and room for the rest. */
export const MAX_INTERNAL_BODY_BYTES = MAX_KEYS_PER_CONNECTION * MAX_KEY_BLOB_BASE64 + 64 * 1024;

export const SESSION_KINDS = ["collect", "verify"] as const;
export const SESSION_STATUSES = ["pending", "completed", "verified", "failed", "expired"] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];
/** How a connection proved its keys: over SSH through the bridge, or with a detached signature. */
export const CONNECTION_METHODS = ["ssh", "signature"] as const;
export type ConnectionMethod = (typeof CONNECTION_METHODS)[number];
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const openConnectionRequest = z.strictObject({
  connection_identifier: z.string().check(z.maxLength(64)),
  /** The client's address: the socket's, or the one a trusted load balancer's PROXY header gave. */
  ip_address: z.union([z.ipv4(), z.ipv6()]),
  /** The SSH identification line, escaped by the bridge to printable ASCII (RFC 4253 §4.2). */
  client_version: z
    .string()
    .check(z.maxLength(255), z.regex(/^[\x20-\x7e]*$/, "Printable ASCII only")),
});

export const REFUSAL_REASONS = [
  "unknown",
  "expired",
  "completed",
  "verified",
  "failed",
  "busy",
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export const openConnectionResponse = z.discriminatedUnion("accepted", [
  z.object({
    accepted: z.literal(true),
    session_id: z.string(),
    connection_id: z.string(),
    kind: z.enum(SESSION_KINDS),
    multi_key: z.boolean(),
    must_confirm: z.boolean(),
    ssh_banner: z.nullable(z.string()),
    ssh_message: z.nullable(z.string()),
    expired_at: z.string(),
    /** SHA-256 fingerprints of the configured keys (verification only), so the bridge can answer "key OK". */
    expected_fingerprints: z.array(z.string()),
    /** The forge accounts whose keys the session expects (`github.com/alice`), for the user. */
    expected_accounts: z._default(z.array(z.string()), []),
    /** SHA-256 fingerprints of the trusted certificate authorities (verification only). */
    authority_fingerprints: z.array(z.string()),
    principal: z.nullable(z.string()),
    require_security_key: z.boolean(),
    require_user_verification: z.boolean(),
  }),
  z.object({ accepted: z.literal(false), reason: z.enum(REFUSAL_REASONS) }),
]);

/** A key's wire-format blob (base64) as the client offered it: a plain key or a certificate. */
const provenKey = z.strictObject({
  key: z.string().check(z.maxLength(MAX_KEY_BLOB_BASE64)),
  /** The flags and counter a security key signed; null for any other key. */
  security_key: z.nullable(
    z.strictObject({
      flags: z.int().check(z.minimum(0), z.maximum(255)),
      counter: z.int().check(z.minimum(0), z.maximum(0xffff_ffff)),
    }),
  ),
});

/**
 * The session's connection identifier, on the calls after the first: its object is found by it
 * even once it retired, as it starts with the session's shard (db/databases.ts).
 */
const identifierOfSession = z.optional(z.string().check(z.maxLength(64)));

export const finishConnectionRequest = z.strictObject({
  session_id: z.string().check(z.maxLength(64)),
  connection_identifier: identifierOfSession,
  /** The keys whose possession the bridge verified, with their security key's report. */
  keys: z.array(provenKey).check(z.maxLength(MAX_KEYS_PER_CONNECTION)),
  /** Distinct keys the client offered, proven or not (tells "no key" from "no match"). */
  keys_offered: z.int().check(z.minimum(0), z.maximum(1000)),
  /** Why offered keys did not count, each reason once (bridges before 2026-11 send none). */
  refusals: z._default(
    z.array(z.enum(UNCOUNTED_REASONS)).check(z.maxLength(UNCOUNTED_REASONS.length)),
    [],
  ),
  /** The user's answer when the session has must_confirm; null otherwise. */
  confirmed: z.nullable(z.boolean()),
  /** The bridge ended the connection (it is restarting) before it was done. */
  interrupted: z._default(z.boolean(), false),
});

/** The bridge is asking the user to confirm these keys (must_confirm): the proof page shows it. */
/**
 * A connection holds its session's place for this long after it opened or last said it lives
 *: the bridge renews it every LEASE_RENEWAL_MS while the connection lasts, so one
 * whose bridge died frees the session within a minute, as the user is told.
 */
export const CONNECTION_LEASE_MS = 45_000;
/**
 * The longest a connection lasts at the bridge, from its accept: authentication, the 120 s
 * confirmation prompt and a margin (ssh-bridge/src/limits.ts). A closed session's object may
 * hold it that long for a user still at the prompt.
 */
export const CONNECTION_LIFETIME_MS = 180_000;
export const LEASE_RENEWAL_MS = 15_000;

/** The connection lives (its lease renewed); with `confirming`, the user is asked to confirm. */
export const connectionProgressRequest = z.strictObject({
  session_id: z.string().check(z.maxLength(64)),
  connection_identifier: identifierOfSession,
  confirming: z.optional(
    z
      .array(
        z.strictObject({
          sha256: z.string().check(z.maxLength(64)),
          algorithm: z.string().check(z.maxLength(64)),
          bits: z.int().check(z.minimum(0), z.maximum(16_384)),
          certified: z.boolean(),
        }),
      )
      .check(z.maxLength(MAX_KEYS_PER_CONNECTION)),
  ),
});

export const connectionProgressResponse = z.object({ ok: z.literal(true) });

/** GET /internal/v1/health: the Worker answers and the bridge's signature checks out. */
export const healthResponse = z.object({ ok: z.literal(true) });

export const CONNECTION_RESULTS = [
  "collected",
  "verified",
  "no_match",
  "no_key",
  "declined",
  "expired",
  "closed",
  // Cut by the bridge restarting before the user answered: nothing kept, no attempt counted.
  "interrupted",
] as const;
export type ConnectionResult = (typeof CONNECTION_RESULTS)[number];

/** A key a connection counted, as the bridge and the signature answer report it. */
const countedKey = z.object({
  sha256: z.string(),
  algorithm: z.string(),
  bits: z.int(),
  /** Proven through a certificate. */
  certified: z.boolean(),
  new: z.boolean(),
});

export const finishConnectionResponse = z.object({
  outcome: z.enum(CONNECTION_RESULTS),
  session_status: z.enum(SESSION_STATUSES),
  /** The keys this connection counted: collected, or configured keys it matched. */
  keys: z.array(countedKey),
  failed_attempts: z.int(),
  max_attempts: z.int(),
  /** Configured keys still to prove (match_all_keys). */
  remaining_keys: z.int(),
  /** The forge accounts whose keys the session expects (`github.com/alice`), for the user. */
  expected_accounts: z._default(z.array(z.string()), []),
});

export const connectionStatusResponse = z.object({
  open: z.boolean(),
  status: z.enum(SESSION_STATUSES),
  expired_at: z.string(),
});

export type OpenConnectionRequest = z.infer<typeof openConnectionRequest>;
export type OpenConnectionResponse = z.infer<typeof openConnectionResponse>;
export type FinishConnectionRequest = z.infer<typeof finishConnectionRequest>;
export type ConnectionProgressRequest = z.infer<typeof connectionProgressRequest>;
export type FinishConnectionResponse = z.infer<typeof finishConnectionResponse>;
export type ConnectionStatusResponse = z.infer<typeof connectionStatusResponse>;
