import {
  type CertificateProblem,
  KNOWN_CRITICAL_OPTIONS,
  VERIFY_REQUIRED,
} from "./certificates.ts";
import type {
  KeyMismatch,
  KeyRefusalCode,
  OfferedKey,
  PresenceRefusal,
  ProvenKeyView,
} from "./key-outcomes.ts";
import type { SessionKind } from "./messages.ts";
import type { ParsedPublicKey } from "./public-keys.ts";
import { type AuthenticatorData, USER_PRESENT, USER_VERIFIED } from "./signatures.ts";
import { escapeUntrustedText } from "./terminal-text.ts";

/**
 * "Does this proven key count in this session?", decided once for both sides: the bridge asks
 * before it requests a signature and words the answer, the Worker asks again before it records.
 */

/** A session's rules for keys, as they stood when the connection opened. */
export interface ProofRules {
  kind: SessionKind;
  /** SHA-256 fingerprints of the keys a verification session expects. */
  expected: readonly string[];
  /** SHA-256 fingerprints of the certificate authorities a verification session trusts. */
  authorities: readonly string[];
  /** A principal a trusted certificate must list; null for any. */
  principal: string | null;
  requireSecurityKey: boolean;
  requireUserVerification: boolean;
}

/**
 * What the key is, before any signature: counted (as an expected key, through a trusted CA's
 * certificate, or both), refused, or not one this session expects and why.
 */
export type KeyStanding =
  | { counts: true; expected: boolean; trusted: boolean }
  | { counts: false; refusal: "security_key_required" }
  | { counts: false; mismatch: KeyMismatch };

export function keyStanding(rules: ProofRules, key: ParsedPublicKey): KeyStanding {
  if (rules.requireSecurityKey && key.securityKey === null)
    return { counts: false, refusal: "security_key_required" };
  const expected = rules.kind === "collect" || rules.expected.includes(key.publicKeySha256);
  const problem = certificateProblem(rules, key);
  if (expected || problem === null) return { counts: true, expected, trusted: problem === null };
  return { counts: false, mismatch: problem };
}

/** How each reason a certificate is not valid reads as a mismatch. */
const CERTIFICATE_MISMATCHES: Record<CertificateProblem, KeyMismatch> = {
  ca_signature: "certificate_invalid",
  host_certificate: "certificate_invalid",
  unknown_critical_option: "certificate_unknown_option",
  not_yet_valid: "certificate_not_yet_valid",
  expired: "certificate_expired",
  source_address: "certificate_source_address",
};

/**
 * Why the key's certificate does not make it count in a verification session, or null if it
 * does: trust follows the certificate's `valid`, as sshd's does.
 */
function certificateProblem(rules: ProofRules, key: ParsedPublicKey): KeyMismatch | null {
  const { certificate } = key;
  if (rules.kind === "collect" || !certificate || rules.authorities.length === 0)
    return "not_expected";
  if (!rules.authorities.includes(certificate.ca_public_key_sha256)) return "untrusted_ca";
  if (certificate.invalid_reason !== null)
    return CERTIFICATE_MISMATCHES[certificate.invalid_reason];
  // As sshd does for a trusted CA: a certificate names the principals it is good for. Its
  // principals are stored escaped, and escaping is one-to-one.
  if (
    rules.principal !== null &&
    !certificate.principals.includes(escapeUntrustedText(rules.principal))
  )
    return "principal_missing";
  return null;
}

/**
 * Why a signature does not count for how it was made, or null when it does: a security key's
 * touch and PIN, and a certificate's `verify-required`, which only a security key's signature
 * with the user-verified flag meets (as sshd checks it).
 */
