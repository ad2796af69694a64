import { drizzle } from "drizzle-orm/d1";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as accounts from "./accounts.ts";
import * as sessions from "./sessions.ts";
import * as webhooks from "./webhooks.ts";

/** Every D1 table, for the schema drift test; the queries need no schema (no relational API). */
export const schema = { ...accounts, ...sessions, ...webhooks };

/**
 * Drizzle over a D1 binding, or over one request's Sessions API session (api/bookmarks.ts).
 * Without a schema to walk, making one costs microseconds, so each request may have its own.
 */
export const database = (d1: D1Database | D1DatabaseSession) => drizzle(d1 as D1Database);

export type Database = ReturnType<typeof database>;

/** D1 binds at most 100 parameters per statement. */
export const D1_MAX_BOUND_PARAMETERS = 100;

/** Inserts split into statements that each stay under D1's parameter limit, for one batch. */
export function insertInChunks<T extends SQLiteTable>(
  db: Database,
  table: T,
  rows: T["$inferInsert"][],
) {
  const first = rows[0];
  if (!first) return [];
  const perRow = Object.keys(first).length;
  const size = Math.max(1, Math.floor(D1_MAX_BOUND_PARAMETERS / perRow));
  const statements = [];
  for (let start = 0; start < rows.length; start += size) {
    statements.push(db.insert(table).values(rows.slice(start, start + size)));
  }
  return statements;
}
