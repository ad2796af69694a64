import { getTableColumns, getTableName, is, type Query, SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type SQLiteColumn, SQLiteSyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client.ts";

/**
 * Many rows of one table in one statement: the rows travel as one JSON array, a single bound
 * value, and `json_each` turns it back into rows. D1 binds at most 100 values a
 * statement, so rows bound value by value took one statement for every four sessions; a query is
 * what the primary's ceiling counts (about 1 ms each, D1's limits page), not a row.
 */

/**
 * JSON one statement carries at most, in characters: D1 takes a value of up to 2,000,000 bytes
 * (its limits page), and a character is at most 4 bytes of UTF-8, so a group's rows are split
 * under it whatever they hold.
 */
const JSON_CHARS_A_STATEMENT = 400_000;

/** What a conflict on the table's key does. */
export type OnConflict =
  /** Rows never change once written: the first one stays. */
  | { keep: "first" }
  /** The row of the higher `version` wins; `set` are the columns an update rewrites. */
  | { keep: "newer"; key: SQLiteColumn[]; set: string[] };

/** A row's value of `column` as D1 stores it (drizzle's own mapping and default). */
function driverValue(column: SQLiteColumn, value: unknown): unknown {
  if (value === undefined) {
    if (column.defaultFn) value = column.defaultFn();
    else if (is(column.default, SQL))
      throw new Error(`${column.name}: a row written from JSON needs its value`);
    else value = column.default;
  }
  return value === undefined || value === null ? null : column.mapToDriverValue(value);
}

/** A statement of a batch: one of drizzle's, or SQL of our own. */
export type Statement = BatchItem<"sqlite"> | SQL;

const dialect = new SQLiteSyncDialect();

/**
 * Runs the statements as one D1 batch (one transaction) on `db`'s database. Drizzle's own
 * `batch` cannot carry a statement of raw SQL (its D1 session prepares only its builders).
 */
export async function runBatch(db: Database, statements: Statement[]): Promise<void> {
  if (statements.length === 0) return;
  const d1 = db.$client;
  await d1.batch(
    statements.map((statement) => {
      const query: Query = is(statement, SQL)
        ? dialect.sqlToQuery(statement)
        : (statement as unknown as { toSQL(): Query }).toSQL();
      return d1.prepare(query.sql).bind(...query.params);
    }),
  );
}

/** The rows as statements of one batch (runBatch): one for each JSON_CHARS_A_STATEMENT. */
export function insertFromJson<T extends SQLiteTable>(
  table: T,
  rows: T["$inferInsert"][],
  onConflict: OnConflict,
): SQL[] {
  if (rows.length === 0) return [];
  const columns = Object.entries(getTableColumns(table)) as [string, SQLiteColumn][];
  const name = (column: SQLiteColumn) => `"${column.name}"`;
  const tableName = `"${getTableName(table)}"`;
  const head = `INSERT INTO ${tableName} (${columns.map(([, column]) => name(column)).join(", ")})
    SELECT ${columns.map((_, position) => `json_extract(value, '$[${position}]')`).join(", ")}
    FROM json_each(`;
  const tail =
    onConflict.keep === "first"
      ? ") WHERE true ON CONFLICT DO NOTHING"
      : `) WHERE true ON CONFLICT (${onConflict.key.map(name).join(", ")}) DO UPDATE SET ${onConflict.set
          .map((column) => `"${column}" = excluded."${column}"`)
          .join(", ")} WHERE excluded."version" > ${tableName}."version"`;
  const statements: SQL[] = [];
  let chunk: string[] = [];
  let chars = 0;
  const flush = () => {
    if (chunk.length === 0) return;
    statements.push(sql`${sql.raw(head)}${`[${chunk.join(",")}]`}${sql.raw(tail)}`);
    chunk = [];
    chars = 0;
  };
  for (const row of rows) {
    const values = columns.map(([key, column]) =>
      driverValue(column, (row as Record<string, unknown>)[key]),
    );
    const json = JSON.stringify(values);
    if (chars + json.length > JSON_CHARS_A_STATEMENT) flush();
    chunk.push(json);
    chars += json.length + 1;
  }
  flush();
  return statements;
}
