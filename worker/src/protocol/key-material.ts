import { Buffer } from "node:buffer";
import {
  createHash,
  createPublicKey,
  type KeyObject,
  type JsonWebKey as NodeJsonWebKey,
} from "node:crypto";
import { ed25519KeyProblem, rsaKeyProblem } from "./degenerate-keys.ts";
import { bitLength, mpint, type SshReader, sshStrings, stripZeros, utf8 } from "./ssh-wire.ts";

/**
 * Why a key cannot be used. The message is for the integrator (API errors); the bridge words
 * each code for the SSH user itself.
 */
export const KEY_REFUSALS = [
  "malformed",
  "unsupported",
  "dsa",
  "rsa_too_short",
  "degenerate",
  "invalid",
  "private_key",
] as const;
export type KeyRefusal = (typeof KEY_REFUSALS)[number];

export class PublicKeyError extends Error {
  readonly code: KeyRefusal;
  /** The detail the code needs to be worded: the RSA bits, the unsupported type. */
  readonly detail: string | null;

  constructor(code: KeyRefusal, message: string, detail: string | number | null = null) {
    super(message);
    this.code = code;
    this.detail = detail === null ? null : String(detail);
  }
}

export const MIN_RSA_BITS = 2048;

export const CURVES = {
  nistp256: { jwk: "P-256", bits: 256 },
  nistp384: { jwk: "P-384", bits: 384 },
  nistp521: { jwk: "P-521", bits: 521 },
} as const;
export type Curve = keyof typeof CURVES;

/** The numbers of a public key, whatever its SSH name. */
export type KeyMaterial =
  | { kind: "ed25519"; publicKey: Uint8Array }
  | { kind: "ecdsa"; curve: Curve; point: Uint8Array }
  | { kind: "rsa"; e: Uint8Array; n: Uint8Array };

/** A key as SSH names it; `application` is set for FIDO security keys (`ssh:` by default). */
export interface DecodedKey {
  algorithm: string;
  material: KeyMaterial;
  application: string | null;
}

/** The key algorithms this service proves, each with the shape of its wire-format fields. */
const LAYOUTS: Record<string, { kind: KeyMaterial["kind"]; curve?: Curve; sk?: true }> = {
  "ssh-ed25519": { kind: "ed25519" },
  "ecdsa-sha2-nistp256": { kind: "ecdsa", curve: "nistp256" },
  "ecdsa-sha2-nistp384": { kind: "ecdsa", curve: "nistp384" },
  "ecdsa-sha2-nistp521": { kind: "ecdsa", curve: "nistp521" },
  "ssh-rsa": { kind: "rsa" },
  "sk-ssh-ed25519@openssh.com": { kind: "ed25519", sk: true },
  "sk-ecdsa-sha2-nistp256@openssh.com": { kind: "ecdsa", curve: "nistp256", sk: true },
};

export const isKnownKeyAlgorithm = (algorithm: string) => Object.hasOwn(LAYOUTS, algorithm);

/** Reads the fields that follow a key's type string (in a key blob, or inside a certificate). */
export function readKeyFields(reader: SshReader, algorithm: string): DecodedKey {
  const layout = LAYOUTS[algorithm];
  if (!layout) throw new Error(`no layout for ${algorithm}`);
  let material: KeyMaterial;
  if (layout.kind === "ed25519") {
    material = { kind: "ed25519", publicKey: reader.string("Ed25519 key") };
  } else if (layout.kind === "ecdsa") {
    const curve = reader.text("curve name");
    if (curve !== layout.curve) {
      throw new PublicKeyError(
        "malformed",
        `The curve ${curve.slice(0, 64)} does not match ${algorithm}`,
      );
    }
    material = { kind: "ecdsa", curve, point: reader.string("ECDSA point") };
  } else {
    const e = stripZeros(reader.string("RSA exponent"));
    material = { kind: "rsa", e, n: stripZeros(reader.string("RSA modulus")) };
  }
  const application = layout.sk ? reader.text("security key application") : null;
  return { algorithm, material, application };
}

