-- The lists' indexes lead with the mode after the project: a list, its count and the overview read
-- only index entries of their own mode (live or test), where each entry had to be looked up in
-- its row to learn its mode, and a count read every session of the project. The index of
-- external_ids gets the mode too, so that a filter by one still prefers it. Still one entry a
-- session in each: no more rows written.
DROP INDEX `sessions_project_kind_status_idx`;--> statement-breakpoint
CREATE INDEX `sessions_project_mode_kind_status_idx` ON `sessions` (`project_id`,`livemode`,`kind`,`status`,`id`);--> statement-breakpoint
DROP INDEX `sessions_project_kind_external_idx`;--> statement-breakpoint
CREATE INDEX `sessions_project_mode_kind_external_idx` ON `sessions` (`project_id`,`livemode`,`kind`,`external_id`,`id`) WHERE "sessions"."external_id" IS NOT NULL;
