import { createHash } from "node:crypto";
import ssh2 from "ssh2";

const sshString = (bytes: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};

/** An Ed25519 public key that is the curve's neutral point, and an RSA key with e = 1. */
export const DEGENERATE_KEYS = {
  ed25519Identity: Buffer.concat([
    sshString(Buffer.from("ssh-ed25519")),
    sshString(Buffer.concat([Buffer.from([1]), Buffer.alloc(31)])),
  ]),
  rsaExponentOne: Buffer.concat([
    sshString(Buffer.from("ssh-rsa")),
    sshString(Buffer.from([1])),
    sshString(Buffer.concat([Buffer.from([0]), Buffer.alloc(256, 0xff)])),
  ]),
};

const DIGEST_INFO = {
  sha256: Buffer.from("3031300d060960864801650304020105000420", "hex"),
  sha512: Buffer.from("3051300d060960864801650304020305000440", "hex"),
} as const;

/** With e = 1 the PKCS#1 v1.5 encoding of the digest is its own signature (RFC 8017 §9.2). */
function rsaExponentOneSignature(data: Buffer, hash: "sha256" | "sha512"): Buffer {
  const digest = Buffer.concat([DIGEST_INFO[hash], createHash(hash).update(data).digest()]);
  const modulusBytes = 256;
  const padding = Buffer.alloc(modulusBytes - 3 - digest.length, 0xff);
  return Buffer.concat([Buffer.from([0, 1]), padding, Buffer.from([0]), digest]);
}

/**
 * An agent with no private key that makes signatures anyway: for a small-order Ed25519 point
 * (R = identity, S = 0) and for RSA with e = 1. A bridge that records either proves nothing.
 */
export class ForgingAgent extends ssh2.BaseAgent {
  readonly #blob: Buffer;

  constructor(blob: Buffer) {
    super();
    this.#blob = blob;
  }

  override getIdentities(callback: (error: Error | undefined, keys?: ssh2.ParsedKey[]) => void) {
    const parsed = ssh2.utils.parseKey(this.#blob);
    if (parsed instanceof Error) return callback(parsed);
    callback(undefined, [parsed]);
  }

  override sign(_key: ssh2.ParsedKey, data: Buffer, ...rest: unknown[]) {
    const callback = rest.at(-1) as (error?: Error, signature?: Buffer) => void;
    const options = (typeof rest[0] === "object" ? rest[0] : {}) as { hash?: string };
    if (this.#blob.equals(DEGENERATE_KEYS.ed25519Identity)) {
      return callback(undefined, Buffer.concat([Buffer.from([1]), Buffer.alloc(63)]));
    }
    const hash = options.hash === "sha512" ? "sha512" : "sha256";
    callback(undefined, rsaExponentOneSignature(data, hash));
  }
}
