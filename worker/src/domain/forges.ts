import type { Env } from "../env.ts";
import { ApiError } from "../lib/errors.ts";
import { fetchFailure } from "../lib/fetch-failure.ts";
import { allowsPrivateNetworks, unsafeUrlReason } from "../lib/url-safety.ts";
import { PublicKeyError } from "../protocol/key-material.ts";
import {
  isPrivateKeyText,
  type ParsedPublicKey,
  PRIVATE_KEY_MESSAGE,
  parsePublicKey,
} from "../protocol/public-keys.ts";
import type { ProblemError } from "../schemas/common.ts";

/**
 * Keys from code forges: `keys_from: ["github:alice"]` makes the keys the account
 * publishes at `<forge>/<username>.keys` configured keys of a verification session, each with its
 * `source`. Forges come from the FORGES setting, merged over GitHub, GitLab and Codeberg.
 */

/** Whose rules a username follows: nothing else may reach the URL path. */
type UsernameRules = "github" | "gitlab" | "gitea";

const USERNAMES: Record<UsernameRules, (name: string) => boolean> = {
  // Letters, digits and single hyphens inside, up to 39 characters.
  github: (name) => /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/.test(name),
  // Letters, digits, `_`, `.`, `-`; not starting with `-` or `.`, no `..`, no `.git`/`.atom` end.
  gitlab: (name) =>
    /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/.test(name) &&
    !name.includes("..") &&
    !/\.(git|atom)$/i.test(name) &&
    !name.endsWith("."),
  // Gitea and Forgejo: letters and digits at both ends, single `-`, `_` or `.` between.
  gitea: (name) => /^[A-Za-z0-9](?:[A-Za-z0-9]|[-_.](?=[A-Za-z0-9])){0,39}$/.test(name),
};

const DEFAULT_FORGES: Record<string, { url: string; rules: UsernameRules }> = {
  github: { url: "https://github.com", rules: "github" },
  gitlab: { url: "https://gitlab.com", rules: "gitlab" },
  codeberg: { url: "https://codeberg.org", rules: "gitea" },
};

export interface Forge {
  name: string;
  url: string;
  rules: UsernameRules;
}

/** The forges this Worker knows: the defaults, with FORGES merged over them (null removes one). */
export function configuredForges(env: Pick<Env, "FORGES" | "ENVIRONMENT">): Map<string, Forge> {
  const forges = new Map<string, Forge>(
    Object.entries(DEFAULT_FORGES).map(([name, forge]) => [name, { name, ...forge }]),
  );
  const setting = env.FORGES?.trim();
  if (!setting) return forges;
  for (const [name, url] of Object.entries(JSON.parse(setting) as Record<string, string | null>)) {
    if (url === null) forges.delete(name);
    else
      forges.set(name, {
        name,
        url: url.replace(/\/+$/, ""),
        rules: DEFAULT_FORGES[name]?.rules ?? "gitlab",
      });
  }
  return forges;
}

/** Why FORGES cannot be used, as a sentence; null when it can (or is not set). */
export function forgesProblem(env: Pick<Env, "FORGES" | "ENVIRONMENT">): string | null {
  const setting = env.FORGES?.trim();
  if (!setting) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(setting);
  } catch {
    return 'FORGES is not JSON: it must be an object of name to base URL, e.g. {"corp": "https://git.corp.example"}';
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return "FORGES must be a JSON object of name to base URL (or null to remove a forge)";
  for (const [name, url] of Object.entries(parsed)) {
    if (!/^[a-z0-9-]{1,32}$/.test(name))
      return `FORGES name "${name.slice(0, 40)}" must be 1 to 32 lowercase letters, digits or hyphens`;
    if (url === null) continue;
    if (typeof url !== "string") return `FORGES ${name} must be a URL or null`;
    const unsafe = unsafeUrlReason(url, allowsPrivateNetworks(env.ENVIRONMENT));
    if (unsafe) return `FORGES ${name} (${url.slice(0, 100)}) cannot be used: ${unsafe}`;
  }
  return null;
}

/** `github.com/alice`: an account as people name it. */
export function accountLabel(forges: Map<string, Forge>, source: string): string {
  const [name = "", username = ""] = source.split(":");
  const forge = forges.get(name);
  if (!forge) return source;
  const url = new URL(forge.url);
  return `${url.host}${url.pathname.replace(/\/$/, "")}/${username}`;
}

