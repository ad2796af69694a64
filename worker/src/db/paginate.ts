import { count, desc, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable, SQLiteView } from "drizzle-orm/sqlite-core";
import { TOTAL_COUNTED_PAST_PAGE } from "../schemas/common.ts";
import type { Database } from "./client.ts";

/** A select made with `.$dynamic()`, filtered but not yet ordered or paged. */
interface DynamicSelect<Row> {
  _: { result: Row[] };
  orderBy(...order: SQL[]): {
    limit(limit: number): { offset(offset: number): BatchItem<"sqlite"> };
  };
}

export interface Page {
  offset: number;
  limit: number;
}

/** Whether a list's `total` stopped at the horizon: there may be more than it says. */
export const countedPastHorizon = (total: number, page: Page) =>
  total >= page.offset + page.limit + TOTAL_COUNTED_PAST_PAGE;

/** The rows of `table` `where` matches, counted up to what `page` needs (TOTAL_COUNTED_PAST_PAGE). */
export function countForPage(
  db: Database,
  table: SQLiteTable | SQLiteView,
  where: SQL | undefined,
  page: Page,
) {
  const upTo = page.offset + page.limit + TOTAL_COUNTED_PAST_PAGE;
  const matching = db.select({ one: sql`1` }).from(table).where(where).limit(upTo).as("matching");
  return db.select({ total: count() }).from(matching);
}

/** The list envelope every list endpoint answers with (docs/decisions.md), newest first. */
export function listEnvelope<T>(items: T[], totals: { total: number } | undefined, page: Page) {
  const total = totals?.total ?? 0;
  return {
    items,
    total,
    offset: page.offset,
    limit: page.limit,
    has_more: page.offset + items.length < total,
  };
}

/**
 * One page of `query` (a dynamic select, filtered but not ordered), newest first by `id` (ids
 * sort by creation time) unless `order` says otherwise, and the number of `table` rows `where` matches: one D1 round trip.
 */
export async function paginate<Row>(
  db: Database,
  query: DynamicSelect<Row>,
  counted: {
    table: SQLiteTable | SQLiteView;
    where: SQL | undefined;
    id: SQLiteColumn;
    order?: SQL[];
  },
  page: Page,
) {
  const order = counted.order ?? [desc(counted.id)];
  const [rows, [totals]] = await db.batch([
    query
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset),
    countForPage(db, counted.table, counted.where, page),
  ]);
  return listEnvelope(rows as Row[], totals, page);
}
