import { type SQL, sql } from "drizzle-orm";

/**
 * Crockford's base32 in lowercase: digits and letters without i, l, o and u, so identifiers are
 * safe to read aloud and type, and in ASCII order, so time-prefixed ids sort as strings.
 */
export const BASE32 = "0123456789abcdefghjkmnpqrstvwxyz";

export function randomBase32(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const byte of bytes) out += BASE32[byte & 31];
  return out;
}

export type IdPrefix =
  | "acc"
  | "prj"
  | "key"
  | "cs"
  | "vs"
  | "con"
  | "ck"
  | "vk"
  | "ca"
  | "wh"
  | "evt"
  | "inv"
  | "aud"
  | "sec"
  | "ask"
  | "apk";

const RANDOM_DIGITS = 16;
let lastTime = -1;
let lastRandom: number[] = [];

/** Fresh random digits, or, within the same millisecond, the previous ones plus one. */
function monotonicRandom(time: number): number[] {
  if (time > lastTime) {
    lastTime = time;
    lastRandom = Array.from(crypto.getRandomValues(new Uint8Array(RANDOM_DIGITS)), (b) => b & 31);
    return lastRandom;
  }
  for (let i = RANDOM_DIGITS - 1; i >= 0; i--) {
    const digit = (lastRandom[i] ?? 0) + 1;
    lastRandom[i] = digit & 31;
    if (digit < 32) break;
  }
  return lastRandom;
}

/**
 * `prefix_` + 10 characters of millisecond time + 16 random characters (80 bits), like a ULID.
 * Ids sort by creation time, and ids made in one millisecond by one isolate keep their order.
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  const time = Math.max(now, lastTime);
  return `${prefix}_${encodeTime(time)}${monotonicRandom(time)
    .map((digit) => BASE32[digit])
    .join("")}`;
}

/**
 * The first 29 characters of a series of up to 32 ids (`newId`'s form, the last character
 * counting `0`, `1`, … `z`): a push's events share one, so D1 keeps them in one row, found from
 * any of their ids (db/webhooks.ts). Any id made after it in this isolate sorts after the whole
 * series, as `newId`'s do.
 */
export function newIdSeries(prefix: IdPrefix, now = Date.now()): string {
  // Past every id made before it in this millisecond, whose first 29 characters it could share.
  lastRandom[RANDOM_DIGITS - 1] = 31;
  const id = newId(prefix, now);
  // The next id of this millisecond carries into the series' own digits: it sorts after them all.
  lastRandom[RANDOM_DIGITS - 1] = 31;
  return id.slice(0, -1);
}

/** A millisecond time as the 10 base32 characters that start every id. */
export function encodeTime(time: number): string {
  let encoded = "";
  let rest = time;
  for (let i = 0; i < 10; i++) {
    encoded = BASE32[rest % 32] + encoded;
    rest = Math.floor(rest / 32);
  }
  return encoded;
}

/**
 * `encodeTime` in SQL, of an integer expression (milliseconds): a bound on ids, computed by the
 * query for each row it reads (retention's sweep bounds each project's sessions by its own cutoff).
 */
export function encodedTimeSql(time: SQL): SQL {
  const digits = Array.from(
    { length: 10 },
    (_, i) =>
      sql`substr(${sql.raw(`'${BASE32}'`)}, ((${time} >> ${sql.raw(String(5 * (9 - i)))}) & 31) + 1, 1)`,
  );
  return sql.join(digits, sql` || `);
}

/** The SSH username of a session: 26 base32 characters carry 130 bits of randomness. */
export const CONNECTION_IDENTIFIER_LENGTH = 26;

export function newConnectionIdentifier(): string {
  return randomBase32(CONNECTION_IDENTIFIER_LENGTH);
}

/** What a user signs with `ssh-keygen -Y sign` to prove a key without SSH: 130 random bits. */
export function newSignatureChallenge(): string {
  return `keyproof:${randomBase32(CONNECTION_IDENTIFIER_LENGTH)}`;
}

const CONNECTION_IDENTIFIER = /^[0-9a-hjkmnp-tv-z]{26}$/;

/** Whether `text` could be a connection identifier: anything else names no session. */
export const isConnectionIdentifier = (text: string) => CONNECTION_IDENTIFIER.test(text);
