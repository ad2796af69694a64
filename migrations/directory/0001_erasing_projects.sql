-- Projects deleted whose shard still holds some of their data: written with the deletion, in the
-- same transaction, removed once the shard is empty of them (the cron finishes a deletion a
-- request could not).
CREATE TABLE `erasing_projects` (
	`project_id` text PRIMARY KEY NOT NULL,
	`shard` text NOT NULL,
	`deleted_at` text NOT NULL
);
