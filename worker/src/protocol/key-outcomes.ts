import { KEY_REFUSALS } from "./key-material.ts";

/**
 * What can become of a key a client offers, as codes both programs share: the bridge words each
 * for the user (terminal.ts), the Worker keeps them on the connection's record.
 */

/** A signature that does not count for how it was made (a touch, a PIN, verify-required). */
export const PRESENCE_REFUSALS = [
  "not_touched",
  "user_verification_required",
  "certificate_verify_required",
] as const;
export type PresenceRefusal = (typeof PRESENCE_REFUSALS)[number];

/**
 * Why a key was refused: the key's own faults, the name its request gave (SHA-1, another key
 * type's), the session's security-key rules, and how its signature was made.
 */
export const KEY_REFUSAL_CODES = [
  ...KEY_REFUSALS,
  "sha1",
  "algorithm_mismatch",
  "security_key_required",
  ...PRESENCE_REFUSALS,
] as const;
export type KeyRefusalCode = (typeof KEY_REFUSAL_CODES)[number];

/** Why a sound key is not one a verification session expects, most specific first. */
export const KEY_MISMATCHES = [
  "not_expected",
  "untrusted_ca",
  "certificate_invalid",
  "certificate_unknown_option",
  "certificate_not_yet_valid",
  "certificate_expired",
  "certificate_source_address",
  "principal_missing",
] as const;
export type KeyMismatch = (typeof KEY_MISMATCHES)[number];

/** Why an offered key did not count: refused, or not expected. A connection records these. */
export const UNCOUNTED_REASONS = [...KEY_REFUSAL_CODES, ...KEY_MISMATCHES] as const;
export type UncountedReason = (typeof UNCOUNTED_REASONS)[number];

export interface ProvenKeyView {
  sha256: string;
  algorithm: string;
  bits: number;
  /** Offered inside an OpenSSH certificate. */
  certified: boolean;
}

/** What became of one key the client offered. */
export type OfferedKey =
  | { sha256: string; fate: "refused"; refusal: KeyRefusalCode; detail: string | null }
  | { sha256: string; fate: "proven" | "unproven"; key: ProvenKeyView }
  | {
      sha256: string;
      fate: "unexpected";
      key: ProvenKeyView;
      mismatch: KeyMismatch;
      /** The date, principal, addresses or options the mismatch names. */
      detail: string | null;
    };

/** The reasons the offered keys did not count, each once: what a connection's record keeps. */
export function uncountedReasons(offered: Iterable<OfferedKey>): UncountedReason[] {
  const reasons = new Set<UncountedReason>();
  for (const key of offered) {
    if (key.fate === "refused") reasons.add(key.refusal);
    if (key.fate === "unexpected") reasons.add(key.mismatch);
  }
  return [...reasons];
}
