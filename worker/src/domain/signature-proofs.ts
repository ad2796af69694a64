import { Buffer } from "node:buffer";
import type { AuthenticatorData } from "../protocol/signatures.ts";
import {
  DetachedSignatureError,
  detachedSignatureVerifies,
  parseDetachedSignature,
  SIGNATURE_NAMESPACE,
} from "../protocol/sshsig.ts";
import { refusedKeyLines, resultLines } from "../protocol/terminal.ts";
import type { SignatureOutcome } from "./session-commands.ts";

/** Requests to one session's signature URL, and from one address, per minute. */
export const SIGNATURE_LIMITS = { perSession: 10, perAddress: 60 } as const;
/** The largest signature body: an RSA 16384-bit signature with its key stays well below. */
export const MAX_SIGNATURE_BYTES = 16 * 1024;

/** A signature that verified over the challenge: its key and what a security key reported. */
export interface VerifiedSignature {
  /** The signing key's blob, as the signature carries it (a key or a certificate). */
  key: Uint8Array;
  authenticator: AuthenticatorData | null;
}

/**
 * What `sign_command` sends, checked against the session's `challenge`: the signature and its
 * key, or the sentence saying why it cannot count (malformed, another namespace, other data).
 */
export function readSignature(
  armored: string,
  challenge: string,
  namespace = SIGNATURE_NAMESPACE,
): VerifiedSignature | { problem: string } {
  let signature: ReturnType<typeof parseDetachedSignature>;
  try {
    signature = parseDetachedSignature(armored);
  } catch (error) {
    if (error instanceof DetachedSignatureError) return { problem: error.message };
    throw error;
  }
  if (signature.namespace !== namespace) {
    return {
      problem: `This signature is for the namespace "${signature.namespace.slice(0, 64)}"; ${namespace === SIGNATURE_NAMESPACE ? "keyproof's" : "this one"} is made with -n ${namespace}.`,
    };
  }
  // Exactly the challenge, as `printf '%s'` gives it; `echo` adds a newline, which is forgiven.
  const signedChallenge = [challenge, `${challenge}\n`].some((message) =>
    detachedSignatureVerifies(signature, Buffer.from(message)),
  );
  if (!signedChallenge) {
    return {
      problem: `The signature is not over ${namespace === SIGNATURE_NAMESPACE ? "this session's challenge" : "this sign-in code"}, or not by the key it names. Sign exactly: printf '%s' '${challenge}' (a challenge is used up once a proof counts: take the command again).`,
    };
  }
  return { key: signature.publicKey, authenticator: signature.signature.authenticator };
}

/** What the signer reads after a recorded proof: what the SSH user would have read. */
export function signatureAnswerLines(outcome: Extract<SignatureOutcome, { recorded: true }>) {
  return [
    ...refusedKeyLines([outcome.offered]),
    ...resultLines(outcome.kind, outcome.response, [outcome.offered], "signature"),
    ...(outcome.sshMessage ? [outcome.sshMessage] : []),
    ...(outcome.continueUrl ? [`Continue in your browser: ${outcome.continueUrl}`] : []),
  ];
}
