import { drizzle } from "drizzle-orm/d1";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as directory from "./directory.ts";
import * as projectSettings from "./project-settings.ts";
import * as sessions from "./sessions.ts";
import * as webhooks from "./webhooks.ts";

/**
 * Every D1 table of each kind of database, for the schema drift test: the directory's, and an
 * index shard's. The queries need no schema (no relational API).
 */
export const schemas = {
  directory: { ...directory },
  index: { ...projectSettings, ...sessions, ...webhooks },
};

/**
 * Drizzle over a D1 binding, or over one request's Sessions API session (api/bookmarks.ts).
 * Without a schema to walk, making one costs microseconds, so each request may have its own.
 */
export const database = (d1: D1Database | D1DatabaseSession) => drizzle(d1 as D1Database);

export type Database = ReturnType<typeof database>;

/** D1 binds at most 100 parameters per statement. */
export const D1_MAX_BOUND_PARAMETERS = 100;

/**
 * Rows in groups small enough for one statement each under D1's parameter limit: a row binds a
 * parameter for each value it has (drizzle writes a missing one as `null`, unbound), so the
 * fullest row sets the size.
 */
export function inChunks<T extends object>(rows: T[]): T[][] {
  const perRow = Math.max(1, ...rows.map((row) => Object.keys(row).length));
  const size = Math.max(1, Math.floor(D1_MAX_BOUND_PARAMETERS / perRow));
  const chunks: T[][] = [];
  for (let start = 0; start < rows.length; start += size)
    chunks.push(rows.slice(start, start + size));
  return chunks;
}

/** Inserts split into statements that each stay under D1's parameter limit, for one batch. */
export function insertInChunks<T extends SQLiteTable>(
  db: Database,
  table: T,
  rows: T["$inferInsert"][],
) {
  return inChunks(rows).map((chunk) => db.insert(table).values(chunk));
}
