import { Buffer } from "node:buffer";
import { addressInCidrList } from "./ip-addresses.ts";
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
import { escapeUntrustedText } from "./terminal-text.ts";

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

/**
 * Why a certificate is not valid, as sshd would refuse it, most basic first. `source_address`:
 * the client's address is outside its `source-address` option (or the option cannot be read).
 */
export const CERTIFICATE_PROBLEMS = [
  "ca_signature",
  "host_certificate",
  "unknown_critical_option",
  "not_yet_valid",
  "expired",
  "source_address",
] as const;
export type CertificateProblem = (typeof CERTIFICATE_PROBLEMS)[number];

/**
 * The critical options sshd knows (PROTOCOL.certkeys); a certificate carrying any other is
 * refused. `force-command` restricts a shell keyproof never runs; `verify-required` is judged
 * with the signature (proof-rules.ts).
 */
export const KNOWN_CRITICAL_OPTIONS = new Set([
  "force-command",
  "source-address",
  "verify-required",
]);
export const VERIFY_REQUIRED = "verify-required";

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
  /**
   * The CA's signature verifies, it is a user certificate with only critical options sshd knows,
   * it was in its dates when read, and the client's address is one its `source-address` allows.
   */
  valid: boolean;
  /** Why it is not valid; null when it is. */
  invalid_reason: CertificateProblem | null;
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

/** Where the certificate is used: when, and from which client address (null when unknown). */
export interface CertificateUse {
  now: Date;
  clientAddress: string | null;
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
  use: CertificateUse,
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
  const options = Object.fromEntries(
    criticalOptions.map(([name, data]) => [name, optionValue(data)]),
  );
  const seconds = BigInt(Math.floor(use.now.getTime() / 1000));
  const sourceAddress = options["source-address"];
  const problems: [CertificateProblem, boolean][] = [
    ["ca_signature", !caKey || !signature || !verifySshSignature(caKey, signature, signed)],
    ["host_certificate", type !== USER_CERTIFICATE],
    [
      "unknown_critical_option",
      Object.keys(options).some((name) => !KNOWN_CRITICAL_OPTIONS.has(name)),
    ],
    ["not_yet_valid", seconds < validAfter],
    ["expired", seconds >= validBefore],
    [
      "source_address",
      sourceAddress !== undefined &&
        (use.clientAddress === null ||
          addressInCidrList(use.clientAddress, sourceAddress) !== true),
    ],
  ];
  const invalidReason = problems.find(([, failed]) => failed)?.[0] ?? null;
  // Everything the certificate's maker chose is escaped before anyone stores or shows it.
  const clean = escapeUntrustedText;
  return {
    key,
    certificate: {
      key_id: clean(keyId),
      serial: serial.toString(),
      principals: principals.map(clean),
      valid_after: validAfter === 0n ? null : timestamp(validAfter),
      valid_before: validBefore === FOREVER ? null : timestamp(validBefore),
      critical_options: Object.fromEntries(
        Object.entries(options).map(([name, value]) => [clean(name), clean(value)]),
      ),
      extensions: extensions.map(clean),
      ca_public_key_ssh: `${clean(caAlgorithm)} ${Buffer.from(caCanonical).toString("base64")}`,
      ca_public_key_sha256: fingerprints(caCanonical).publicKeySha256,
      valid: invalidReason === null,
      invalid_reason: invalidReason,
    },
  };
}
