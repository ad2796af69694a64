DROP INDEX `connection_keys_fingerprint_lookup_idx`;--> statement-breakpoint
CREATE INDEX `connection_keys_fingerprint_lookup_idx` ON `connection_keys` (`public_key_sha256`) WHERE "connection_keys"."security_key" IS NOT NULL;--> statement-breakpoint
DROP INDEX `sessions_project_kind_external_idx`;--> statement-breakpoint
CREATE INDEX `sessions_project_kind_external_idx` ON `sessions` (`project_id`,`kind`,`external_id`,`id`) WHERE "sessions"."external_id" IS NOT NULL;