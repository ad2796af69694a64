import type { ParsedPublicKey } from "../../worker/src/protocol/public-keys.ts";
import type { KeyRefusalCode, OfferedKey } from "./terminal.ts";

/**
 * "Does this key count?", as pure functions over what the bridge knows: the session's rules, the
 * key, and the request. The connection does the I/O; these decide (ssh-bridge/test has a table).
 */

/** The session's rules, as the Worker gave them when the connection opened. */
export interface KeyRules {
  kind: "collect" | "verify";
  /** SHA-256 fingerprints of the keys a verification session expects. */
  expected: readonly string[];
  multiKey: boolean;
  /** The most keys one connection may prove. */
  maxKeys: number;
}

/** What parsing a newly offered key gave: the key, or why it cannot be used. */
export type Parsed = { key: ParsedPublicKey } | { refusal: KeyRefusalCode; detail: string | null };

/** A newly offered key's fate: refused (and why), not one this session expects, or awaiting proof. */
export function judgeKey(rules: KeyRules, sha256: string, parsed: Parsed): OfferedKey {
  if ("refusal" in parsed)
    return { sha256, fate: "refused", refusal: parsed.refusal, detail: parsed.detail };
  const { key } = parsed;
  const view = { sha256, algorithm: key.publicKeyAlgorithm, bits: key.publicKeyBits };
  const expected = rules.kind === "collect" || rules.expected.includes(sha256);
  return { sha256, fate: expected ? "unproven" : "unexpected", key: view };
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
export function enoughKeysProven(rules: KeyRules, proven: ReadonlySet<string>): boolean {
  if (!rules.multiKey) return true;
  if (proven.size >= rules.maxKeys) return true;
  return rules.kind === "verify" && rules.expected.every((sha256) => proven.has(sha256));
}
