import { and, desc, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { accounts, apiKeys, projectMembers, projects } from "../db/directory.ts";
import { sha256Hex } from "../lib/encoding.ts";
import { badRequest } from "../lib/errors.ts";
import { newId, randomBase32 } from "../lib/ids.ts";
import { isIndexUnavailable } from "../lib/unavailable.ts";
import { freeTextProblem } from "../schemas/text.ts";

/** Each key's mode is in its name: live data, or test data. */
export const API_KEY_PREFIXES = { live: "kp_live_", test: "kp_test_" } as const;
export type KeyMode = keyof typeof API_KEY_PREFIXES;
/** 32 base32 characters: 160 bits of randomness after the recognisable prefix. */
const API_KEY_RANDOM_LENGTH = 32;
/** Characters kept for display, e.g. `kp_live_ab12` (both prefixes are 8 characters). */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIXES.live.length + 4;
/** `last_used_at` is written at most this often per key, to keep writes off the hot path. */
export const LAST_USED_PRECISION_MS = 60_000;

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export interface AuthenticatedKey {
  key: ApiKeyRow;
  projectName: string;
  /** The project's index shard, as the directory names it. */
  shard: string;
}

export function generateApiKey(mode: KeyMode = "live"): string {
  return API_KEY_PREFIXES[mode] + randomBase32(API_KEY_RANDOM_LENGTH);
}

/** The mode a key's text names, or null for text that is no key of ours. */
const modeOfKeyText = (text: string): KeyMode | null =>
  text.startsWith(API_KEY_PREFIXES.live)
    ? "live"
    : text.startsWith(API_KEY_PREFIXES.test)
      ? "test"
      : null;

/** Builds the row for a new key; the plaintext is returned once and never stored. */
export async function newApiKeyRow(input: {
  projectId: string;
  name: string;
  mode?: KeyMode;
  expiredAt?: string | null;
  /** The account that made it (the web app); null for keys made otherwise (`npm run seed`). */
  createdBy?: string | null;
  now: string;
}): Promise<{ row: ApiKeyRow; plaintext: string }> {
  const mode = input.mode ?? "live";
  const plaintext = generateApiKey(mode);
  const row: ApiKeyRow = {
    id: newId("key"),
    projectId: input.projectId,
    name: input.name,
    livemode: mode === "live",
    prefix: plaintext.slice(0, DISPLAY_PREFIX_LENGTH),
    hash: await sha256Hex(plaintext),
    createdAt: input.now,
    createdBy: input.createdBy ?? null,
    expiredAt: input.expiredAt ?? null,
    revokedAt: null,
    lastUsedAt: null,
  };
  return { row, plaintext };
}

const API_KEY_NAME_MAX = 100;

/** A new key for the project, named and optionally expiring; the plaintext is returned once. */
export async function createApiKey(
  ctx: { directory: Database; projectId: string; now: Date },
  input: { name: string; mode?: KeyMode; expiredAt?: Date | null; createdBy?: string | null },
) {
  const name = input.name.trim();
  if (!name || name.length > API_KEY_NAME_MAX)
    throw badRequest("body.name", `A key name is 1 to ${API_KEY_NAME_MAX} characters`);
  const problem = freeTextProblem(name);
  if (problem) throw badRequest("body.name", problem);
  if (input.expiredAt && input.expiredAt <= ctx.now)
    throw badRequest("body.expires_on", "The expiry date must be in the future");
  const created = await newApiKeyRow({
    projectId: ctx.projectId,
    name,
    mode: input.mode ?? "live",
    expiredAt: input.expiredAt?.toISOString() ?? null,
    createdBy: input.createdBy ?? null,
    now: ctx.now.toISOString(),
  });
  await ctx.directory.insert(apiKeys).values(created.row);
  return created;
}

/**
 * A verified key is trusted by the isolate that verified it for this long without asking D1 again:
 * a revocation takes effect at once in the isolate that made it and within this time everywhere.
 * Expiry is checked on every request.
 */
export const API_KEY_CACHE_MS = 10_000;
/**
 * While D1 cannot be reached, a key this isolate verified within this long keeps working (what does
 * not need the index goes on). Safe for revocation: revoking is itself a D1 write,
 * so no key can be revoked during the outage; the only key served that should not be is one
 * revoked in the 10 s before it began, by an isolate that had not yet looked again.
 */
export const API_KEY_OUTAGE_GRACE_MS = 5 * 60_000;
const MAX_CACHED_KEYS = 1_000;
const verifiedKeys = new Map<string, { found: AuthenticatedKey; verifiedAt: number }>();

async function lookUpApiKey(db: Database, hash: string, now: Date) {
  const cached = verifiedKeys.get(hash);
  const age = cached ? now.getTime() - cached.verifiedAt : Number.POSITIVE_INFINITY;
  if (cached && age < API_KEY_CACHE_MS) return cached.found;
  let found: AuthenticatedKey | undefined;
  try {
    [found] = await db
      .select({ key: apiKeys, projectName: projects.name, shard: projects.shard })
      .from(apiKeys)
      .innerJoin(projects, eq(projects.id, apiKeys.projectId))
      .where(eq(apiKeys.hash, hash))
      .limit(1);
  } catch (error) {
    if (cached && age < API_KEY_OUTAGE_GRACE_MS && isIndexUnavailable(error)) return cached.found;
    throw error;
  }
  verifiedKeys.delete(hash);
  if (!found || found.key.revokedAt !== null) return null;
  if (verifiedKeys.size >= MAX_CACHED_KEYS)
    verifiedKeys.delete(verifiedKeys.keys().next().value ?? "");
  verifiedKeys.set(hash, { found, verifiedAt: now.getTime() });
  return found;
}

/** Finds a usable key: known, not revoked, not expired. Anything else is null, without saying why. */
export async function authenticateApiKey(
  db: Database,
  plaintext: string,
  now: Date,
): Promise<AuthenticatedKey | null> {
  const mode = modeOfKeyText(plaintext);
  if (mode === null || plaintext.length > 128) return null;
  const found = await lookUpApiKey(db, await sha256Hex(plaintext), now);
  // The prefix is part of the key: its hash matched, so it names the row's own mode.
  if (!found || found.key.livemode !== (mode === "live")) return null;
  if (found.key.expiredAt !== null && Date.parse(found.key.expiredAt) <= now.getTime()) return null;
  return found;
}

export function shouldRecordUse(key: ApiKeyRow, now: Date): boolean {
  return (
    key.lastUsedAt === null || now.getTime() - Date.parse(key.lastUsedAt) >= LAST_USED_PRECISION_MS
  );
}

/** Records the key's use; the cached copy learns it too, so the next request need not. */
export async function recordApiKeyUse(db: Database, key: ApiKeyRow, now: Date) {
  key.lastUsedAt = now.toISOString();
  await db.update(apiKeys).set({ lastUsedAt: key.lastUsedAt }).where(eq(apiKeys.id, key.id));
}

/** Keys that stop now: this isolate forgets them at once (others within API_KEY_CACHE_MS). */
export function forgetApiKeys(keyIds: string[]) {
  const gone = new Set(keyIds);
  for (const [hash, cached] of verifiedKeys)
    if (gone.has(cached.found.key.id)) verifiedKeys.delete(hash);
}

export async function revokeApiKey(db: Database, projectId: string, keyId: string, now: Date) {
  for (const [hash, cached] of verifiedKeys)
    if (cached.found.key.id === keyId) verifiedKeys.delete(hash);
  await db
    .update(apiKeys)
    .set({ revokedAt: now.toISOString() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.projectId, projectId)));
}

