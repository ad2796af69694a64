-- A project's row here outlives it as its tombstone (deleted_at), and remembers when its test data
-- was last deleted: a push for what was erased is refused, and the cron erases any row left.
ALTER TABLE `project_settings` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `project_settings` ADD `test_data_deleted_at` text;