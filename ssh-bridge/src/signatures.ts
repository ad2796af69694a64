import ssh2 from "ssh2";

/**
 * Whether `signature` over `data` verifies with the public key `blob`. ssh2 verifies every type
 * the bridge accepts (RSA signatures name their hash: rsa-sha2-256/512).
 */
export function signatureVerifies(
  blob: Buffer,
  data: Buffer,
  signature: Buffer,
  hashAlgo: string | undefined,
): boolean {
  const publicKey = ssh2.utils.parseKey(blob);
  return !(publicKey instanceof Error) && publicKey.verify(data, signature, hashAlgo) === true;
}