/** How long one fetch of an account's keys may take. */
export const FORGE_TIMEOUT_MS = 5_000;
/** An account's list is reused for this long, whatever the forge's cache headers say. */
export const FORGE_CACHE_SECONDS = 60;
const MAX_REDIRECTS = 3;
/** A skipped line is reported up to this long (an RSA-16384 key line is about 2,800). */
const MAX_LINE_CHARACTERS = 8_192;
/** What a forge answers with beyond this is not a key list. */
const MAX_LIST_BYTES = 256 * 1024;

/** The forge could not say: unreachable, slow, or failing. Nothing is created; retry later. */
const FORGE_RETRY_SECONDS = 30;
/** Skipped keys listed in a create answer; `skipped_count` says how many there were in all. */
export const MAX_SKIPPED_LISTED = 20;

/** Why a forge's answer says nothing of the account (a 503): null when it does say. */
function unavailableReason(host: string, answer: ForgeAnswer): string | null {
  if (answer.failure) return `${host} ${answer.failure}`;
  if (answer.elsewhere)
    return `${host} redirected to ${answer.elsewhere}, which keyproof does not follow`;
  if (answer.status >= 500 || answer.status === 429) return `${host} answered ${answer.status}`;
  return null;
}

/** A key an account lists, usable or skipped (and why). */
export type ListedKey =
  | { source: string; key: ParsedPublicKey }
  | { source: string; line: string; reason: string };

/** What a forge answered: its status and text, where it sent keyproof off its host, or why not. */
interface ForgeAnswer {
  status: number;
  text: string;
  /** A redirect to another host (not followed). */
  elsewhere?: string;
  /** Why no answer came: the rest of a sentence that starts with the forge's host. */
  failure?: string;
}

/**
 * Fetches `url` on the forge's host, following redirects only within it; the body as text, read
 * up to MAX_LIST_BYTES and no further. One deadline covers every hop and the body.
 */
async function fetchOnHost(url: URL): Promise<ForgeAnswer> {
  const deadline = AbortSignal.timeout(FORGE_TIMEOUT_MS);
  let target = url;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await fetch(target, {
        redirect: "manual",
        signal: deadline,
        headers: { accept: "text/plain", "user-agent": "keyproof (keys_from)" },
      });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        const next = new URL(location, target);
        if (next.host !== url.host || next.protocol !== url.protocol)
          return { status: response.status, text: "", elsewhere: next.host };
        target = next;
        continue;
      }
      return { status: response.status, text: await readUpTo(response, MAX_LIST_BYTES) };
    }
    return { status: 508, text: "" };
  } catch (error) {
    return {
      status: 0,
      text: "",
      failure: fetchFailure(error, deadline, FORGE_TIMEOUT_MS / 1000),
    };
  }
}

/** The body's first `limit` bytes as text (whole lines only); the rest is never read. */
async function readUpTo(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  if (size >= limit) {
    cut = true;
    await reader.cancel();
  }
  const bytes = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  const text = new TextDecoder().decode(bytes);
  // A line the cap cut in two is not half a key.
  return cut ? text.slice(0, text.lastIndexOf("\n") + 1) : text;
}

/** A cached answer keeps the forge's status here (the cache holds only 200s). */
const FORGE_STATUS = "x-forge-status";

/** The account's `.keys` (or its absence), from the cache for 60 s after the first fetch. */
async function accountKeys(forge: Forge, username: string): Promise<ForgeAnswer> {
  const url = new URL(`${forge.url}/${encodeURIComponent(username)}.keys`);
  const cache = await caches.open("keyproof-forges");
  const cached = await cache.match(url);
  if (cached)
    return { status: Number(cached.headers.get(FORGE_STATUS) ?? 200), text: await cached.text() };
  const answer = await fetchOnHost(url);
  if (answer.status === 200 || answer.status === 404) {
    await cache.put(
      url,
      new Response(answer.text, {
        headers: {
          "cache-control": `max-age=${FORGE_CACHE_SECONDS}`,
          [FORGE_STATUS]: String(answer.status),
        },
      }),
    );
  }
  return answer;
}

/**
 * Every key the `keys_from` entries name, each usable or skipped with its reason; a 400 naming
 * `body.keys_from[i]` for an entry that cannot be fetched as given (unknown forge, a username the
 * forge could not have, no such account, no usable key), a 503 when a forge cannot be reached.
 */
