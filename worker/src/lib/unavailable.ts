import { ApiError } from "./errors.ts";

/**
 * D1 could not be reached or could not answer (SPEC §15): nothing is wrong with the request, and
 * trying again shortly will do. A query D1 refuses on its merits (a broken constraint, a missing
 * table) is not this: that is a bug or a conflict, and keeps its own error.
 */
const REFUSED_ON_ITS_MERITS =
  /constraint failed|SQLITE_CONSTRAINT|no such (table|column)|syntax error/i;

/** The message every unavailable index error starts with: it survives an RPC boundary. */
const MARK = "D1 unavailable: ";

export class IndexUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`${MARK}${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "IndexUnavailableError";
  }
}

/** A failed D1 call as what it means: the index away, or the error it was. */
export function asIndexError(error: unknown): unknown {
  if (error instanceof IndexUnavailableError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return REFUSED_ON_ITS_MERITS.test(message) ? error : new IndexUnavailableError(error);
}

/** Whether `error`, or what it wraps (drizzle wraps a query's error), is D1 being away. */
export function isIndexUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (cause instanceof IndexUnavailableError) return true;
    if (cause instanceof Error && cause.message.startsWith(MARK)) return true;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return false;
}

/** Seconds a caller waits before trying again when the index cannot be reached. */
export const INDEX_RETRY_SECONDS = 5;

/** What an API request that needs D1 answers while D1 cannot be reached: a 503, never a 500. */
export const indexUnavailable = () =>
  new ApiError(
    503,
    "keyproof's index (sessions lists, events, webhooks, keys) cannot be reached just now; nothing was changed. Try again in a few seconds.",
    undefined,
    { "Retry-After": String(INDEX_RETRY_SECONDS) },
  );
