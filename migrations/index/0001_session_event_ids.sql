-- A session's row lists its events' ids (event_ids), and events lose their index by session: an
-- event is one row written, not two, and one deleted at erasure, not two.
DROP INDEX `events_session_idx`;--> statement-breakpoint
ALTER TABLE `sessions` ADD `event_ids` text DEFAULT '[]' NOT NULL;