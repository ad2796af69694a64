import { Buffer } from "node:buffer";
import {
  type DecodedKey,
  encodeKey,
  fingerprints,
  isKnownKeyAlgorithm,
  readKeyFields,
  soundKeyBits,
} from "./key-material.ts";
import { parseSignatureBlob, verifySshSignature } from "./signatures.ts";
import { SshReader } from "./ssh-wire.ts";

/** OpenSSH certificate types (PROTOCOL.certkeys) and the plain key type each certifies. */
export const CERTIFICATE_ALGORITHMS: Record<string, string> = {
  "ssh-ed25519-cert-v01@openssh.com": "ssh-ed25519",
  "ecdsa-sha2-nistp256-cert-v01@openssh.com": "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384-cert-v01@openssh.com": "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521-cert-v01@openssh.com": "ecdsa-sha2-nistp521",
  "ssh-rsa-cert-v01@openssh.com": "ssh-rsa",
  "sk-ssh-ed25519-cert-v01@openssh.com": "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com": "sk-ecdsa-sha2-nistp256@openssh.com",
};

export const isCertificateAlgorithm = (algorithm: string) =>
  Object.hasOwn(CERTIFICATE_ALGORITHMS, algorithm);

/** What a certificate says, as stored and shown (schemas/public-keys.ts describes each field). */
export interface CertificateRecord {
  key_id: string;
  /** 64 bits, so a decimal string: Vault and others use serials past 2^53. */
  serial: string;
  principals: string[];
  valid_after: string | null;
  valid_before: string | null;
  critical_options: Record<string, string>;
  extensions: string[];
  ca_public_key_ssh: string;
  ca_public_key_sha256: string;
  /** The CA's signature verifies, it is a user certificate, and it was in its dates when read. */
  valid: boolean;
}

const USER_CERTIFICATE = 1;
/** `valid before` this value means "forever"; `valid after` 0 means "always". */
const FOREVER = 0xffff_ffff_ffff_ffffn;
/** RFC 3339 has four-digit years; a bound past 9999 is as good as none. */
const LAST_SECOND = 253_402_300_799n;

function timestamp(seconds: bigint): string {
  const clamped = seconds > LAST_SECOND ? LAST_SECOND : seconds;
  return new Date(Number(clamped) * 1000).toISOString();
}

/** `name, data` pairs packed into one string: critical options and extensions. */
function readPairs(bytes: Uint8Array): [string, Uint8Array][] {
  const reader = new SshReader(bytes);
  const pairs: [string, Uint8Array][] = [];
  while (!reader.done()) pairs.push([reader.text("option name"), reader.string("option data")]);
  return pairs;
}

/** An option's data is itself a string (`force-command`, `source-address`), or empty. */
function optionValue(data: Uint8Array): string {
  if (data.length === 0) return "";
  const reader = new SshReader(data);
  const value = reader.text("option value");
  return reader.done() ? value : Buffer.from(data).toString("utf8");
}

/** The CA's key, if it is one whose signatures prove something. */
function decodeCaKey(blob: Uint8Array): DecodedKey | null {
  try {
    const reader = new SshReader(blob);
    const algorithm = reader.text("CA key type");
    if (!isKnownKeyAlgorithm(algorithm)) return null;
    const key = readKeyFields(reader, algorithm);
    if (!reader.done()) return null;
    soundKeyBits(key);
    return key;
  } catch {
    return null;
  }
}

/**
 * Reads a certificate whose type string `reader` has just read from `blob`: the certified key,
 * and what the certificate says. The CA's signature covers everything before it.
 */
export function readCertificate(
  reader: SshReader,
  blob: Uint8Array,
  certificateAlgorithm: string,
  now: Date,
): { key: DecodedKey; certificate: CertificateRecord } {
  const keyAlgorithm = CERTIFICATE_ALGORITHMS[certificateAlgorithm] ?? "";
  reader.string("nonce");
  const key = readKeyFields(reader, keyAlgorithm);
  const serial = reader.uint64("serial");
  const type = reader.uint32("certificate type");
  const keyId = reader.text("key id");
  const principalReader = new SshReader(reader.string("principals"));
  const principals: string[] = [];
  while (!principalReader.done()) principals.push(principalReader.text("principal"));
  const validAfter = reader.uint64("valid after");
  const validBefore = reader.uint64("valid before");
  const criticalOptions = readPairs(reader.string("critical options"));
  const extensions = readPairs(reader.string("extensions")).map(([name]) => name);
  reader.string("reserved");
  const caBlob = reader.string("signature key");
  const signed = blob.subarray(0, reader.offset);
  const signature = parseSignatureBlob(reader.string("signature"));

  const caAlgorithm = new SshReader(caBlob).text("CA key type");
  const caKey = decodeCaKey(caBlob);
  const caCanonical = caKey ? encodeKey(caKey) : caBlob;
  const seconds = BigInt(Math.floor(now.getTime() / 1000));
  const valid =
    caKey !== null &&
    signature !== null &&
    verifySshSignature(caKey, signature, signed) &&
    type === USER_CERTIFICATE &&
    seconds >= validAfter &&
    seconds < validBefore;
  return {
    key,
    certificate: {
      key_id: keyId,
      serial: serial.toString(),
      principals,
      valid_after: validAfter === 0n ? null : timestamp(validAfter),
      valid_before: validBefore === FOREVER ? null : timestamp(validBefore),
      critical_options: Object.fromEntries(
        criticalOptions.map(([name, data]) => [name, optionValue(data)]),
      ),
      extensions,
      ca_public_key_ssh: `${caAlgorithm} ${Buffer.from(caCanonical).toString("base64")}`,
      ca_public_key_sha256: fingerprints(caCanonical).publicKeySha256,
      valid,
    },
  };
}
