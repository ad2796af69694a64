import { Buffer } from "node:buffer";
import { mpint, sshStrings, utf8 } from "../protocol/ssh-wire.ts";

/**
 * Keys the test helpers make up: a fresh key pair of the asked type whose public half
 * is reported as proven, as the bridge reports a key it checked; the private half is never
 * exported, kept or sent anywhere (WebCrypto makes it unextractable and it is dropped at once).
 */
export const SIMULATED_KEY_TYPES = [
  "ssh-ed25519",
  "ecdsa-sha2-nistp256",
  "ssh-rsa",
  "sk-ssh-ed25519@openssh.com",
] as const;
export type SimulatedKeyType = (typeof SIMULATED_KEY_TYPES)[number];

/** The application a simulated security key is made for, as `ssh-keygen -t ed25519-sk` makes it. */
const SECURITY_KEY_APPLICATION = "ssh:";

async function publicPart(algorithm: Parameters<SubtleCrypto["generateKey"]>[0]) {
  const pair = (await crypto.subtle.generateKey(algorithm, false, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  return pair.publicKey;
}

/** A new key's wire blob (base64), as an SSH client offers it. */
export async function simulatedKeyBlob(type: SimulatedKeyType): Promise<string> {
  let blob: Uint8Array;
  if (type === "ssh-ed25519" || type === "sk-ssh-ed25519@openssh.com") {
    const key = await publicPart({ name: "Ed25519" });
    const raw = new Uint8Array((await crypto.subtle.exportKey("raw", key)) as ArrayBuffer);
    blob =
      type === "ssh-ed25519"
        ? sshStrings(utf8(type), raw)
        : sshStrings(utf8(type), raw, utf8(SECURITY_KEY_APPLICATION));
  } else if (type === "ecdsa-sha2-nistp256") {
    const key = await publicPart({ name: "ECDSA", namedCurve: "P-256" });
    const point = new Uint8Array((await crypto.subtle.exportKey("raw", key)) as ArrayBuffer);
    blob = sshStrings(utf8(type), utf8("nistp256"), point);
  } else {
    const key = await publicPart({
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    });
    const jwk = (await crypto.subtle.exportKey("jwk", key)) as JsonWebKey;
    const part = (value: string | undefined) =>
      mpint(new Uint8Array(Buffer.from(value ?? "", "base64url")));
    blob = sshStrings(utf8(type), part(jwk.e), part(jwk.n));
  }
  return Buffer.from(blob).toString("base64");
}

/** User presence and verification flags (`UP` 0x01, `UV` 0x04), as a security key signs them. */
const TOUCHED_AND_VERIFIED = 0x05;

/**
 * What a simulated security key reports: touched, PIN-checked, and a counter that only grows
 * (seconds since 2026), so a project's counter check never takes it for a clone.
 */
export function simulatedTouch() {
  return {
    flags: TOUCHED_AND_VERIFIED,
    counter: Math.floor((Date.now() - Date.UTC(2026, 0, 1)) / 1000),
  };
}
