import { Buffer } from "node:buffer";
import {
  createHash,
  createPublicKey,
  type KeyObject,
  type JsonWebKey as NodeJsonWebKey,
} from "node:crypto";
import { ed25519KeyProblem, rsaKeyProblem } from "./degenerate-keys.ts";
import {
  bitLength,
  decodeBase64Strict,
  mpint,
  SshReader,
  SshWireError,
  sshStrings,
  stripZeros,
  utf8,
} from "./ssh-wire.ts";
import { stripControlCharacters } from "./terminal-text.ts";

/** What we store and show for every public key, configured or collected. */
export interface ParsedPublicKey {
  publicKeySsh: string;
  publicKeyPem: string | null;
  publicKeyMd5: string;
  publicKeySha256: string;
  publicKeyAlgorithm: string;
  publicKeyBits: number;
  comment: string | null;
}

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

const CURVES = {
  "ecdsa-sha2-nistp256": { name: "nistp256", jwk: "P-256", bits: 256 },
  "ecdsa-sha2-nistp384": { name: "nistp384", jwk: "P-384", bits: 384 },
  "ecdsa-sha2-nistp521": { name: "nistp521", jwk: "P-521", bits: 521 },
} as const;
type EcdsaAlgorithm = keyof typeof CURVES;

type DecodedKey =
  | { algorithm: "ssh-ed25519"; ed25519: Uint8Array }
  | { algorithm: EcdsaAlgorithm; point: Uint8Array }
  | { algorithm: "ssh-rsa"; e: Uint8Array; n: Uint8Array };

const PEM_LABELS = ["-----BEGIN PUBLIC KEY-----", "-----BEGIN RSA PUBLIC KEY-----"];

/** Accepts an OpenSSH line, an RFC 4716 block or a PEM public key (SPKI or PKCS#1 RSA). */
export function parsePublicKey(text: string): ParsedPublicKey {
  const input = text.trim();
  if (input.startsWith("---- BEGIN SSH2 PUBLIC KEY ----")) return fromRfc4716(input);
  if (PEM_LABELS.some((label) => input.startsWith(label))) return describe(fromPem(input), null);
  return fromOpenSshLine(input);
}

/** Parses the SSH wire-format public key blob (as sent in SSH_MSG_USERAUTH_REQUEST). */
export function parsePublicKeyBlob(blob: Uint8Array, comment: string | null = null) {
  return describe(decodeBlob(blob), comment);
}

function fromOpenSshLine(line: string): ParsedPublicKey {
  const [type, data, ...rest] = line.split(/\s+/);
  if (!type || !data) {
    throw new PublicKeyError(
      "malformed",
      "Not a public key: expected an OpenSSH line `<type> <base64> [comment]`, an RFC 4716 block or a PEM public key",
    );
  }
  const blob = decodeBase64Strict(data);
  if (!blob) throw new PublicKeyError("malformed", "The key data is not valid base64");
  const key = decodeBlob(blob);
  if (key.algorithm !== type) {
    throw new PublicKeyError(
      "malformed",
      `The key type "${type.slice(0, 64)}" does not match the key data (${key.algorithm})`,
    );
  }
  return describe(key, rest.length > 0 ? rest.join(" ") : null);
}

function fromRfc4716(block: string): ParsedPublicKey {
  const lines = block.split(/\r?\n/).map((line) => line.trim());
  const end = lines.indexOf("---- END SSH2 PUBLIC KEY ----");
  if (end < 0) throw new PublicKeyError("malformed", "The RFC 4716 block has no END line");
  let comment: string | null = null;
  const body: string[] = [];
  let header = "";
  for (const line of lines.slice(1, end)) {
    // Header lines are `Tag: value`; a trailing backslash continues the value on the next line.
    if (header || (body.length === 0 && line.includes(":"))) {
      header += line.endsWith("\\") ? line.slice(0, -1) : line;
      if (line.endsWith("\\")) continue;
      const [tag, ...value] = header.split(":");
      if (tag?.trim().toLowerCase() === "comment") {
        comment = value
          .join(":")
          .trim()
          .replace(/^"(.*)"$/, "$1");
      }
      header = "";
    } else {
      body.push(line);
    }
  }
  const blob = decodeBase64Strict(body.join(""));
  if (!blob) throw new PublicKeyError("malformed", "The RFC 4716 key data is not valid base64");
  return describe(decodeBlob(blob), comment);
}

/** SPKI or PKCS#1 PEM, read by the platform; only the key's numbers are kept. */
function fromPem(pem: string): DecodedKey {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: "pem" });
  } catch {
    throw new PublicKeyError("malformed", "The PEM block is not a public key");
  }
  const jwk = key.export({ format: "jwk" });
  const bytes = (value: string | undefined) =>
    new Uint8Array(Buffer.from(value ?? "", "base64url"));
  switch (key.asymmetricKeyType) {
    case "ed25519":
      return { algorithm: "ssh-ed25519", ed25519: bytes(jwk.x) };
    case "ec": {
      const entry = Object.entries(CURVES).find(([, curve]) => curve.jwk === jwk.crv);
      if (!entry) {
        throw new PublicKeyError(
          "unsupported",
          "Unsupported elliptic curve (use P-256, P-384 or P-521)",
          String(jwk.crv),
        );
      }
      const point = new Uint8Array(Buffer.concat([Uint8Array.of(4), bytes(jwk.x), bytes(jwk.y)]));
      return { algorithm: entry[0] as EcdsaAlgorithm, point };
    }
    case "rsa":
      return { algorithm: "ssh-rsa", e: bytes(jwk.e), n: bytes(jwk.n) };
    case "dsa":
      throw dsaRefusal();
    default:
      throw new PublicKeyError(
        "unsupported",
        "Unsupported PEM key algorithm (use Ed25519, ECDSA or RSA)",
        key.asymmetricKeyType ?? "unknown",
      );
  }
}

