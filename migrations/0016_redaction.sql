DROP INDEX `connection_keys_fingerprint_idx`;--> statement-breakpoint
DROP INDEX `connection_keys_session_idx`;--> statement-breakpoint
CREATE INDEX `connection_keys_session_idx` ON `connection_keys` (`session_id`);--> statement-breakpoint
DROP INDEX `session_authorities_fingerprint_idx`;--> statement-breakpoint
CREATE INDEX `session_authorities_session_idx` ON `session_authorities` (`session_id`);--> statement-breakpoint
DROP INDEX `session_keys_fingerprint_idx`;--> statement-breakpoint
CREATE INDEX `session_keys_session_idx` ON `session_keys` (`session_id`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `redacted_at` text;