export async function keysFromForges(
  env: Pick<Env, "FORGES" | "ENVIRONMENT">,
  entries: string[],
): Promise<ListedKey[]> {
  const forges = configuredForges(env);
  const errors: ProblemError[] = [];
  const fail = (index: number, message: string) =>
    errors.push({ location: `body.keys_from[${index}]`, message, value: entries[index] });
  const wanted: { index: number; forge: Forge; username: string; source: string }[] = [];
  for (const [index, entry] of entries.entries()) {
    const [name = "", username = "", ...rest] = entry.split(":");
    const forge = forges.get(name);
    if (!forge) {
      fail(
        index,
        `No forge named "${name.slice(0, 40)}"; this service knows ${[...forges.keys()].join(", ")}`,
      );
      continue;
    }
    if (rest.length > 0 || !USERNAMES[forge.rules](username)) {
      fail(index, `"${entry.slice(0, 100)}" is not a ${name} username`);
      continue;
    }
    wanted.push({ index, forge, username, source: `${name}:${username}` });
  }
  if (errors.length > 0) throw new ApiError(400, errors[0]?.message ?? "", errors);
  const answers = await Promise.all(
    wanted.map(async (entry) => ({
      entry,
      answer: await accountKeys(entry.forge, entry.username),
    })),
  );
  const listed: ListedKey[] = [];
  for (const { entry, answer } of answers) {
    const label = accountLabel(forges, entry.source);
    const host = new URL(entry.forge.url).host;
    const unavailable = unavailableReason(host, answer);
    if (unavailable !== null) {
      throw new ApiError(
        503,
        `${unavailable ?? host}; nothing was created. Try again in a moment.`,
        [
          {
            location: `body.keys_from[${entry.index}]`,
            message: unavailable ?? host,
            value: entries[entry.index],
          },
        ],
        { "Retry-After": String(FORGE_RETRY_SECONDS) },
      );
    }
    if (answer.status === 404 || answer.status === 410) {
      fail(entry.index, `There is no account ${label}`);
      continue;
    }
    if (answer.status !== 200) {
      fail(entry.index, `${label} could not be read (the forge answered ${answer.status})`);
      continue;
    }
    const keys = listedKeys(entry.source, answer.text);
    if (!keys.some((key) => "key" in key)) {
      fail(entry.index, `${label} lists no key keyproof can use`);
      continue;
    }
    listed.push(...keys);
  }
  if (errors.length > 0) throw new ApiError(400, errors[0]?.message ?? "", errors);
  return listed;
}

/** Where a private key block starts and ends in a list. */
const PRIVATE_BLOCK_START = /^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;
const PRIVATE_BLOCK_END = /^-----END [A-Z0-9 ]*PRIVATE KEY-----/;

/**
 * The lines of an account's list as keys, usable or skipped. Nothing of a private key the list
 * holds by mistake is repeated: its block is one skipped entry that shows none of it.
 */
function listedKeys(source: string, text: string): ListedKey[] {
  const keys: ListedKey[] = [];
  let inPrivateBlock = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (inPrivateBlock) {
      inPrivateBlock = !PRIVATE_BLOCK_END.test(line);
      continue;
    }
    if (!line || line.startsWith("#")) continue;
    if (PRIVATE_BLOCK_START.test(line) || isPrivateKeyText(line)) {
      inPrivateBlock = PRIVATE_BLOCK_START.test(line) && !PRIVATE_BLOCK_END.test(line);
      keys.push({ source, line: "(a private key, not shown)", reason: PRIVATE_KEY_MESSAGE });
      continue;
    }
    try {
      keys.push({ source, key: parsePublicKey(line) });
    } catch (error) {
      const reason = error instanceof PublicKeyError ? error.message : "Not a public key";
      keys.push({ source, line: line.slice(0, MAX_LINE_CHARACTERS), reason });
    }
  }
  return keys;
}

/** The accounts whose keys a session expects, as people name them (`github.com/alice`), once each. */
export function expectedAccounts(
  env: Pick<Env, "FORGES" | "ENVIRONMENT">,
  keys: readonly { source: string | null }[],
): string[] {
  const sources = [...new Set(keys.flatMap((key) => (key.source ? [key.source] : [])))];
  if (sources.length === 0) return [];
  const forges = configuredForges(env);
  return sources.map((source) => accountLabel(forges, source));
}