const dsaRefusal = () =>
  new PublicKeyError(
    "dsa",
    "DSA keys are not supported (use Ed25519, ECDSA or RSA of 2048 bits or more)",
  );

function decodeBlob(blob: Uint8Array): DecodedKey {
  try {
    const reader = new SshReader(blob);
    const algorithm = reader.text("key type");
    let key: DecodedKey;
    if (algorithm === "ssh-ed25519") {
      key = { algorithm, ed25519: reader.string("Ed25519 key") };
    } else if (algorithm in CURVES) {
      const curve = CURVES[algorithm as EcdsaAlgorithm];
      const name = reader.text("curve name");
      if (name !== curve.name) {
        throw new PublicKeyError(
          "malformed",
          `The curve ${name.slice(0, 64)} does not match ${algorithm}`,
        );
      }
      key = { algorithm: algorithm as EcdsaAlgorithm, point: reader.string("ECDSA point") };
    } else if (algorithm === "ssh-rsa") {
      const e = stripZeros(reader.string("RSA exponent"));
      key = { algorithm, e, n: stripZeros(reader.string("RSA modulus")) };
    } else if (algorithm === "ssh-dss") {
      throw dsaRefusal();
    } else {
      throw new PublicKeyError(
        "unsupported",
        `Unsupported key type "${algorithm.slice(0, 64)}"`,
        algorithm.slice(0, 64),
      );
    }
    if (!reader.done()) throw new PublicKeyError("malformed", "The key data has trailing bytes");
    return key;
  } catch (error) {
    if (error instanceof SshWireError)
      throw new PublicKeyError("malformed", `The key data ${error.message}`);
    throw error;
  }
}

/** Checks the key (the platform's importer refuses bad points and lengths) and derives every field. */
function describe(key: DecodedKey, comment: string | null): ParsedPublicKey {
  let bits: number;
  let keyObject: KeyObject;
  if (key.algorithm === "ssh-ed25519") {
    const problem = ed25519KeyProblem(key.ed25519);
    if (problem) throw new PublicKeyError("degenerate", problem);
    bits = 256;
    keyObject = importJwk({ kty: "OKP", crv: "Ed25519", x: base64Url(key.ed25519) });
  } else if (key.algorithm === "ssh-rsa") {
    bits = bitLength(key.n);
    if (bits < MIN_RSA_BITS) {
      throw new PublicKeyError(
        "rsa_too_short",
        `RSA keys of ${bits} bits are too short; use ${MIN_RSA_BITS} bits or more`,
        bits,
      );
    }
    const problem = rsaKeyProblem(key.e, key.n);
    if (problem) throw new PublicKeyError("degenerate", problem);
    keyObject = importJwk({ kty: "RSA", n: base64Url(key.n), e: base64Url(key.e) });
  } else {
    const curve = CURVES[key.algorithm];
    const size = Math.ceil(curve.bits / 8);
    if (key.point.length !== 1 + 2 * size || key.point[0] !== 4) {
      throw new PublicKeyError(
        "invalid",
        "The ECDSA point must be uncompressed and match its curve",
      );
    }
    bits = curve.bits;
    keyObject = importJwk({
      kty: "EC",
      crv: curve.jwk,
      x: base64Url(key.point.subarray(1, 1 + size)),
      y: base64Url(key.point.subarray(1 + size)),
    });
  }
  const blob = encodeBlob(key);
  return {
    publicKeySsh: `${key.algorithm} ${Buffer.from(blob).toString("base64")}`,
    publicKeyPem: keyObject.export({ type: "spki", format: "pem" }).toString(),
    ...fingerprints(blob),
    publicKeyAlgorithm: key.algorithm,
    publicKeyBits: bits,
    comment: stripControlCharacters(comment ?? "").trim() || null,
  };
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

function importJwk(jwk: NodeJsonWebKey): KeyObject {
  try {
    return createPublicKey({ key: jwk, format: "jwk" });
  } catch {
    throw new PublicKeyError("invalid", "The key data is not a valid public key");
  }
}

const base64Url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

function encodeBlob(key: DecodedKey): Uint8Array {
  if (key.algorithm === "ssh-ed25519") return sshStrings(utf8(key.algorithm), key.ed25519);
  if (key.algorithm === "ssh-rsa")
    return sshStrings(utf8(key.algorithm), mpint(key.e), mpint(key.n));
  return sshStrings(utf8(key.algorithm), utf8(CURVES[key.algorithm].name), key.point);
}
