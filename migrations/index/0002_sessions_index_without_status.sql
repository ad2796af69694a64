-- The lists' index of sessions loses their status: its entry no longer moves when a session
-- closes, a row written a proof; a list filtered by status reads past the others.
DROP INDEX `sessions_project_mode_kind_status_idx`;--> statement-breakpoint
CREATE INDEX `sessions_project_mode_kind_idx` ON `sessions` (`project_id`,`livemode`,`kind`,`id`);