import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { database } from "../db/client.ts";
import { shardBinding } from "../db/databases.ts";
import { deferredSession } from "../db/deferred-session.ts";
import { sessionObject } from "../domain/session-address.ts";
import type { Env } from "../env.ts";
import { badRequest } from "../lib/errors.ts";
import { seal, unseal } from "../lib/sealed.ts";
import { IndexUnavailableError } from "../lib/unavailable.ts";

/**
 * Read-your-writes across D1's read replicas (docs/decisions.md): every API response
 * carries the bookmark of the newest state it saw or wrote of its project's shard (a project's
 * data is in one shard, so its bookmarks are that shard's); a request that sends it back reads at
 * least that fresh. Without one, reads go to the nearest replica, which may lag the primary.
 *
 * A bookmark is D1's, sealed by the Worker for the caller's project (lib/sealed.ts): one a caller
 * made up or changed, or one another project's key was given, is never passed to D1 or answered
 * back — the request reads the primary instead, as fresh as any bookmark could ask — and a
 * response only ever carries what D1 said. It is read only once the API
 * key is known and the request admitted by the rate limit: a caller with no key reaches nothing
 * a bookmark names.
 *
 * A write whose push to D1 failed (D1 away) cannot have D1's bookmark: the sealed value names the
 * session instead (`pending`), and a request that sends it back first has that session's object
 * push; while it cannot, whatever the request reads from D1 is a 503, never a list without it.
 */
export const BOOKMARK_HEADER = "keyproof-bookmark";
/** No bookmark yet: the value that, sent back, asks for nothing. */
const UNCONSTRAINED = "first-unconstrained";
/** D1's session that reads the primary first: at least as fresh as any bookmark. */
const FRESHEST = "first-primary";
/** What D1's bookmarks look like: fixed-width hex groups, so they order as strings. */
const D1_BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
/** Sealed for one project: a bookmark is that project's, and no other's key may use it. */
const sealPurpose = (projectId: string) => `bookmark\0${projectId}`;

/**
 * Sessions whose writes D1 has not taken, carried at most this many in one bookmark: a write sent
 * a bookmark that names this many is answered 503 (nothing changed) until D1 takes them, so no
 * write answered 2xx is ever left out of what the bookmark makes a read wait for.
 */
export const MAX_PENDING = 50;
const SESSION_ID = /^[cv]s_[0-9a-z]{26}$/;
/**
 * How long a bookmark's pending part is waited for, from the newest write it names: by then each
 * object has pushed (they try every 5 s once D1 answers) or D1 is still away and the read a 503
 * anyway. Past it a bookmark sent back again and again costs no object calls.
 */
export const PENDING_FOR_MS = 15 * 60_000;
/** When that newest write was made: `@` and Unix seconds, after D1's part. */
const PENDING_SINCE = /^@([0-9]{10})$/;

/**
 * The form of a bookmark as responses give it (the document declares it): the value that asks
 * for nothing, or D1's bookmark (or that value) with, when writes are pending, the time of the
 * newest and up to MAX_PENDING session ids, then a dot and a 128-bit MAC in base64url
 * (lib/sealed.ts). Another value is a 400; one of this form the Worker did not make for the
 * caller's project is read as asking for the primary.
 */
export const BOOKMARK_PATTERN = `^(${UNCONSTRAINED}|(${UNCONSTRAINED}|[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32})( @[0-9]{10})?( [cv]s_[0-9a-z]{26}){0,${MAX_PENDING}}\\.[A-Za-z0-9_-]{22})$`;
export const BOOKMARK_MAX_LENGTH = 1600;
const BOOKMARK_FORM = new RegExp(BOOKMARK_PATTERN);

/**
 * What a bookmark holds: D1's bookmark, and the sessions whose writes D1 had not taken, with when
 * the newest of them was made (ms; 0 for none).
 */
export interface Opened {
  d1: string;
  pending: string[];
  since: number;
}

/**
 * What one the caller sent back holds; null when the Worker did not make it. A pending part
 * older than PENDING_FOR_MS (or from before it carried its time) is no longer waited for.
 */
export async function openBookmark(
  env: Env,
  projectId: string,
  sent: string,
  now = Date.now(),
): Promise<Opened | null> {
  if (sent === UNCONSTRAINED) return { d1: UNCONSTRAINED, pending: [], since: 0 };
  const sealed = await unseal(env, sealPurpose(projectId), sent);
  if (!sealed) return null;
  if (D1_BOOKMARK.test(sealed)) return { d1: sealed, pending: [], since: 0 };
  const [d1 = "", ...rest] = sealed.split(" ");
  const stamp = PENDING_SINCE.exec(rest[0] ?? "");
  const pending = stamp ? rest.slice(1) : rest;
  const since = stamp ? Number(stamp[1]) * 1000 : 0;
  const valid = (d1 === UNCONSTRAINED || D1_BOOKMARK.test(d1)) && pending.length <= MAX_PENDING;
  if (!valid || !pending.every((id) => SESSION_ID.test(id))) return null;
  return now - since > PENDING_FOR_MS ? { d1, pending: [], since: 0 } : { d1, pending, since };
}

/** The sealed value's text: D1's part, then the pending writes with the newest one's time. */
function bookmarkText(d1: string | null, pending: string[], since: number): string | null {
  if (pending.length === 0) return d1;
  const seconds = String(Math.floor(since / 1000)).padStart(10, "0");
  return [d1 ?? UNCONSTRAINED, `@${seconds}`, ...pending].join(" ");
}

/**
 * Has each pending session's object push to D1, so the request reads its writes: the newest
 * bookmark then, or null while one of them cannot push (D1 still away).
 */
