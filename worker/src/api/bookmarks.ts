import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { badRequest } from "../lib/errors.ts";

/**
 * Read-your-writes across D1's read replicas (SPEC §15, docs/decisions.md): every API response
 * carries the bookmark of the newest D1 state it saw or wrote; a request that sends it back reads
 * at least that fresh. Without one, reads go to the nearest replica, which may lag the primary.
 */
export const BOOKMARK_HEADER = "keyproof-bookmark";
/** No bookmark yet: the value that, sent back, asks for nothing. */
const UNCONSTRAINED = "first-unconstrained";
/** D1's bookmarks (hex groups joined by dashes), or one of its two session constraints. */
const BOOKMARK = /^(first-unconstrained|first-primary|[0-9a-f]{1,32}(-[0-9a-f]{1,64}){1,7})$/i;

/** Bookmarks order as strings: a later point in D1's history sorts after an earlier one. */
function latest(...bookmarks: (string | null | undefined)[]): string | null {
  let newest: string | null = null;
  for (const bookmark of bookmarks) {
    if (!bookmark || bookmark.startsWith("first-")) continue;
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
  const d1 = c.env.DB.withSession(sent && BOOKMARK.test(sent) ? sent : UNCONSTRAINED);
  c.set("d1", d1);
  c.set("bookmark", latest(sent));
  try {
    if (sent !== undefined && !BOOKMARK.test(sent)) {
      throw badRequest(
        `header.${BOOKMARK_HEADER}`,
        `Send back the ${BOOKMARK_HEADER} header exactly as a response gave it`,
        sent.slice(0, 100),
      );
    }
    await next();
  } finally {
    const newest = latest(c.var.bookmark, d1.getBookmark());
    c.res.headers.set(BOOKMARK_HEADER, newest ?? UNCONSTRAINED);
  }
});
