import type { Env } from "../env.ts";
import { type Database, database } from "./client.ts";

/**
 * Which database a query goes to : account-level data in
 * the directory (`DIRECTORY`), each project's index data in the one shard the directory names for
 * it (`INDEX_0`, `INDEX_1`, ...). Shards are the D1 bindings named so: adding one is a binding in
 * wrangler.toml, its migrations and a deploy; new projects then go to the emptiest shard.
 */

/** A shard's D1 binding name: `INDEX_` and its number. */
const SHARD_BINDING = /^INDEX_(\d+)$/;
/**
 * A session's connection identifier starts with its shard's number, one base32 character (the
 * rest, 125 random bits, is its secret): an object that retired finds its session again from the
 * identifier alone. 32 shards fit one character.
 */
export const MAX_SHARDS = 32;
const BASE32 = "0123456789abcdefghjkmnpqrstvwxyz";

type Bindings = Record<string, unknown>;

/** The shards this Worker is configured with, in their numbers' order. */
export function shardNames(env: Env): string[] {
  return Object.keys(env)
    .filter((name) => SHARD_BINDING.test(name))
    .sort((a, b) => shardNumber(a) - shardNumber(b));
}

/** A shard's number: `INDEX_2` is 2. */
export const shardNumber = (shard: string) => Number(SHARD_BINDING.exec(shard)?.[1] ?? Number.NaN);

/** A shard's D1 binding; an unknown name is a fault (a project the directory placed elsewhere). */
export function shardBinding(env: Env, shard: string): D1Database {
  const binding = (env as unknown as Bindings)[shard];
  if (!SHARD_BINDING.test(shard) || !binding)
    throw new Error(`No index shard ${shard} is bound to this Worker (wrangler.toml)`);
  return binding as D1Database;
}

/** Drizzle over a shard's primary (writes, and reads that must see them). */
export const shardDb = (env: Env, shard: string): Database => database(shardBinding(env, shard));

/** Drizzle over the directory. */
export const directoryDb = (env: Env): Database => database(env.DIRECTORY);

/** The character a session's identifier starts with on `shard`. */
export function identifierPrefix(shard: string): string {
  const number = shardNumber(shard);
  if (!(number >= 0 && number < MAX_SHARDS))
    throw new Error(`Shard ${shard} has no identifier character (0 … ${MAX_SHARDS - 1})`);
  return BASE32[number] as string;
}

/** The shard a connection identifier names; null when no such shard is bound (an unknown name). */
export function shardOfIdentifier(env: Env, identifier: string): string | null {
  const shard = `INDEX_${BASE32.indexOf(identifier[0] ?? "")}`;
  return shard in env ? shard : null;
}
