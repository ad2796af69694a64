DROP INDEX `events_project_session_idx`;--> statement-breakpoint
DROP INDEX `events_project_type_idx`;--> statement-breakpoint
CREATE INDEX `events_session_idx` ON `events` (`session_id`,`id`) WHERE "events"."session_id" IS NOT NULL;