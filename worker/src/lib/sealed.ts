import type { Env } from "../env.ts";

/**
 * Values keyproof hands out and must know again as its own (a proof page's watch token, a
 * bookmark): `<payload>.<MAC>`, HMAC-SHA256 keyed by BRIDGE_SECRET with a purpose of its own,
 * so no value made for one purpose passes for another. A caller can read the payload; only the
 * Worker can make one.
 */

/** Bytes of the MAC kept: 128 bits, as many as a session's identifier has. */
const MAC_BYTES = 16;

const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(secret: string, purpose: string): Promise<CryptoKey> {
  const name = `${purpose}\0${secret}`;
  let key = keys.get(name);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(`keyproof sealed value\0${name}`),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    // Two secrets at most are in use at once (a rotation), each for a few purposes.
    if (keys.size > 16) keys.clear();
    keys.set(name, key);
  }
  return key;
}

type Secrets = Pick<Env, "BRIDGE_SECRET" | "BRIDGE_SECRET_PREVIOUS">;

async function mac(secret: string, purpose: string, payload: string) {
  const key = await keyFor(secret, purpose);
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(payload));
  return Buffer.from(signature).subarray(0, MAC_BYTES).toString("base64url");
}

/** `payload` (which holds no `.` of its own at the end) with its MAC for `purpose`. */
export async function seal(env: Secrets, purpose: string, payload: string) {
  if (!env.BRIDGE_SECRET) throw new Error("BRIDGE_SECRET is not set");
  return `${payload}.${await mac(env.BRIDGE_SECRET, purpose, payload)}`;
}

/** The payload of a value sealed for `purpose`, or null when the Worker did not make it. */
export async function unseal(
  env: Secrets,
  purpose: string,
  sealed: string | undefined,
): Promise<string | null> {
  if (!sealed) return null;
  const dot = sealed.lastIndexOf(".");
  if (dot <= 0) return null;
  const payload = sealed.slice(0, dot);
  const given = Buffer.from(sealed.slice(dot + 1), "base64url");
  // During a rotation, values sealed with the previous secret still count.
  for (const secret of [env.BRIDGE_SECRET, env.BRIDGE_SECRET_PREVIOUS]) {
    if (!secret) continue;
    const expected = Buffer.from(await mac(secret, purpose, payload), "base64url");
    if (given.length !== expected.length) continue;
    let difference = 0;
    for (let i = 0; i < given.length; i++) difference |= (given[i] ?? 0) ^ (expected[i] ?? 0);
    if (difference === 0) return payload;
  }
  return null;
}
