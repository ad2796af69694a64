import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * What an index shard must know of a project it holds, copied from the directory when it changes:
 * how long its closed sessions are kept, for the shard's own retention sweep and its sessions'
 * objects. No query joins across databases (SPEC §15).
 */
export const projectSettings = sqliteTable("project_settings", {
  projectId: text("project_id").primaryKey(),
  retentionDays: integer("retention_days").notNull(),
});
