import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import type { Env } from "../env.ts";
import { badRequest } from "../lib/errors.ts";
import { seal, unseal } from "../lib/sealed.ts";

/**
 * Read-your-writes across D1's read replicas (SPEC §15, docs/decisions.md): every API response
 * carries the bookmark of the newest D1 state it saw or wrote; a request that sends it back reads
 * at least that fresh. Without one, reads go to the nearest replica, which may lag the primary.
 *
 * A bookmark is D1's, sealed by the Worker (lib/sealed.ts): one a caller made up or changed is
 * refused, never passed to D1 or answered back, and a response only ever carries what D1 said.
 */
export const BOOKMARK_HEADER = "keyproof-bookmark";
/** No bookmark yet: the value that, sent back, asks for nothing. */
const UNCONSTRAINED = "first-unconstrained";
/** What D1's bookmarks look like: fixed-width hex groups, so they order as strings. */
const D1_BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
const SEAL_PURPOSE = "bookmark";

/** The D1 bookmark inside one the caller sent back; null when the Worker did not make it. */
async function openBookmark(env: Env, sent: string): Promise<string | null> {
  if (sent === UNCONSTRAINED) return UNCONSTRAINED;
  const d1Bookmark = await unseal(env, SEAL_PURPOSE, sent);
  return d1Bookmark && D1_BOOKMARK.test(d1Bookmark) ? d1Bookmark : null;
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

/** A write a Durable Object pushed to D1 before answering: the response's bookmark covers it. */
export function noteBookmark(c: Context<AppEnv>, bookmark: string | null) {
  c.set("bookmark", latest(c.var.bookmark, bookmark));
}

/** Opens the request's D1 session at the caller's bookmark and answers with the newest one. */
export const readNearCaller = createMiddleware<AppEnv>(async (c, next) => {
  const sent = c.req.header(BOOKMARK_HEADER)?.trim();
  const opened = sent === undefined ? UNCONSTRAINED : await openBookmark(c.env, sent);
  const d1 = c.env.DB.withSession(opened ?? UNCONSTRAINED);
  c.set("d1", d1);
  c.set("bookmark", null);
  try {
    if (opened === null) {
      // Not repeated: a header that is not ours is not answered back, in part or whole.
      throw badRequest(
        `header.${BOOKMARK_HEADER}`,
        `Send back the ${BOOKMARK_HEADER} header exactly as a response gave it`,
      );
    }
    await next();
  } finally {
    const newest = latest(c.var.bookmark, opened === null ? null : d1.getBookmark());
    c.res.headers.set(
      BOOKMARK_HEADER,
      newest ? await seal(c.env, SEAL_PURPOSE, newest) : UNCONSTRAINED,
    );
  }
});
