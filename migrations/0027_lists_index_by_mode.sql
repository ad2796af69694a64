-- The lists' index leads with the mode after the project: a list, its count and the overview read
-- only index entries of their own mode (live or test), where each entry had to be looked up in
-- its row to learn its mode, and a count read every session of the project. Still one entry a
-- session: no more rows written.
DROP INDEX `sessions_project_kind_status_idx`;--> statement-breakpoint
CREATE INDEX `sessions_project_mode_kind_status_idx` ON `sessions` (`project_id`,`livemode`,`kind`,`status`,`id`);