export function presenceRefusal(
  rules: ProofRules,
  key: ParsedPublicKey,
  authenticator: AuthenticatorData | null,
): PresenceRefusal | null {
  const verified = authenticator !== null && (authenticator.flags & USER_VERIFIED) !== 0;
  if (key.certificate && VERIFY_REQUIRED in key.certificate.critical_options && !verified)
    return "certificate_verify_required";
  if (key.securityKey === null) return null;
  // sshd's default: a signature made without a touch proves the key, not that someone held it.
  if (!authenticator || (authenticator.flags & USER_PRESENT) === 0) return "not_touched";
  if (rules.requireUserVerification && (authenticator.flags & USER_VERIFIED) === 0)
    return "user_verification_required";
  return null;
}

/**
 * A proven security key's record: the flags and counter of its signature. The counter should
 * grow with every signature; one not above the last seen for this key suggests a clone. As
 * WebAuthn says, an authenticator that keeps its counter at 0 has none, which is no sign.
 */
export function provenSecurityKey(
  key: ParsedPublicKey,
  authenticator: AuthenticatorData,
  lastCounter: number | null,
): ParsedPublicKey["securityKey"] {
  if (key.securityKey === null) return null;
  const { counter, flags } = authenticator;
  const regressed =
    lastCounter !== null && (counter !== 0 || lastCounter !== 0) && counter <= lastCounter;
  return {
    application: key.securityKey.application,
    user_present: (flags & USER_PRESENT) !== 0,
    user_verified: (flags & USER_VERIFIED) !== 0,
    counter,
    counter_regressed: regressed,
  };
}

/** What parsing a newly offered key gave: the key, or why it cannot be used. */
export type Parsed = { key: ParsedPublicKey } | { refusal: KeyRefusalCode; detail: string | null };

/** What the terminal shows of a key. */
export const keyView = (key: ParsedPublicKey): ProvenKeyView => ({
  sha256: key.publicKeySha256,
  algorithm: key.publicKeyAlgorithm,
  bits: key.publicKeyBits,
  certified: key.certificate !== null,
});

/** What the terminal needs to word a mismatch: the date passed, or the principal missing. */
function mismatchDetail(rules: ProofRules, key: ParsedPublicKey, mismatch: KeyMismatch) {
  if (mismatch === "certificate_expired") return key.certificate?.valid_before ?? null;
  if (mismatch === "certificate_not_yet_valid") return key.certificate?.valid_after ?? null;
  if (mismatch === "principal_missing") return rules.principal;
  if (mismatch === "certificate_source_address")
    return key.certificate?.critical_options["source-address"] ?? null;
  if (mismatch === "certificate_unknown_option") {
    const names = Object.keys(key.certificate?.critical_options ?? {});
    return names.filter((name) => !KNOWN_CRITICAL_OPTIONS.has(name)).join(", ");
  }
  return null;
}

/**
 * A newly offered key's fate: refused (and why), not one this session expects (and why), or
 * awaiting proof. `blobSha256` names a key that could not be read.
 */
export function judgeKey(rules: ProofRules, blobSha256: string, parsed: Parsed): OfferedKey {
  if ("refusal" in parsed)
    return { sha256: blobSha256, fate: "refused", refusal: parsed.refusal, detail: parsed.detail };
  const { key } = parsed;
  const sha256 = key.publicKeySha256;
  const standing = keyStanding(rules, key);
  if (standing.counts) return { sha256, fate: "unproven", key: keyView(key) };
  if ("refusal" in standing)
    return { sha256, fate: "refused", refusal: standing.refusal, detail: null };
  const { mismatch } = standing;
  return {
    sha256,
    fate: "unexpected",
    key: keyView(key),
    mismatch,
    detail: mismatchDetail(rules, key, mismatch),
  };
}

/** A key awaiting proof, once its signature verified: proven, or refused for how it was made. */
export function judgeProof(
  rules: ProofRules,
  offered: { sha256: string; key: ProvenKeyView },
  key: ParsedPublicKey,
  authenticator: AuthenticatorData | null,
): OfferedKey {
  const refusal = presenceRefusal(rules, key, authenticator);
  if (refusal) return { sha256: offered.sha256, fate: "refused", refusal, detail: null };
  return { sha256: offered.sha256, fate: "proven", key: offered.key };
}
