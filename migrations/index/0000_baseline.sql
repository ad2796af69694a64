-- An index shard: the sessions, connections, keys, events, webhooks and deliveries of
-- the projects the directory places here. Projects live in the directory: nothing here refers to
-- them by a foreign key, and erasing a project deletes its rows here by its id.
CREATE TABLE `project_settings` (
	`project_id` text PRIMARY KEY NOT NULL,
	`retention_days` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`kind` text NOT NULL,
	`connection_identifier` text NOT NULL,
	`status` text NOT NULL,
	`external_id` text,
	`multi_key` integer NOT NULL,
	`multi_connection` integer NOT NULL,
	`must_confirm` integer NOT NULL,
	`ssh_banner` text,
	`ssh_message` text,
	`match_all_keys` integer NOT NULL,
	`max_attempts` integer NOT NULL,
	`failed_attempts` integer NOT NULL,
	`require_security_key` integer DEFAULT false NOT NULL,
	`require_user_verification` integer DEFAULT false NOT NULL,
	`principal` text,
	`certificate_verified_at` text,
	`signature_challenge` text DEFAULT '' NOT NULL,
	`return_url` text,
	`expired_at` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`completed_at` text,
	`verified_at` text,
	`redacted_at` text,
	`livemode` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_connection_identifier_unique` ON `sessions` (`connection_identifier`);
--> statement-breakpoint
CREATE INDEX `sessions_project_mode_kind_status_idx` ON `sessions` (`project_id`,`livemode`,`kind`,`status`,`id`);
--> statement-breakpoint
CREATE INDEX `sessions_project_mode_kind_external_idx` ON `sessions` (`project_id`,`livemode`,`kind`,`external_id`,`id`) WHERE "sessions"."external_id" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `session_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`position` integer NOT NULL,
	`name` text,
	`external_id` text,
	`source` text,
	`public_key_ssh` text NOT NULL,
	`public_key_pem` text,
	`public_key_md5` text NOT NULL,
	`public_key_sha256` text NOT NULL,
	`public_key_algorithm` text NOT NULL,
	`public_key_bits` integer NOT NULL,
	`comment` text,
	`security_key` text,
	`certificate` text,
	`verified_at` text,
	`created_at` text NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `session_keys_session_idx` ON `session_keys` (`session_id`);
--> statement-breakpoint
CREATE TABLE `session_authorities` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`position` integer NOT NULL,
	`name` text,
	`public_key_ssh` text NOT NULL,
	`public_key_pem` text,
	`public_key_md5` text NOT NULL,
	`public_key_sha256` text NOT NULL,
	`public_key_algorithm` text NOT NULL,
	`public_key_bits` integer NOT NULL,
	`comment` text,
	`security_key` text,
	`certificate` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `session_authorities_session_idx` ON `session_authorities` (`session_id`);
--> statement-breakpoint
CREATE TABLE `connections` (
	`id` text NOT NULL,
	`session_id` text NOT NULL,
	`method` text DEFAULT 'ssh' NOT NULL,
	`ip_address` text NOT NULL,
	`client_version` text NOT NULL,
	`created_at` text NOT NULL,
	`closed_at` text,
	`confirmed` integer,
	`outcome` text NOT NULL,
	`refusals` text DEFAULT '[]' NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`session_id`, `id`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `connection_keys` (
	`id` text NOT NULL,
	`connection_id` text NOT NULL,
	`session_id` text NOT NULL,
	`public_key_ssh` text NOT NULL,
	`public_key_pem` text,
	`public_key_md5` text NOT NULL,
	`public_key_sha256` text NOT NULL,
	`public_key_algorithm` text NOT NULL,
	`public_key_bits` integer NOT NULL,
	`comment` text,
	`security_key` text,
	`certificate` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`session_id`, `id`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `connection_keys_fingerprint_lookup_idx` ON `connection_keys` (`public_key_sha256`) WHERE "connection_keys"."security_key" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `events` (
	`id` text NOT NULL,
	`project_id` text NOT NULL,
	`session_id` text,
	`entity` text NOT NULL,
	`type` text NOT NULL,
	`livemode` integer DEFAULT true NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`project_id`, `id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `events_session_idx` ON `events` (`session_id`,`id`) WHERE "events"."session_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `events_ping_idx` ON `events` (`id`) WHERE "events"."session_id" IS NULL;
--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`session_id` text,
	`url` text NOT NULL,
	`method` text NOT NULL,
	`headers` text NOT NULL,
	`events` text NOT NULL,
	`retries` integer NOT NULL,
	`initial_backoff` integer NOT NULL,
	`backoff_multiplier` real NOT NULL,
	`enabled` integer NOT NULL,
	`secret` text NOT NULL,
	`livemode` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `webhooks_project_idx` ON `webhooks` (`project_id`,`session_id`,`id`);
--> statement-breakpoint
CREATE INDEX `webhooks_session_idx` ON `webhooks` (`session_id`);
--> statement-breakpoint
CREATE TABLE `webhook_invocations` (
	`id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`project_id` text NOT NULL,
	`event_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` text,
	`lease_until` text,
	`failure_reason` text,
	`attempt_log` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`webhook_id`, `id`),
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `webhook_invocations_due_idx` ON `webhook_invocations` (`next_attempt_at`) WHERE "webhook_invocations"."next_attempt_at" IS NOT NULL;
