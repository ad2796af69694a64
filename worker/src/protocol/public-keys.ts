import { Buffer } from "node:buffer";
import { createPublicKey, type JsonWebKey, type KeyObject } from "node:crypto";
import {
  type CertificateRecord,
  type CertificateUse,
  isCertificateAlgorithm,
  readCertificate,
} from "./certificates.ts";
import {
  CURVES,
  type Curve,
  type DecodedKey,
  encodeKey,
  fingerprints,
  isKnownKeyAlgorithm,
  keyObjectOf,
  PublicKeyError,
  readKeyFields,
  soundKeyBits,
} from "./key-material.ts";
import { type SshSignature, verifySshSignature } from "./signatures.ts";
import { decodeBase64Strict, SshReader, SshWireError } from "./ssh-wire.ts";
import { stripControlCharacters } from "./terminal-text.ts";

/**
 * A FIDO security key's part of a key record: the application its key was made for, and for a
 * proof, what the authenticator reported (null on a configured key not yet proven).
 */
export interface SecurityKeyRecord {
  application: string;
  user_present: boolean | null;
  user_verified: boolean | null;
  counter: number | null;
  counter_regressed: boolean | null;
}

/** What we store and show for every public key, configured or collected. */
export interface ParsedPublicKey {
  publicKeySsh: string;
  publicKeyPem: string | null;
  publicKeyMd5: string;
  publicKeySha256: string;
  publicKeyAlgorithm: string;
  publicKeyBits: number;
  comment: string | null;
  securityKey: SecurityKeyRecord | null;
  /** Set when the key was offered inside an OpenSSH certificate. */
  certificate: CertificateRecord | null;
}

const PEM_LABELS = ["-----BEGIN PUBLIC KEY-----", "-----BEGIN RSA PUBLIC KEY-----"];
const PEM_BLOCK = /^-----BEGIN ([A-Z0-9 ]+)-----\r?\n[A-Za-z0-9+/=\r\n]+-----END \1-----$/;

/**
 * Private keys in every format keyproof could be handed one: OpenSSH, PEM (PKCS#1, SEC1, DSA,
 * PKCS#8, encrypted or not), PuTTY, and SSH.COM's export.
 */
const PRIVATE_KEY_MARKERS = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/,
  /PuTTY-User-Key-File-\d+:/,
  /---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----/,
];

export const PRIVATE_KEY_MESSAGE =
  "This is a private key: keep it secret and paste the public key (the .pub file) instead";

/** Whether `text` holds a private key; such text is never echoed, logged or stored. */
export const isPrivateKeyText = (text: string) =>
  PRIVATE_KEY_MARKERS.some((marker) => marker.test(text));

/**
 * Accepts an OpenSSH line, an RFC 4716 block or a PEM public key (SPKI or PKCS#1 RSA): a key
 * given in advance. Certificates are refused: what they prove is their CA's to say.
 */
export function parsePublicKey(text: string): ParsedPublicKey {
  if (isPrivateKeyText(text)) throw new PublicKeyError("private_key", PRIVATE_KEY_MESSAGE);
  const input = text.trim();
  if (input.startsWith("---- BEGIN SSH2 PUBLIC KEY ----")) return fromRfc4716(input);
  if (PEM_LABELS.some((label) => input.startsWith(label))) return describe(fromPem(input), null);
  return fromOpenSshLine(input);
}

/**
 * Parses a wire-format key blob as a client offers it (SSH_MSG_USERAUTH_REQUEST): a plain key,
 * or a certificate, read as the key it certifies plus what it says, valid or not as of `now` for
 * a client at `clientAddress` (a certificate with `source-address` is invalid from an unknown one).
 */
export function parsePublicKeyBlob(
  blob: Uint8Array,
  use: { comment?: string | null; now?: Date; clientAddress?: string | null } = {},
): ParsedPublicKey {
  const { key, certificate } = decodeBlob(blob, {
    now: use.now ?? new Date(),
    clientAddress: use.clientAddress ?? null,
  });
  return describe(key, use.comment ?? null, certificate);
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
  const key = decodePlainBlob(blob);
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
  return describe(decodePlainBlob(blob), comment);
}

/** The bytes a PEM block's base64 holds. */
function pemBody(pem: string): Uint8Array {
  const base64 = pem.split(/\r?\n/).slice(1, -1).join("");
  return new Uint8Array(Buffer.from(base64, "base64"));
}

/**
 * Whether `der` is one DER value (a SEQUENCE) and nothing after it: the platform reads the first
 * value and ignores what follows, which must not be let through as part of a key.
 */
function isOneDerValue(der: Uint8Array): boolean {
  if (der[0] !== 0x30 || der.length < 2) return false;
  const first = der[1] ?? 0;
  if (first < 0x80) return der.length === 2 + first;
  const lengthBytes = first & 0x7f;
  if (lengthBytes === 0 || lengthBytes > 4 || der.length < 2 + lengthBytes) return false;
  let length = 0;
  for (let i = 0; i < lengthBytes; i++) length = length * 256 + (der[2 + i] ?? 0);
  return der.length === 2 + lengthBytes + length;
}

/**
 * SPKI or PKCS#1 PEM, read by the platform; only the key's numbers are kept. The block must be
 * the whole text, and its algorithm one keyproof proves, before anything is exported from it.
 */