/**
 * The project's keys, newest first, each with who made it: their email, and whether they are
 * still a member (a key outlives its author's membership until someone revokes it).
 */
export async function apiKeysOf(db: Database, projectId: string) {
  const rows = await db
    .select({
      key: apiKeys,
      creatorEmail: accounts.email,
      creatorRole: projectMembers.role,
    })
    .from(apiKeys)
    .leftJoin(accounts, eq(accounts.id, apiKeys.createdBy))
    .leftJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, apiKeys.projectId),
        eq(projectMembers.accountId, apiKeys.createdBy),
      ),
    )
    .where(eq(apiKeys.projectId, projectId))
    .orderBy(desc(apiKeys.id));
  return rows.map(({ key, creatorEmail, creatorRole }) => ({
    ...key,
    creator: creatorEmail === null ? null : { email: creatorEmail, member: creatorRole !== null },
  }));
}

export type ListedApiKey = Awaited<ReturnType<typeof apiKeysOf>>[number];

/** Keys still working that `accountId` made in the project: what removing them leaves behind. */
export async function workingKeysBy(db: Database, projectId: string, accountId: string, now: Date) {
  const keys = await db
    .select({ expiredAt: apiKeys.expiredAt })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.projectId, projectId),
        eq(apiKeys.createdBy, accountId),
        isNull(apiKeys.revokedAt),
      ),
    );
  return keys.filter((key) => key.expiredAt === null || Date.parse(key.expiredAt) > now.getTime())
    .length;
}
