import { ApiError } from "./errors.ts";

/**
 * D1 could not be reached or could not answer: nothing is wrong with the request, and
 * trying again shortly will do. A query D1 refuses on its merits (a broken constraint, a missing
 * table) is not this: that is a bug or a conflict, and keeps its own error.
 *
 * D1's errors say which they are (developers.cloudflare.com/d1/observability/debug-d1/, "List of
 * D1_ERRORs"): the database restarting, unreachable or overloaded is D1 away; what SQLite refuses
 * is the query's own. What neither list names is taken as away where a caller waits (a 503 that
 * a retry may cure, never a 500), but is not proof that D1 is away for everyone: the index writer
 * tries each push of a group alone on it (session-object/index-writer.ts).
 */
const REFUSED_ON_ITS_MERITS =
  /constraint failed|SQLITE_CONSTRAINT|SQLITE_TOOBIG|SQLITE_MISMATCH|SQLITE_RANGE|no such (table|column)|syntax error|D1_TYPE_ERROR|D1_COLUMN_NOTFOUND|too many SQL variables|too many terms|string or blob too big/i;

/**
 * D1's own words for being away: restarting, unreachable, overloaded (D1's error list), a local
 * database's file held by another writer, and the simulated outage of tests and benches.
 */
const D1_AWAY =
  /Network connection lost|reset because its code was updated|starting up D1 DB storage|Internal error in D1 DB storage|transient issue on remote node|client disconnected|D1 DB is overloaded|SQLITE_BUSY|database is locked|D1 is away/i;

/** The message every unavailable index error starts with: it survives an RPC boundary. */
const MARK = "D1 unavailable: ";

export class IndexUnavailableError extends Error {
  /** D1 said it is away (restarting, unreachable, overloaded), not merely an error it did not explain. */
  readonly known: boolean;

  constructor(cause: unknown, known = true) {
    super(`${MARK}${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "IndexUnavailableError";
    this.known = known;
  }
}

/** A failed D1 call as what it means: the index away, or the error it was. */
export function asIndexError(error: unknown): unknown {
  if (error instanceof IndexUnavailableError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (REFUSED_ON_ITS_MERITS.test(message)) return error;
  return new IndexUnavailableError(error, D1_AWAY.test(message));
}

/** What D1 said when it was away, without the query drizzle wraps it in: for a one-line log. */
export function awayReason(error: unknown): string {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (cause instanceof IndexUnavailableError) return cause.message;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Whether D1 refused the query itself (a constraint, a missing table): trying again will not do. */
export function isRefusedOnItsMerits(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (cause instanceof IndexUnavailableError) return false;
    if (cause instanceof Error && REFUSED_ON_ITS_MERITS.test(cause.message)) return true;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return false;
}

/** Whether D1 said it is away: a group that failed so fails for each of its pushes too. */
export function isD1KnownAway(error: unknown): boolean {
  return error instanceof IndexUnavailableError && error.known;
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
    "keyproof's index (sessions lists, events, webhooks, keys) cannot be reached just now. Try again in a few seconds: a request sent again with the same Idempotency-Key is never done twice.",
    undefined,
    { "Retry-After": String(INDEX_RETRY_SECONDS) },
  );
