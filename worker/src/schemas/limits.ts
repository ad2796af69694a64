import { MAX_KEYS_PER_CONNECTION } from "../protocol/messages.ts";

/** Every limit a reader might ask about, in one place (the README lists them). */
export const LIMITS = {
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: 64 * 1024,
  /** Length of `ssh_banner` and `ssh_message`, in characters. */
  maxSshLineLength: 2048,
  maxExternalIdLength: 255,
  minTimeoutSeconds: 60,
  maxTimeoutSeconds: 30 * 24 * 60 * 60,
  /** Lifetime of a session created with neither `timeout` nor `expired_at`. */
  defaultTimeoutSeconds: 60 * 60,
  maxKeysPerVerifySession: 50,
  /** Forge accounts in one verification session's `keys_from`. */
  maxKeysFromAccounts: 5,
  maxCertificateAuthorities: 10,
  maxPrincipalLength: 255,
  maxKeysPerConnection: MAX_KEYS_PER_CONNECTION,
  maxAttempts: 1000,
  maxWebhooksPerSession: 10,
  /** Length of `return_url`, in characters. */
  maxReturnUrlLength: 2048,
} as const;

/** How long a project keeps its closed sessions, in days: by default, and at most. */
export const DEFAULT_RETENTION_DAYS = 30;
export const MAX_RETENTION_DAYS = 3650;
