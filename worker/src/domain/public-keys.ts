import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { decodeBase64Strict, fromBase64Url, toBase64, toBase64Url } from "../lib/encoding.ts";
import { stripControlCharacters } from "../schemas/text.ts";
import { ed25519KeyProblem, rsaKeyProblem } from "./degenerate-keys.ts";

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

/** A key that cannot be used, with a sentence fit to show the integrator. */
export class PublicKeyError extends Error {}

export const MIN_RSA_BITS = 2048;

const CURVES = {
  "ecdsa-sha2-nistp256": {
    name: "nistp256",
    webCrypto: "P-256",
    bits: 256,
    oid: "2a8648ce3d030107",
  },
  "ecdsa-sha2-nistp384": { name: "nistp384", webCrypto: "P-384", bits: 384, oid: "2b81040022" },
  "ecdsa-sha2-nistp521": { name: "nistp521", webCrypto: "P-521", bits: 521, oid: "2b81040023" },
} as const;
type EcdsaAlgorithm = keyof typeof CURVES;

const OID_RSA = "2a864886f70d010101";
const OID_EC = "2a8648ce3d0201";
const OID_ED25519 = "2b6570";

/** Accepts an OpenSSH line, an RFC 4716 block or a PEM public key (SPKI or PKCS#1 RSA). */
export async function parsePublicKey(text: string): Promise<ParsedPublicKey> {
  const input = text.trim();
  if (input.startsWith("---- BEGIN SSH2 PUBLIC KEY ----")) return fromRfc4716(input);
  if (input.startsWith("-----BEGIN PUBLIC KEY-----")) {
    return fromSpki(pemBody(input, "PUBLIC KEY"), null);
  }
  if (input.startsWith("-----BEGIN RSA PUBLIC KEY-----")) {
    return fromSpki(wrapPkcs1(pemBody(input, "RSA PUBLIC KEY")), null);
  }
  return fromOpenSshLine(input);
}

/** Parses the SSH wire-format public key blob (as sent in SSH_MSG_USERAUTH_REQUEST). */
export async function parsePublicKeyBlob(blob: Uint8Array, comment: string | null = null) {
  return describe(await decodeBlob(blob), comment);
}

async function fromOpenSshLine(line: string): Promise<ParsedPublicKey> {
  const [type, data, ...rest] = line.split(/\s+/);
  if (!type || !data) {
    throw new PublicKeyError(
      "Not a public key: expected an OpenSSH line `<type> <base64> [comment]`, an RFC 4716 block or a PEM public key",
    );
  }
  const blob = decodeBase64Strict(data);
  if (!blob) throw new PublicKeyError("The key data is not valid base64");
  const key = await decodeBlob(blob);
  if (key.algorithm !== type) {
    throw new PublicKeyError(
      `The key type "${type}" does not match the key data (${key.algorithm})`,
    );
  }
  return describe(key, rest.length > 0 ? rest.join(" ") : null);
}

async function fromRfc4716(block: string): Promise<ParsedPublicKey> {
  const lines = block.split(/\r?\n/).map((line) => line.trim());
  const end = lines.indexOf("---- END SSH2 PUBLIC KEY ----");
  if (end < 0) throw new PublicKeyError("The RFC 4716 block has no END line");
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
  if (!blob) throw new PublicKeyError("The RFC 4716 key data is not valid base64");
  return describe(await decodeBlob(blob), comment);
}