function fromPem(pem: string): DecodedKey {
  if (!PEM_BLOCK.test(pem) || !isOneDerValue(pemBody(pem)))
    throw new PublicKeyError("malformed", "The PEM block is not a single, whole public key");
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: "pem" });
  } catch {
    throw new PublicKeyError("malformed", "The PEM block is not a public key");
  }
  if (key.asymmetricKeyType === "dsa") throw dsaRefusal();
  if (!["ed25519", "ec", "rsa"].includes(key.asymmetricKeyType ?? "")) {
    throw new PublicKeyError(
      "unsupported",
      `Unsupported PEM key algorithm ${key.asymmetricKeyType ?? "unknown"} (use Ed25519, ECDSA or RSA)`,
      key.asymmetricKeyType ?? "unknown",
    );
  }
  let jwk: JsonWebKey;
  try {
    jwk = key.export({ format: "jwk" });
  } catch {
    throw new PublicKeyError("malformed", "The PEM block is not a public key keyproof can read");
  }
  const bytes = (value: string | undefined) =>
    new Uint8Array(Buffer.from(value ?? "", "base64url"));
  const plain = (material: DecodedKey["material"], algorithm: string): DecodedKey => ({
    algorithm,
    material,
    application: null,
  });
  switch (key.asymmetricKeyType) {
    case "ed25519":
      return plain({ kind: "ed25519", publicKey: bytes(jwk.x) }, "ssh-ed25519");
    case "ec": {
      const entry = Object.entries(CURVES).find(([, curve]) => curve.jwk === jwk.crv);
      if (!entry) {
        throw new PublicKeyError(
          "unsupported",
          "Unsupported elliptic curve (use P-256, P-384 or P-521)",
          String(jwk.crv),
        );
      }
      const curve = entry[0] as Curve;
      const point = new Uint8Array(Buffer.concat([Uint8Array.of(4), bytes(jwk.x), bytes(jwk.y)]));
      return plain({ kind: "ecdsa", curve, point }, `ecdsa-sha2-${curve}`);
    }
    default:
      return plain({ kind: "rsa", e: bytes(jwk.e), n: bytes(jwk.n) }, "ssh-rsa");
  }
}

const dsaRefusal = () =>
  new PublicKeyError(
    "dsa",
    "DSA keys are not supported (use Ed25519, ECDSA or RSA of 2048 bits or more)",
  );

/** A key given in advance must be a key: a certificate's worth is its CA's to say. */
function decodePlainBlob(blob: Uint8Array): DecodedKey {
  const { key, certificate } = decodeBlob(blob, { now: new Date(), clientAddress: null });
  if (certificate) {
    throw new PublicKeyError(
      "unsupported",
      "This is an OpenSSH certificate: give the key it certifies, or trust its CA with certificate_authorities",
      "certificate",
    );
  }
  return key;
}

function decodeBlob(
  blob: Uint8Array,
  use: CertificateUse,
): { key: DecodedKey; certificate: CertificateRecord | null } {
  try {
    const reader = new SshReader(blob);
    const algorithm = reader.text("key type");
    let decoded: { key: DecodedKey; certificate: CertificateRecord | null };
    if (isKnownKeyAlgorithm(algorithm)) {
      decoded = { key: readKeyFields(reader, algorithm), certificate: null };
    } else if (isCertificateAlgorithm(algorithm)) {
      decoded = readCertificate(reader, blob, algorithm, use);
    } else if (algorithm === "ssh-dss" || algorithm === "ssh-dss-cert-v01@openssh.com") {
      throw dsaRefusal();
    } else {
      throw new PublicKeyError(
        "unsupported",
        `Unsupported key type "${algorithm.slice(0, 64)}"`,
        algorithm.slice(0, 64),
      );
    }
    if (!reader.done()) throw new PublicKeyError("malformed", "The key data has trailing bytes");
    return decoded;
  } catch (error) {
    if (error instanceof SshWireError)
      throw new PublicKeyError("malformed", `The key data ${error.message}`);
    throw error;
  }
}

/** Checks the key (soundKeyBits throws for one that proves nothing) and derives every field. */
function describe(
  key: DecodedKey,
  comment: string | null,
  certificate: CertificateRecord | null = null,
): ParsedPublicKey {
  const bits = soundKeyBits(key);
  const blob = encodeKey(key);
  // A security key's blob names its application, which no PEM format can hold.
  const pem =
    key.application === null
      ? keyObjectOf(key).export({ type: "spki", format: "pem" }).toString()
      : null;
  return {
    publicKeySsh: `${key.algorithm} ${Buffer.from(blob).toString("base64")}`,
    publicKeyPem: pem,
    ...fingerprints(blob),
    publicKeyAlgorithm: key.algorithm,
    publicKeyBits: bits,
    comment: stripControlCharacters(comment ?? "").trim() || null,
    securityKey:
      key.application === null
        ? null
        : {
            application: key.application,
            user_present: null,
            user_verified: null,
            counter: null,
            counter_regressed: null,
          },
    certificate,
  };
}

/**
 * Whether `signature` over `data` was made with the private half of the key in `blob` (for a
 * certificate, its certified key), as sshd would judge it.
 */
export function blobSignatureVerifies(
  blob: Uint8Array,
  signature: SshSignature,
  data: Uint8Array,
): boolean {
  try {
    const use = { now: new Date(), clientAddress: null };
    return verifySshSignature(decodeBlob(blob, use).key, signature, data);
  } catch {
    return false;
  }
}
