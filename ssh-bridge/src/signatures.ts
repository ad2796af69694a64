import ssh2 from "ssh2";
import { CERTIFICATE_ALGORITHMS } from "../../worker/src/protocol/certificates.ts";
import { blobSignatureVerifies } from "../../worker/src/protocol/public-keys.ts";
import {
  type AuthenticatorData,
  parseSignatureBlob,
  type SshSignature,
} from "../../worker/src/protocol/signatures.ts";

/** A signed publickey request as ssh2 hands it over. */
export interface SignedRequest {
  /** The algorithm the request names, as the client sent it (see requestAlgorithmOf). */
  algorithm: string;
  /** The key blob: a plain key or a certificate. */
  key: Buffer;
  /** The signature, as ssh2 left it (see signatureOf). */
  signature: Buffer;
  /** What the client signed: session id and request (RFC 4252 §7). */
  data: Buffer;
}

/** A verified signature, and what a security key reported with it. */
export type Proof =
  | { verified: false }
  | { verified: true; authenticator: AuthenticatorData | null };

/**
 * The algorithm a publickey request names, as the client sent it: ssh2 reports rsa-sha2-256/512
 * as `ssh-rsa` with a `hashAlgo`, which is put back here.
 */
export function requestAlgorithmOf(request: { key: { algo: string }; hashAlgo?: string }): string {
  if (request.key.algo === "ssh-rsa" && request.hashAlgo === "sha256") return "rsa-sha2-256";
  if (request.key.algo === "ssh-rsa" && request.hashAlgo === "sha512") return "rsa-sha2-512";
  return request.key.algo;
}

/** The request algorithms each RSA blob type may be signed under; SHA-1 (`ssh-rsa`) is not one. */
const RSA_REQUEST_ALGORITHMS: Record<string, { sha1: string; allowed: string[] }> = {
  "ssh-rsa": { sha1: "ssh-rsa", allowed: ["rsa-sha2-256", "rsa-sha2-512"] },
  "ssh-rsa-cert-v01@openssh.com": {
    sha1: "ssh-rsa-cert-v01@openssh.com",
    allowed: ["rsa-sha2-256-cert-v01@openssh.com", "rsa-sha2-512-cert-v01@openssh.com"],
  },
};

/**
 * Why a request's algorithm cannot go with its key blob, as sshd decides it: the request must
 * name the blob's own type (an RSA blob: rsa-sha2-256 or -512), and SHA-1 is refused. The
 * signature is then checked under that name alone, so no label can lead to a SHA-1 check.
 */
export function requestAlgorithmRefusal(
  requestAlgorithm: string,
  blobType: string,
): "sha1" | "algorithm_mismatch" | null {
  const rsa = RSA_REQUEST_ALGORITHMS[blobType];
  if (rsa) {
    if (requestAlgorithm === rsa.sha1) return "sha1";
    return rsa.allowed.includes(requestAlgorithm) ? null : "algorithm_mismatch";
  }
  return requestAlgorithm === blobType ? null : "algorithm_mismatch";
}

/** The hash an RSA request's signature is made with; other key types carry their own. */
const RSA_HASHES: Record<string, "sha256" | "sha512"> = {
  "rsa-sha2-256": "sha256",
  "rsa-sha2-512": "sha512",
};

/** The flags byte and counter that follow a security key's signature. */
const AUTHENTICATOR_BYTES = 5;

/** RSA certificates are offered under the name of the signature's hash. */
const RSA_CERTIFICATE_SIGNATURES: Record<string, string> = {
  "rsa-sha2-256-cert-v01@openssh.com": "rsa-sha2-256",
  "rsa-sha2-512-cert-v01@openssh.com": "rsa-sha2-512",
};

/**
 * The signature as it was sent. ssh2 strips a signature's `string algorithm, string length`
 * prefix when the algorithm is the request's, which for a security key leaves the signature
 * followed by flags and counter; certificates (signed under their key's name) arrive whole.
 */
function signatureOf(request: SignedRequest, keyType: string): SshSignature | null {
  if (keyType in CERTIFICATE_ALGORITHMS) {
    const expected =
      RSA_CERTIFICATE_SIGNATURES[request.algorithm] ??
      (request.algorithm === keyType ? CERTIFICATE_ALGORITHMS[keyType] : undefined);
    const signature = parseSignatureBlob(request.signature);
    return signature && signature.algorithm === expected ? signature : null;
  }
  if (request.algorithm !== keyType || request.signature.length <= AUTHENTICATOR_BYTES) return null;
  const end = request.signature.length - AUTHENTICATOR_BYTES;
  return {
    algorithm: keyType,
    bytes: request.signature.subarray(0, end),
    authenticator: {
      flags: request.signature[end] ?? 0,
      counter: request.signature.readUInt32BE(end + 1),
    },
  };
}

/**
 * Whether the request's signature verifies with its key, as sshd would judge it; the request's
 * algorithm must already have passed requestAlgorithmRefusal. ssh2 verifies the plain key types
 * (with the hash the request names, never its SHA-1 default); security keys and certificates,
 * which it cannot read, are verified by the shared protocol code.
 */
export function verifySignedRequest(request: SignedRequest, keyType: string): Proof {
  if (requestAlgorithmRefusal(request.algorithm, keyType) !== null) return { verified: false };
  if (keyType.startsWith("sk-") || keyType in CERTIFICATE_ALGORITHMS) {
    const signature = signatureOf(request, keyType);
    if (!signature || !blobSignatureVerifies(request.key, signature, request.data))
      return { verified: false };
    return { verified: true, authenticator: signature.authenticator };
  }
  const publicKey = ssh2.utils.parseKey(request.key);
  const verified =
    !(publicKey instanceof Error) &&
    publicKey.verify(request.data, request.signature, RSA_HASHES[request.algorithm]) === true;
  return verified ? { verified, authenticator: null } : { verified: false };
}
