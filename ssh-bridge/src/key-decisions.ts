import type { OfferedKey } from "../../worker/src/protocol/key-outcomes.ts";
import { keyStanding, type ProofRules } from "../../worker/src/protocol/proof-rules.ts";
import type { ParsedPublicKey } from "../../worker/src/protocol/public-keys.ts";

/**
 * "Does this key count?", as pure functions over what the bridge knows: the session's rules, the
 * key, and the request. The connection does the I/O; these decide (ssh-bridge/test has a table).
 * Whether a key counts at all, and its fate, is protocol/proof-rules.ts, which the Worker asks too.
 */

/** The session's rules, as the Worker gave them when the connection opened. */
export interface KeyRules extends ProofRules {
  multiKey: boolean;
  /** The most keys one connection may prove. */
  maxKeys: number;
}

/** What a publickey request gets, once the key it names has been judged. */
export type KeyAnswer =
  /** Refused, not expected, already proven, or a request under a refused algorithm: try the next key. */
  | "reject"
  /** The unsigned query for a key awaiting proof: "key OK, now sign". */
  | "key_ok"
  /** A signed request for a key awaiting proof: verify the signature. */
  | "check_signature"
  /** One signature too many: the client is cut off. */
  | "cut_off";

export function answerKeyRequest(
  offered: OfferedKey,
  request: { signed: boolean; algorithmRefused: boolean },
  signatures: { checked: number; max: number },
): KeyAnswer {
  if (offered.fate !== "unproven" || request.algorithmRefused) return "reject";
  if (!request.signed) return "key_ok";
  return signatures.checked >= signatures.max ? "cut_off" : "check_signature";
}

/** Whether the proven keys are enough to let the client in, or it should offer more. */
export function enoughKeysProven(rules: KeyRules, proven: readonly ParsedPublicKey[]): boolean {
  if (!rules.multiKey || proven.length >= rules.maxKeys) return true;
  if (rules.kind !== "verify") return false;
  const fingerprints = new Set(proven.map((key) => key.publicKeySha256));
  // Trusted CAs count as one more key, proven by any valid certificate from one of them.
  const trusted = proven.some((key) => {
    const standing = keyStanding(rules, key);
    return standing.counts && standing.trusted;
  });
  return (
    rules.expected.every((sha256) => fingerprints.has(sha256)) &&
    (rules.authorities.length === 0 || trusted)
  );
}
