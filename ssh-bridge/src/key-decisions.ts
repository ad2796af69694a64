import {
  type KeyMismatch,
  keyStanding,
  type ProofRules,
  presenceRefusal,
} from "../../worker/src/protocol/proof-rules.ts";
import type { ParsedPublicKey } from "../../worker/src/protocol/public-keys.ts";
import type { AuthenticatorData } from "../../worker/src/protocol/signatures.ts";
import type { KeyRefusalCode, OfferedKey, ProvenKeyView } from "./terminal.ts";

/**
 * "Does this key count?", as pure functions over what the bridge knows: the session's rules, the
 * key, and the request. The connection does the I/O; these decide (ssh-bridge/test has a table).
 * Whether a key counts at all is protocol/proof-rules.ts, which the Worker asks too.
 */

/** The session's rules, as the Worker gave them when the connection opened. */
export interface KeyRules extends ProofRules {
  multiKey: boolean;
  /** The most keys one connection may prove. */
  maxKeys: number;
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
function mismatchDetail(rules: KeyRules, key: ParsedPublicKey, mismatch: KeyMismatch) {
  if (mismatch === "certificate_expired") return key.certificate?.valid_before ?? null;
  if (mismatch === "certificate_not_yet_valid") return key.certificate?.valid_after ?? null;
  if (mismatch === "principal_missing") return rules.principal;
  return null;
}

/**
 * A newly offered key's fate: refused (and why), not one this session expects (and why), or
 * awaiting proof. `blobSha256` names a key that could not be read.
 */
export function judgeKey(
  rules: KeyRules,
  blobSha256: string,
  parsed: Parsed,
  now: Date,
): OfferedKey {
  if ("refusal" in parsed)
    return { sha256: blobSha256, fate: "refused", refusal: parsed.refusal, detail: parsed.detail };
  const { key } = parsed;
  const sha256 = key.publicKeySha256;
  const standing = keyStanding(rules, key, now);
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
  rules: KeyRules,
  offered: { sha256: string; key: ProvenKeyView },
  key: ParsedPublicKey,
  authenticator: AuthenticatorData | null,
): OfferedKey {
  const refusal = presenceRefusal(rules, key, authenticator);
  if (refusal) return { sha256: offered.sha256, fate: "refused", refusal, detail: null };
  return { sha256: offered.sha256, fate: "proven", key: offered.key };
}

/** What a publickey request gets, once the key it names has been judged. */
export type KeyAnswer =
  /** Refused, not expected, already proven, or an SHA-1 signature: try the next key. */
  | "reject"
  /** The unsigned query for a key awaiting proof: "key OK, now sign". */
  | "key_ok"
  /** A signed request for a key awaiting proof: verify the signature. */
  | "check_signature"
  /** One signature too many: the client is cut off. */
  | "cut_off";

export function answerKeyRequest(
  offered: OfferedKey,
  request: { signed: boolean; sha1: boolean },
  signatures: { checked: number; max: number },
): KeyAnswer {
  if (offered.fate !== "unproven" || request.sha1) return "reject";
  if (!request.signed) return "key_ok";
  return signatures.checked >= signatures.max ? "cut_off" : "check_signature";
}

/** Whether the proven keys are enough to let the client in, or it should offer more. */
export function enoughKeysProven(
  rules: KeyRules,
  proven: readonly ParsedPublicKey[],
  now: Date,
): boolean {
  if (!rules.multiKey || proven.length >= rules.maxKeys) return true;
  if (rules.kind !== "verify") return false;
  const fingerprints = new Set(proven.map((key) => key.publicKeySha256));
  // Trusted CAs count as one more key, proven by any valid certificate from one of them.
  const trusted = proven.some((key) => {
    const standing = keyStanding(rules, key, now);
    return standing.counts && standing.trusted;
  });
  return (
    rules.expected.every((sha256) => fingerprints.has(sha256)) &&
    (rules.authorities.length === 0 || trusted)
  );
}
