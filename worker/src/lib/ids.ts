/** Lowercase RFC 4648 base32 alphabet: letters and digits only, safe to type and copy. */
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

export function randomBase32(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const byte of bytes) out += BASE32[byte & 31];
  return out;
}

export type IdPrefix = "acc" | "prj" | "key" | "cs" | "vs" | "con" | "ck" | "vk" | "wh" | "whi" | "evt";

/**
 * `prefix_` + 10 characters of millisecond time + 16 random characters (80 bits).
 * The time part is fixed-width and big-endian, so ids sort by creation time.
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  let time = "";
  let rest = now;
  for (let i = 0; i < 10; i++) {
    time = BASE32[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  return `${prefix}_${time}${randomBase32(16)}`;
}

/** The SSH username of a session: 26 base32 characters carry 130 bits of randomness. */
export const CONNECTION_IDENTIFIER_LENGTH = 26;

export function newConnectionIdentifier(): string {
  return randomBase32(CONNECTION_IDENTIFIER_LENGTH);
}
