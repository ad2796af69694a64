import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * What an index shard must know of a project it holds, copied from the directory when it changes:
 * how long its closed sessions are kept, for the shard's own retention sweep and its sessions'
 * objects; and what of it was erased, so that nothing erased comes back (SPEC §19). No query
 * joins across databases (SPEC §15).
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
