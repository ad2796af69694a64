import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import ssh2 from "ssh2";
import { parsePublicKeyBlob } from "../../worker/src/protocol/public-keys.ts";
import { keyTypeName } from "../../worker/src/protocol/terminal.ts";

export interface HostKey {
  path: string;
  privateKey: string;
  fingerprint: string;
  algorithm: string;
}

const HOST_KEY_FILES = { ed25519: "ssh_host_ed25519_key", rsa: "ssh_host_rsa_key" } as const;
const RSA_HOST_KEY_BITS = 3072;

/** New keys are tried this many times before the bridge gives up (one try fails in ~200). */
const GENERATE_TRIES = 10;

/** A stored host key that cannot be used stops the bridge with this, naming the file. */
export class HostKeyError extends Error {}

/**
 * Whether `privateKey` reads back as a key of `type` that signs what its public half verifies.
 * `ssh2`'s generator makes about one Ed25519 key in 200 whose public half lost a leading zero;
 * such a key is never saved.
 */
export function roundTrips(privateKey: string, type: keyof typeof HOST_KEY_FILES): boolean {
  const parsed = ssh2.utils.parseKey(privateKey);
  if (parsed instanceof Error || !parsed.type.includes(type)) return false;
  const data = Buffer.from("keyproof host key check");
  const signature = parsed.sign(data);
  return signature instanceof Buffer && parsed.verify(data, signature) === true;
}

/** A new private key of `type`, in OpenSSH's format, checked before anything keeps it. */
function generate(type: keyof typeof HOST_KEY_FILES): string {
  for (let tries = 0; tries < GENERATE_TRIES; tries++) {
    const pair =
      type === "rsa"
        ? ssh2.utils.generateKeyPairSync("rsa", { bits: RSA_HOST_KEY_BITS })
        : ssh2.utils.generateKeyPairSync("ed25519");
    if (roundTrips(pair.private, type)) return pair.private;
  }
  throw new HostKeyError(`no usable ${type} host key could be generated`);
}

/**
 * Writes `content` to `path` unless it exists, atomically: two bridges starting at once on one
 * directory never read a half-written key, and the first one's key is the one both use.
 */
function createOnce(path: string, content: string, mode: number) {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, content, { mode });
  try {
    linkSync(partial, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(partial);
  }
}

/** Loads the host keys from `dir`, generating any that are missing (first start). */
export async function loadOrCreateHostKeys(dir: string): Promise<HostKey[]> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const keys: HostKey[] = [];
  for (const [type, file] of Object.entries(HOST_KEY_FILES) as [
    keyof typeof HOST_KEY_FILES,
    string,
  ][]) {
    const path = join(dir, file);
    if (!existsSync(path)) createOnce(path, generate(type), 0o600);
    chmodSync(path, 0o600);
    const privateKey = readFileSync(path, "utf8");
    const parsed = ssh2.utils.parseKey(privateKey);
    if (parsed instanceof Error || !roundTrips(privateKey, type)) {
      throw new HostKeyError(
        `the host key ${path} cannot be used (${parsed instanceof Error ? parsed.message : "it does not verify its own signature"}). Delete it and ${path}.pub to have a new one made at the next start; users then see a new host key fingerprint.`,
      );
    }
    // The public half beside it, from the key that won (for operators and ssh-keygen -lf).
    if (!existsSync(`${path}.pub`))
      createOnce(
        `${path}.pub`,
        `${parsed.type} ${parsed.getPublicSSH().toString("base64")}\n`,
        0o644,
      );
    const key = parsePublicKeyBlob(parsed.getPublicSSH());
    keys.push({
      path,
      privateKey,
      fingerprint: key.publicKeySha256,
      algorithm: key.publicKeyAlgorithm,
    });
  }
  return keys;
}

/**
 * The Worker's `SSH_HOST_KEY_FINGERPRINTS` for these keys: each named as `ssh` names it when it
 * asks whether to trust the server ("ED25519 key fingerprint is SHA256:..."), so the proof page
 * can say which is which.
 */
export const fingerprintSetting = (keys: HostKey[]): string =>
  keys.map((key) => `${keyTypeName(key.algorithm)} ${key.fingerprint}`).join(",");
