import { createHash } from "node:crypto";
import { blobSignatureVerifies } from "./public-keys.ts";
import { parseSignatureBlob, type SshSignature } from "./signatures.ts";
import {
  concat,
  decodeBase64Strict,
  SshReader,
  SshWireError,
  sshStrings,
  utf8,
} from "./ssh-wire.ts";

/**
 * OpenSSH's detached signatures (`ssh-keygen -Y sign`, PROTOCOL.sshsig): what a user without SSH
 * access sends instead of a connection. Verified here, with the same key and signature code the
 * bridge uses, so every key type it accepts works (security keys included).
 */

/** The namespace keyproof's challenges are signed in (`-n keyproof`). */
export const SIGNATURE_NAMESPACE = "keyproof";

const MAGIC = "SSHSIG";
const VERSION = 1;
const BEGIN = "-----BEGIN SSH SIGNATURE-----";
const END = "-----END SSH SIGNATURE-----";
const HASHES = ["sha256", "sha512"] as const;

/** A detached signature, read from its armor. */
export interface DetachedSignature {
  /** The signer's key blob (a plain key, or a certificate). */
  publicKey: Uint8Array;
  namespace: string;
  hashAlgorithm: (typeof HASHES)[number];
  signature: SshSignature;
}

/** Why a body is not a usable detached signature; the message is the sentence for the user. */
export class DetachedSignatureError extends Error {}

const damaged = (what: string) =>
  new DetachedSignatureError(`The SSH signature is damaged: ${what}. Run the command again.`);

/** Reads the armored output of `ssh-keygen -Y sign`. */
export function parseDetachedSignature(text: string): DetachedSignature {
  const trimmed = text.trim();
  if (!trimmed.startsWith(BEGIN) || !trimmed.endsWith(END)) {
    throw new DetachedSignatureError(
      `That is not an SSH signature: send what ssh-keygen -Y sign prints, from ${BEGIN} to ${END}.`,
    );
  }
  const body = trimmed.slice(BEGIN.length, -END.length).replace(/\s+/g, "");
  const blob = decodeBase64Strict(body);
  if (!blob) throw damaged("its base64 does not decode");
  try {
    const reader = new SshReader(blob);
    if (new TextDecoder().decode(blob.subarray(0, MAGIC.length)) !== MAGIC)
      throw damaged("it does not begin with SSHSIG");
    reader.skip(MAGIC.length);
    const version = reader.uint32("version");
    if (version !== VERSION) {
      throw new DetachedSignatureError(
        `SSH signatures of version ${version} are not supported (version ${VERSION} is).`,
      );
    }
    const publicKey = reader.string("public key");
    const namespace = reader.text("namespace");
    reader.string("reserved");
    const hashAlgorithm = reader.text("hash algorithm");
    const signature = parseSignatureBlob(reader.string("signature"));
    if (!reader.done()) throw damaged("it has bytes after the signature");
    if (!signature) throw damaged("its signature cannot be read");
    if (!HASHES.includes(hashAlgorithm as (typeof HASHES)[number])) {
      throw new DetachedSignatureError(
        `The hash algorithm ${hashAlgorithm.slice(0, 32)} is not supported; ssh-keygen's sha512 and sha256 are.`,
      );
    }
    return {
      publicKey,
      namespace,
      hashAlgorithm: hashAlgorithm as (typeof HASHES)[number],
      signature,
    };
  } catch (error) {
    if (error instanceof SshWireError) throw damaged(`it ${error.message}`);
    throw error;
  }
}

/** What the key signed: the preamble, namespace, hash algorithm and the hash of the message. */
export function signedData(signature: DetachedSignature, message: Uint8Array): Uint8Array {
  const hash = new Uint8Array(createHash(signature.hashAlgorithm).update(message).digest());
  return concat(
    utf8(MAGIC),
    sshStrings(utf8(signature.namespace), new Uint8Array(0), utf8(signature.hashAlgorithm), hash),
  );
}

/** Whether `signature` was made by its key over exactly `message`. */
export function detachedSignatureVerifies(
  signature: DetachedSignature,
  message: Uint8Array,
): boolean {
  return blobSignatureVerifies(
    signature.publicKey,
    signature.signature,
    signedData(signature, message),
  );
}
