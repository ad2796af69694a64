import type { SessionAuthorityRow, SessionKeyRow, SessionRow } from "../db/sessions.ts";
import type { ProvenKey } from "../domain/connection-rules.ts";
import type { ConnectionReport } from "../domain/session-commands.ts";
import { PublicKeyError } from "../protocol/key-material.ts";
import type { Parsed, ProofRules } from "../protocol/proof-rules.ts";
import { parsePublicKeyBlob } from "../protocol/public-keys.ts";
import { decodeBase64Strict } from "../protocol/ssh-wire.ts";
import type { ConnectionRules } from "./session-record.ts";

/** What a transition reads of a proof before the rules decide: parsed keys, rules, fingerprints. */

/** The session's rules a connection keeps from open to finish, whatever PATCH does meanwhile. */
export const connectionRulesOf = (session: SessionRow): ConnectionRules => ({
  mustConfirm: session.mustConfirm,
  requireSecurityKey: session.requireSecurityKey,
  requireUserVerification: session.requireUserVerification,
});

/** The session's key rules, with the options a connection opened under. */
export function proofRulesOf(
  session: SessionRow,
  given: { keys: SessionKeyRow[]; authorities: SessionAuthorityRow[] },
  rules: ConnectionRules,
): ProofRules {
  return {
    kind: session.kind,
    expected: given.keys.map((key) => key.publicKeySha256),
    authorities: given.authorities.map((key) => key.publicKeySha256),
    principal: session.principal,
    requireSecurityKey: rules.requireSecurityKey,
    requireUserVerification: rules.requireUserVerification,
  };
}

/** Parses the bridge's report; certificates are judged as of `now`, for the client's address. */
export function parseProvenKeys(
  reported: ConnectionReport["keys"],
  now: Date,
  clientAddress: string,
): ProvenKey[] {
  const proven: ProvenKey[] = [];
  for (const { key, security_key } of reported) {
    const blob = decodeBase64Strict(key);
    if (!blob) continue;
    try {
      proven.push({
        key: parsePublicKeyBlob(blob, { now, clientAddress }),
        authenticator: security_key,
      });
    } catch {
      // The bridge only sends keys it parsed and verified; anything else is dropped, not trusted.
    }
  }
  return proven;
}

/** Fingerprints of the security keys among `proven`: their last counters are looked up. */
export const securityKeysOf = (proven: ProvenKey[]) =>
  proven.flatMap(({ key }) => (key.securityKey ? [key.publicKeySha256] : []));

/** A signing key as the bridge would judge an offered one: the key, or why it cannot be used. */
export function parseOffered(blob: Uint8Array, now: Date, clientAddress: string): Parsed {
  try {
    return { key: parsePublicKeyBlob(blob, { now, clientAddress }) };
  } catch (error) {
    if (error instanceof PublicKeyError) return { refusal: error.code, detail: error.detail };
    return { refusal: "malformed", detail: null };
  }
}
