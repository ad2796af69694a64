import { createHash, verify } from "node:crypto";
import type { DecodedKey } from "./key-material.ts";
import { keyObjectOf } from "./key-material.ts";
import { concat, SshReader, SshWireError, utf8 } from "./ssh-wire.ts";

/** A security key's report on a signature: user presence and verification, and its counter. */
export interface AuthenticatorData {
  flags: number;
  counter: number;
}

/** User presence (the key was touched) and user verification (a PIN or biometric). */
export const USER_PRESENT = 0x01;
export const USER_VERIFIED = 0x04;

/** An SSH signature (RFC 4253 §6.6): the algorithm, its bytes, and a security key's report. */
export interface SshSignature {
  algorithm: string;
  bytes: Uint8Array;
  authenticator: AuthenticatorData | null;
}

/** Which signature algorithms each key algorithm signs with; ssh-rsa (SHA-1) is never accepted. */
const SIGNATURE_ALGORITHMS: Record<string, string[]> = {
  "ssh-ed25519": ["ssh-ed25519"],
  "ecdsa-sha2-nistp256": ["ecdsa-sha2-nistp256"],
  "ecdsa-sha2-nistp384": ["ecdsa-sha2-nistp384"],
  "ecdsa-sha2-nistp521": ["ecdsa-sha2-nistp521"],
  "ssh-rsa": ["rsa-sha2-256", "rsa-sha2-512"],
  "sk-ssh-ed25519@openssh.com": ["sk-ssh-ed25519@openssh.com"],
  "sk-ecdsa-sha2-nistp256@openssh.com": ["sk-ecdsa-sha2-nistp256@openssh.com"],
};

/** The hash each signature algorithm signs with (Ed25519 hashes inside the algorithm). */
const HASHES: Record<string, string | null> = {
  "ssh-ed25519": null,
  "ecdsa-sha2-nistp256": "sha256",
  "ecdsa-sha2-nistp384": "sha384",
  "ecdsa-sha2-nistp521": "sha512",
  "rsa-sha2-256": "sha256",
  "rsa-sha2-512": "sha512",
  "sk-ssh-ed25519@openssh.com": null,
  "sk-ecdsa-sha2-nistp256@openssh.com": "sha256",
};

/** Parses `string algorithm, string signature` (and, for a security key, `byte flags, uint32 counter`). */
export function parseSignatureBlob(blob: Uint8Array): SshSignature | null {
  try {
    const reader = new SshReader(blob);
    const algorithm = reader.text("signature algorithm");
    const bytes = reader.string("signature");
    const authenticator = algorithm.startsWith("sk-")
      ? { flags: reader.byte("flags"), counter: reader.uint32("counter") }
      : null;
    return reader.done() ? { algorithm, bytes, authenticator } : null;
  } catch (error) {
    if (error instanceof SshWireError) return null;
    throw error;
  }
}

const sha256 = (data: Uint8Array) => new Uint8Array(createHash("sha256").update(data).digest());

/**
 * What a security key signs (OpenSSH's PROTOCOL.u2f, as sshd checks it): SHA-256 of the
 * application, the flags, the counter, and SHA-256 of the data being signed.
 */
export function authenticatorMessage(
  application: string,
  authenticator: AuthenticatorData,
  data: Uint8Array,
): Uint8Array {
  const counter = new Uint8Array(4);
  new DataView(counter.buffer).setUint32(0, authenticator.counter);
  return concat(
    sha256(utf8(application)),
    Uint8Array.of(authenticator.flags),
    counter,
    sha256(data),
  );
}

const MAX_ECDSA_INTEGER = 67;

/** ECDSA's `mpint r, mpint s` as the DER SEQUENCE OpenSSL verifies (mpints are DER INTEGER bodies). */
function ecdsaDer(bytes: Uint8Array): Uint8Array | null {
  try {
    const reader = new SshReader(bytes);
    const r = reader.string("r");
    const s = reader.string("s");
    // P-521's integers are at most 67 bytes; anything longer is not a signature of ours.
    if (!reader.done() || r.length > MAX_ECDSA_INTEGER || s.length > MAX_ECDSA_INTEGER) return null;
    const integer = (value: Uint8Array) => concat(Uint8Array.of(0x02, value.length), value);
    const body = concat(integer(r), integer(s));
    const length = body.length < 0x80 ? [body.length] : [0x81, body.length];
    return concat(Uint8Array.of(0x30, ...length), body);
  } catch {
    return null;
  }
}

/** Whether `signature` over `data` was made with the private half of `key`, as sshd would judge it. */
export function verifySshSignature(
  key: DecodedKey,
  signature: SshSignature,
  data: Uint8Array,
): boolean {
  if (!(SIGNATURE_ALGORITHMS[key.algorithm] ?? []).includes(signature.algorithm)) return false;
  let message = data;
  if (key.application !== null) {
    if (!signature.authenticator) return false;
    message = authenticatorMessage(key.application, signature.authenticator, data);
  }
  const hash = HASHES[signature.algorithm] ?? null;
  let bytes: Uint8Array | null = signature.bytes;
  if (key.material.kind === "ecdsa") bytes = ecdsaDer(signature.bytes);
  if (key.material.kind === "ed25519" && signature.bytes.length !== 64) bytes = null;
  if (!bytes) return false;
  try {
    return verify(hash, message, keyObjectOf(key), bytes);
  } catch {
    return false;
  }
}