async function catchUp(env: Env, opened: Opened): Promise<string | null> {
  const bookmarks = await Promise.all(
    opened.pending.map((sessionId) =>
      sessionObject(env, { sessionId })
        .indexed()
        .catch(() => null),
    ),
  );
  if (bookmarks.some((bookmark) => bookmark === null)) return null;
  // An object that knows D1 has its writes but not D1's bookmark after them: the primary.
  if (bookmarks.includes(FRESHEST)) return FRESHEST;
  return latest(opened.d1, ...bookmarks) ?? UNCONSTRAINED;
}

/** The newest of the bookmarks D1 gave: a later point in D1's history sorts after an earlier one. */
function latest(...bookmarks: (string | null | undefined)[]): string | null {
  let newest: string | null = null;
  for (const bookmark of bookmarks) {
    if (!bookmark || !D1_BOOKMARK.test(bookmark)) continue;
    if (newest === null || bookmark > newest) newest = bookmark;
  }
  return newest;
}

/**
 * A write a Durable Object pushed to D1 before answering: the response's bookmark covers it. When
 * the push failed (null), the bookmark names the session, so the next read waits for it.
 */
export function noteBookmark(c: Context<AppEnv>, bookmark: string | null, sessionId: string) {
  if (bookmark === null) c.set("pendingSessions", [...c.var.pendingSessions, sessionId]);
  c.set("bookmark", latest(c.var.bookmark, bookmark));
}

/**
 * The request's D1 session, at the caller's bookmark, for everything the request reads of its
 * project; the answer carries the newest bookmark. The session is opened when the request first
 * reads D1 (db/deferred-session.ts): only then does it wait for the pushes of the caller's writes
 * the bookmark names — a write answered at the edge (a create, a PATCH, a DELETE) reads nothing
 * and waits for nothing, and its answer's bookmark names them still, with its own. While one of
 * them cannot push (D1 away), what the request reads is a 503, never a list without it. After
 * `requireApiKey` and `rateLimit` (app.ts).
 */
export const readNearCaller = createMiddleware<AppEnv>(async (c, next) => {
  const { projectId, shard } = c.var.project;
  const sent = c.req.header(BOOKMARK_HEADER)?.trim();
  // Not even of the form responses give (the document's pattern): a mistake worth saying.
  const malformed =
    sent !== undefined && (sent.length > BOOKMARK_MAX_LENGTH || !BOOKMARK_FORM.test(sent));
  let opened: Opened | null =
    sent === undefined
      ? { d1: UNCONSTRAINED, pending: [], since: 0 }
      : malformed
        ? null
        : await openBookmark(c.env, projectId, sent);
  // A write that would leave a bookmark naming more than it can: its earlier writes go to D1
  // first, or it is refused before it changes anything.
  const writes = c.req.method !== "GET" && c.req.method !== "HEAD";
  const full = writes && opened !== null && opened.pending.length >= MAX_PENDING;
  // Not known to be in D1: the answer's bookmark names them until a read has waited for them.
  c.set("pendingSessions", opened?.pending ?? []);
  /** Has the pending writes pushed (a 503 while one cannot be): where D1's session then starts. */
  const caughtUpAt = async (): Promise<string> => {
    // One the Worker did not make (or made for another project) is read as none but the
    // freshest: the primary. What the document allows is never refused, what it named never used.
    if (!opened) return FRESHEST;
    if (opened.pending.length === 0) return opened.d1;
    const caughtUp = await catchUp(c.env, opened);
    if (caughtUp === null)
      throw new IndexUnavailableError("the caller's earlier write is not in D1 yet");
    const waited = new Set(opened.pending);
    c.set(
      "pendingSessions",
      c.var.pendingSessions.filter((id) => !waited.has(id)),
    );
    opened = { d1: caughtUp, pending: [], since: 0 };
    return caughtUp;
  };
  c.set("ownWrites", {
    pending: opened?.pending ?? [],
    // Shown from their objects (domain/own-writes.ts): D1 is read as the rest of the bookmark says.
    readsD1Apart: (inD1) => {
      if (opened) opened = { ...opened, pending: [] };
      // Those D1 has all of: the answer carries D1's bookmark after them instead of their names.
      const settled = new Set(inD1.map((session) => session.sessionId));
      c.set(
        "pendingSessions",
        c.var.pendingSessions.filter((id) => !settled.has(id)),
      );
      c.set("bookmark", latest(c.var.bookmark, ...inD1.map((session) => session.bookmark)));
    },
  });
  let session: D1DatabaseSession | null = null;
  const d1 = deferredSession(async () => {
    session = shardBinding(c.env, shard).withSession(await caughtUpAt());
    return session;
  });
  c.set("d1", d1);
  c.set("project", { ...c.var.project, db: database(d1) });
  c.set("bookmark", null);
  try {
    if (malformed)
      throw badRequest(
        `header.${BOOKMARK_HEADER}`,
        `Send back the ${BOOKMARK_HEADER} header exactly as a response gave it`,
      );
    if (full) await caughtUpAt();
    await next();
  } finally {
    // A header that is not ours is not answered back, in part or whole: D1's own bookmark is.
    const read = (session as D1DatabaseSession | null)?.getBookmark() ?? null;
    const newest = latest(c.var.bookmark, read, opened?.d1);
    const pending = [...new Set(c.var.pendingSessions)];
    const known = new Set(opened?.pending);
    const since = pending.some((id) => !known.has(id)) ? Date.now() : (opened?.since ?? 0);
    const value = bookmarkText(newest, pending.slice(-MAX_PENDING), since);
    c.res.headers.set(
      BOOKMARK_HEADER,
      value ? await seal(c.env, sealPurpose(projectId), value) : UNCONSTRAINED,
    );
  }
});