async function fromSpki(der: Uint8Array, comment: string | null): Promise<ParsedPublicKey> {
  const algorithmOid = readSpkiOids(der);
  let key: DecodedKey;
  if (algorithmOid.algorithm === OID_ED25519) {
    const jwk = await exportJwk(der, { name: "Ed25519" });
    key = { algorithm: "ssh-ed25519", ed25519: fromBase64Url(jwk.x ?? "") };
  } else if (algorithmOid.algorithm === OID_EC) {
    const entry = Object.entries(CURVES).find(([, curve]) => curve.oid === algorithmOid.parameter);
    if (!entry) throw new PublicKeyError("Unsupported elliptic curve (use P-256, P-384 or P-521)");
    const [algorithm, curve] = entry as [EcdsaAlgorithm, (typeof CURVES)[EcdsaAlgorithm]];
    const jwk = await exportJwk(der, { name: "ECDSA", namedCurve: curve.webCrypto });
    const point = concat(Uint8Array.of(4), fromBase64Url(jwk.x ?? ""), fromBase64Url(jwk.y ?? ""));
    key = { algorithm, point };
  } else if (algorithmOid.algorithm === OID_RSA) {
    const jwk = await exportJwk(der, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" });
    key = { algorithm: "ssh-rsa", e: fromBase64Url(jwk.e ?? ""), n: fromBase64Url(jwk.n ?? "") };
  } else {
    throw new PublicKeyError("Unsupported PEM key algorithm (use Ed25519, ECDSA or RSA)");
  }
  return describe(key, comment);
}

type DecodedKey =
  | { algorithm: "ssh-ed25519"; ed25519: Uint8Array }
  | { algorithm: EcdsaAlgorithm; point: Uint8Array }
  | { algorithm: "ssh-rsa"; e: Uint8Array; n: Uint8Array };

async function decodeBlob(blob: Uint8Array): Promise<DecodedKey> {
  const reader = new SshReader(blob);
  const type = reader.string("key type");
  const algorithm = new TextDecoder().decode(type);
  let key: DecodedKey;
  if (algorithm === "ssh-ed25519") {
    key = { algorithm, ed25519: reader.string("Ed25519 key") };
  } else if (algorithm in CURVES) {
    const curve = CURVES[algorithm as EcdsaAlgorithm];
    const name = new TextDecoder().decode(reader.string("curve name"));
    if (name !== curve.name)
      throw new PublicKeyError(`The curve ${name} does not match ${algorithm}`);
    key = { algorithm: algorithm as EcdsaAlgorithm, point: reader.string("ECDSA point") };
  } else if (algorithm === "ssh-rsa") {
    key = {
      algorithm,
      e: stripZeros(reader.string("RSA exponent")),
      n: stripZeros(reader.string("RSA modulus")),
    };
  } else if (algorithm === "ssh-dss") {
    throw new PublicKeyError(
      "DSA keys are not supported (use Ed25519, ECDSA or RSA of 2048 bits or more)",
    );
  } else {
    throw new PublicKeyError(`Unsupported key type "${algorithm.slice(0, 64)}"`);
  }
  if (!reader.done()) throw new PublicKeyError("The key data has trailing bytes");
  return key;
}

/** Checks the key with WebCrypto (which rejects bad points and lengths) and derives every field. */
async function describe(key: DecodedKey, comment: string | null): Promise<ParsedPublicKey> {
  let bits: number;
  let cryptoKey: CryptoKey;
  if (key.algorithm === "ssh-ed25519") {
    const problem = ed25519KeyProblem(key.ed25519);
    if (problem) throw new PublicKeyError(problem);
    bits = 256;
    cryptoKey = await importJwk(
      { kty: "OKP", crv: "Ed25519", x: toBase64Url(key.ed25519) },
      { name: "Ed25519" },
    );
  } else if (key.algorithm === "ssh-rsa") {
    bits = bitLength(key.n);
    if (bits < MIN_RSA_BITS) {
      throw new PublicKeyError(
        `RSA keys of ${bits} bits are too short; use ${MIN_RSA_BITS} bits or more`,
      );
    }
    const problem = rsaKeyProblem(key.e, key.n);
    if (problem) throw new PublicKeyError(problem);
    cryptoKey = await importJwk(
      { kty: "RSA", n: toBase64Url(key.n), e: toBase64Url(key.e) },
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    );
  } else {
    const curve = CURVES[key.algorithm];
    const size = Math.ceil(curve.bits / 8);
    if (key.point.length !== 1 + 2 * size || key.point[0] !== 4) {
      throw new PublicKeyError("The ECDSA point must be uncompressed and match its curve");
    }
    bits = curve.bits;
    cryptoKey = await importJwk(
      {
        kty: "EC",
        crv: curve.webCrypto,
        x: toBase64Url(key.point.subarray(1, 1 + size)),
        y: toBase64Url(key.point.subarray(1 + size)),
      },
      { name: "ECDSA", namedCurve: curve.webCrypto },
    );
  }
  const blob = encodeBlob(key);
  const spki = new Uint8Array((await crypto.subtle.exportKey("spki", cryptoKey)) as ArrayBuffer);
  const sha256 = new Uint8Array(await crypto.subtle.digest("SHA-256", blob));
  // WebCrypto has no MD5 in Node (the bridge shares this module); node:crypto has it in both.
  const md5 = createHash("md5").update(blob).digest();
  return {
    publicKeySsh: `${key.algorithm} ${toBase64(blob)}`,
    publicKeyPem: toPem(spki),
    publicKeyMd5: `MD5:${Array.from(md5, (b) => b.toString(16).padStart(2, "0")).join(":")}`,
    publicKeySha256: `SHA256:${toBase64(sha256).replace(/=+$/, "")}`,
    publicKeyAlgorithm: key.algorithm,
    publicKeyBits: bits,
    comment: stripControlCharacters(comment ?? "").trim() || null,
  };
}

async function importJwk(jwk: JsonWebKey, algorithm: Parameters<SubtleCrypto["importKey"]>[2]) {
  try {
    return await crypto.subtle.importKey("jwk", jwk, algorithm, true, ["verify"]);
  } catch {
    throw new PublicKeyError("The key data is not a valid public key");
  }
}

async function exportJwk(der: Uint8Array, algorithm: Parameters<SubtleCrypto["importKey"]>[2]) {
  try {
    const key = await crypto.subtle.importKey("spki", der, algorithm, true, ["verify"]);
    return (await crypto.subtle.exportKey("jwk", key)) as JsonWebKey;
  } catch {
    throw new PublicKeyError("The PEM data is not a valid public key");
  }
}

function encodeBlob(key: DecodedKey): Uint8Array {
  const text = (value: string) => new TextEncoder().encode(value);
  if (key.algorithm === "ssh-ed25519") return sshStrings(text(key.algorithm), key.ed25519);
  if (key.algorithm === "ssh-rsa")
    return sshStrings(text(key.algorithm), mpint(key.e), mpint(key.n));
  return sshStrings(text(key.algorithm), text(CURVES[key.algorithm].name), key.point);
}

function sshStrings(...parts: Uint8Array[]): Uint8Array {
  return concat(
    ...parts.flatMap((part) => {
      const length = new Uint8Array(4);
      new DataView(length.buffer).setUint32(0, part.length);
      return [length, part];
    }),
  );
}

/** SSH mpint: big-endian, with a leading zero byte when the top bit is set. */
function mpint(value: Uint8Array): Uint8Array {
  const stripped = stripZeros(value);
  return stripped.length > 0 && (stripped[0] ?? 0) & 0x80
    ? concat(Uint8Array.of(0), stripped)
    : stripped;
}

function stripZeros(value: Uint8Array): Uint8Array {
  let start = 0;
  while (start < value.length && value[start] === 0) start++;
  return value.subarray(start);
}

function bitLength(value: Uint8Array): number {
  const stripped = stripZeros(value);
  if (stripped.length === 0) return 0;
  return (stripped.length - 1) * 8 + (32 - Math.clz32(stripped[0] ?? 0));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

function pemBody(pem: string, label: string): Uint8Array {
  const match = pem.match(
    new RegExp(`^-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----$`),
  );
  const der = match?.[1] ? decodeBase64Strict(match[1].replace(/\s+/g, "")) : null;
  if (!der) throw new PublicKeyError(`The PEM ${label} block is malformed`);
  return der;
}

function toPem(der: Uint8Array): string {
  const lines = toBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN PUBLIC KEY-----\n${lines.join("\n")}\n-----END PUBLIC KEY-----\n`;
}

/** PKCS#1 RSAPublicKey inside SubjectPublicKeyInfo, so WebCrypto can read it. */
function wrapPkcs1(pkcs1: Uint8Array): Uint8Array {
  const algorithm = derHex("300d06092a864886f70d0101010500");
  return der(0x30, concat(algorithm, der(0x03, concat(Uint8Array.of(0), pkcs1))));
}

function der(tag: number, content: Uint8Array): Uint8Array {
  const n = content.length;
  const length =
    n < 0x80
      ? [n]
      : n < 0x100
        ? [0x81, n]
        : n < 0x10000
          ? [0x82, n >> 8, n & 0xff]
          : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  return concat(Uint8Array.of(tag, ...length), content);
}

function derHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, "hex"));
}

/** Reads the algorithm OID (and the curve OID for EC) from SubjectPublicKeyInfo. */
function readSpkiOids(spki: Uint8Array): { algorithm: string; parameter: string | null } {
  try {
    const outer = readTlv(spki, 0);
    const algorithmSeq = readTlv(spki, outer.contentStart);
    const oid = readTlv(spki, algorithmSeq.contentStart);
    const next = oid.end < algorithmSeq.end ? readTlv(spki, oid.end) : null;
    const hex = (tlv: Tlv) => Buffer.from(spki.subarray(tlv.contentStart, tlv.end)).toString("hex");
    if (outer.tag !== 0x30 || algorithmSeq.tag !== 0x30 || oid.tag !== 0x06) throw new Error();
    return { algorithm: hex(oid), parameter: next?.tag === 0x06 ? hex(next) : null };
  } catch {
    throw new PublicKeyError("The PEM data is not a SubjectPublicKeyInfo public key");
  }
}

interface Tlv {
  tag: number;
  contentStart: number;
  end: number;
}

function readTlv(bytes: Uint8Array, offset: number): Tlv {
  const tag = bytes[offset];
  let length = bytes[offset + 1];
  if (tag === undefined || length === undefined) throw new Error("truncated DER");
  let contentStart = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 3) throw new Error("unsupported DER length");
    length = 0;
    for (let i = 0; i < count; i++) length = (length << 8) | (bytes[contentStart + i] ?? 0);
    contentStart += count;
  }
  const end = contentStart + length;
  if (end > bytes.length) throw new Error("truncated DER");
  return { tag, contentStart, end };
}

/** Reads SSH wire-format length-prefixed strings. */
class SshReader {
  #offset = 0;
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  string(what: string): Uint8Array {
    if (this.#offset + 4 > this.bytes.length)
      throw new PublicKeyError(`The key data ends before its ${what}`);
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.#offset, 4);
    const length = view.getUint32(0);
    const start = this.#offset + 4;
    if (start + length > this.bytes.length)
      throw new PublicKeyError(`The key data ends inside its ${what}`);
    this.#offset = start + length;
    return this.bytes.subarray(start, start + length);
  }

  done(): boolean {
    return this.#offset === this.bytes.length;
  }
}
