import type { ParsedPublicKey } from "../protocol/public-keys.ts";

/** A stored public key on the wire: the fields every key record shares (schemas/public-keys.ts describes each). */
export function publicKeyView(key: ParsedPublicKey & { id: string }) {
  return {
    id: key.id,
    public_key_ssh: key.publicKeySsh,
    public_key_pem: key.publicKeyPem,
    public_key_md5: key.publicKeyMd5,
    public_key_sha256: key.publicKeySha256,
    public_key_algorithm: key.publicKeyAlgorithm,
    public_key_bits: key.publicKeyBits,
    comment: key.comment,
    security_key: key.securityKey,
    certificate: key.certificate,
  };
}