/** The wire-format blob of a plain key: what fingerprints are taken of. */
export function encodeKey(key: DecodedKey): Uint8Array {
  const { material } = key;
  const fields =
    material.kind === "ed25519"
      ? [material.publicKey]
      : material.kind === "ecdsa"
        ? [utf8(material.curve), material.point]
        : [mpint(material.e), mpint(material.n)];
  const application = key.application === null ? [] : [utf8(key.application)];
  return sshStrings(utf8(key.algorithm), ...fields, ...application);
}

const base64Url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

/** The key as the platform's crypto sees it; importing it checks lengths and curve points. */
export function keyObjectOf(key: DecodedKey): KeyObject {
  const { material } = key;
  let jwk: NodeJsonWebKey;
  if (material.kind === "ed25519") {
    jwk = { kty: "OKP", crv: "Ed25519", x: base64Url(material.publicKey) };
  } else if (material.kind === "rsa") {
    jwk = { kty: "RSA", n: base64Url(material.n), e: base64Url(material.e) };
  } else {
    const size = Math.ceil(CURVES[material.curve].bits / 8);
    jwk = {
      kty: "EC",
      crv: CURVES[material.curve].jwk,
      x: base64Url(material.point.subarray(1, 1 + size)),
      y: base64Url(material.point.subarray(1 + size)),
    };
  }
  try {
    return createPublicKey({ key: jwk, format: "jwk" });
  } catch {
    throw new PublicKeyError("invalid", "The key data is not a valid public key");
  }
}

/** ssh-keygen makes security keys only for applications that begin with `ssh:`. */
const SECURITY_KEY_APPLICATION = /^ssh:[\x20-\x7e]{0,252}$/;

/**
 * The key's size in bits, once it is known to be a key whose signatures prove something: long
 * enough, not degenerate, and a point the platform accepts. Throws a PublicKeyError otherwise.
 */
export function soundKeyBits(key: DecodedKey): number {
  const { material } = key;
  let bits: number;
  if (material.kind === "ed25519") {
    const problem = ed25519KeyProblem(material.publicKey);
    if (problem) throw new PublicKeyError("degenerate", problem);
    bits = 256;
  } else if (material.kind === "rsa") {
    bits = bitLength(material.n);
    if (bits < MIN_RSA_BITS) {
      throw new PublicKeyError(
        "rsa_too_short",
        `RSA keys of ${bits} bits are too short; use ${MIN_RSA_BITS} bits or more`,
        bits,
      );
    }
    const problem = rsaKeyProblem(material.e, material.n);
    if (problem) throw new PublicKeyError("degenerate", problem);
  } else {
    bits = CURVES[material.curve].bits;
    const size = Math.ceil(bits / 8);
    if (material.point.length !== 1 + 2 * size || material.point[0] !== 4) {
      throw new PublicKeyError(
        "invalid",
        "The ECDSA point must be uncompressed and match its curve",
      );
    }
  }
  if (key.application !== null && !SECURITY_KEY_APPLICATION.test(key.application)) {
    throw new PublicKeyError(
      "invalid",
      "A security key's application must begin with `ssh:` and be printable ASCII, as ssh-keygen makes it",
    );
  }
  keyObjectOf(key);
  return bits;
}

/** `SHA256:...` and `MD5:aa:bb:...` of a wire-format blob, as `ssh-keygen -l` prints them. */
export function fingerprints(blob: Uint8Array) {
  const sha256 = createHash("sha256").update(blob).digest("base64").replace(/=+$/, "");
  const md5 = createHash("md5").update(blob).digest("hex");
  return {
    publicKeySha256: `SHA256:${sha256}`,
    publicKeyMd5: `MD5:${md5.match(/../g)?.join(":")}`,
  };
}
