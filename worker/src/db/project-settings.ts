import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * What an index shard must know of a project it holds, copied from the directory when it changes:
 * how long its closed sessions are kept, for the shard's own retention sweep and its sessions'
 * objects; and what of it was erased, so that nothing erased comes back. No query
 * joins across databases.
 */
export const projectSettings = sqliteTable("project_settings", {
  projectId: text("project_id").primaryKey(),
  retentionDays: integer("retention_days").notNull(),
  /**
   * When the project was deleted: the row stays as its tombstone. A push for it is refused (its
   * object erases itself) and the cron erases any row of it found here (domain/erased-projects.ts).
   */
  deletedAt: text("deleted_at"),
  /** When its test data was last deleted: a push of a test session made before is refused. */
  testDataDeletedAt: text("test_data_deleted_at"),
});

/** What a project's home shows of one day (domain/project-overview.ts). */
export interface DayFigures {
  /** Connections that proved a key that counted, by the day they closed. */
  proofs: Record<string, number>;
  counted: number;
  finished: number;
  collect: number;
  verify: number;
  /** Proven keys by algorithm. */
  keyTypes: Record<string, number>;
}

/**
 * A project's home page figures for a day gone by, of the sessions made that day, in one mode:
 * worked out once, from that day's range of the sessions index, and kept, so the page reads
 * the days it already knows rather than walking 30 days of a busy project's sessions at each
 * view. Counts only: nothing personal. Erased with the project (or its test data).
 */
export const projectDays = sqliteTable(
  "project_days",
  {
    projectId: text("project_id").notNull(),
    livemode: integer({ mode: "boolean" }).notNull(),
    day: text().notNull(),
    figures: text({ mode: "json" }).$type<DayFigures>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.livemode, t.day] })],
);
