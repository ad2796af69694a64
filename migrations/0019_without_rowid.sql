-- The tables a proof writes, and the tables that reference them, rebuilt WITHOUT ROWID (issue
-- #33): a rowid table with a text primary key writes each row twice, in the table and in its
-- primary key's index, and D1 bills both; a WITHOUT ROWID table is its primary key's index, one
-- row written. Same columns, indexes and foreign keys. Each table is built beside the old one
-- (its references to the others pointing at the new ones) and filled; the old ones are dropped
-- children first, so that no ON DELETE CASCADE runs; the renames then point the references at
-- the final names. drizzle-kit cannot declare WITHOUT ROWID: a migration it generates that
-- rebuilds one of these tables must keep it.
CREATE TABLE `sessions_new` (
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
	`expired_at` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`completed_at` text,
	`verified_at` text, `require_security_key` integer DEFAULT false NOT NULL, `require_user_verification` integer DEFAULT false NOT NULL, `principal` text, `certificate_verified_at` text, `signature_challenge` text DEFAULT '' NOT NULL, `version` integer DEFAULT 0 NOT NULL, `return_url` text, `redacted_at` text, `livemode` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `webhooks_new` (
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
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL, `livemode` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `sessions_new`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `connections_new` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`ip_address` text NOT NULL,
	`client_version` text NOT NULL,
	`created_at` text NOT NULL,
	`closed_at` text,
	`confirmed` integer,
	`outcome` text NOT NULL, `method` text DEFAULT 'ssh' NOT NULL, `refusals` text DEFAULT '[]' NOT NULL, `version` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions_new`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `connection_keys_new` (
	`id` text PRIMARY KEY NOT NULL,
	`connection_id` text NOT NULL,
	`session_id` text NOT NULL,
	`public_key_ssh` text NOT NULL,
	`public_key_pem` text,
	`public_key_md5` text NOT NULL,
	`public_key_sha256` text NOT NULL,
	`public_key_algorithm` text NOT NULL,
	`public_key_bits` integer NOT NULL,
	`comment` text,
	`created_at` text NOT NULL, `security_key` text, `certificate` text,
	FOREIGN KEY (`connection_id`) REFERENCES `connections_new`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `sessions_new`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `session_keys_new` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`position` integer NOT NULL,
	`name` text,
	`external_id` text,
	`public_key_ssh` text NOT NULL,
	`public_key_pem` text,
	`public_key_md5` text NOT NULL,
	`public_key_sha256` text NOT NULL,
	`public_key_algorithm` text NOT NULL,
	`public_key_bits` integer NOT NULL,
	`comment` text,
	`verified_at` text,
	`created_at` text NOT NULL, `security_key` text, `certificate` text, `version` integer DEFAULT 0 NOT NULL, `source` text,
	FOREIGN KEY (`session_id`) REFERENCES `sessions_new`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `session_authorities_new` (
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
	FOREIGN KEY (`session_id`) REFERENCES `sessions_new`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `events_new` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`session_id` text,
	`entity` text NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL, `livemode` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `webhook_invocations_new` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL, `lease_until` text, `failure_reason` text,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks_new`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `events_new`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `webhook_attempts_new` (
	`id` text PRIMARY KEY NOT NULL,
	`invocation_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`request_time` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`status_code` integer,
	`response_body` text,
	`error` text,
	FOREIGN KEY (`invocation_id`) REFERENCES `webhook_invocations_new`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `sessions_new` (`id`, `project_id`, `kind`, `connection_identifier`, `status`, `external_id`, `multi_key`, `multi_connection`, `must_confirm`, `ssh_banner`, `ssh_message`, `match_all_keys`, `max_attempts`, `failed_attempts`, `expired_at`, `created_at`, `updated_at`, `completed_at`, `verified_at`, `require_security_key`, `require_user_verification`, `principal`, `certificate_verified_at`, `signature_challenge`, `version`, `return_url`, `redacted_at`, `livemode`) SELECT `id`, `project_id`, `kind`, `connection_identifier`, `status`, `external_id`, `multi_key`, `multi_connection`, `must_confirm`, `ssh_banner`, `ssh_message`, `match_all_keys`, `max_attempts`, `failed_attempts`, `expired_at`, `created_at`, `updated_at`, `completed_at`, `verified_at`, `require_security_key`, `require_user_verification`, `principal`, `certificate_verified_at`, `signature_challenge`, `version`, `return_url`, `redacted_at`, `livemode` FROM `sessions`;--> statement-breakpoint
INSERT INTO `webhooks_new` (`id`, `project_id`, `session_id`, `url`, `method`, `headers`, `events`, `retries`, `initial_backoff`, `backoff_multiplier`, `enabled`, `secret`, `created_at`, `updated_at`, `livemode`) SELECT `id`, `project_id`, `session_id`, `url`, `method`, `headers`, `events`, `retries`, `initial_backoff`, `backoff_multiplier`, `enabled`, `secret`, `created_at`, `updated_at`, `livemode` FROM `webhooks`;--> statement-breakpoint
INSERT INTO `connections_new` (`id`, `session_id`, `ip_address`, `client_version`, `created_at`, `closed_at`, `confirmed`, `outcome`, `method`, `refusals`, `version`) SELECT `id`, `session_id`, `ip_address`, `client_version`, `created_at`, `closed_at`, `confirmed`, `outcome`, `method`, `refusals`, `version` FROM `connections`;--> statement-breakpoint
INSERT INTO `connection_keys_new` (`id`, `connection_id`, `session_id`, `public_key_ssh`, `public_key_pem`, `public_key_md5`, `public_key_sha256`, `public_key_algorithm`, `public_key_bits`, `comment`, `created_at`, `security_key`, `certificate`) SELECT `id`, `connection_id`, `session_id`, `public_key_ssh`, `public_key_pem`, `public_key_md5`, `public_key_sha256`, `public_key_algorithm`, `public_key_bits`, `comment`, `created_at`, `security_key`, `certificate` FROM `connection_keys`;--> statement-breakpoint
INSERT INTO `session_keys_new` (`id`, `session_id`, `position`, `name`, `external_id`, `public_key_ssh`, `public_key_pem`, `public_key_md5`, `public_key_sha256`, `public_key_algorithm`, `public_key_bits`, `comment`, `verified_at`, `created_at`, `security_key`, `certificate`, `version`, `source`) SELECT `id`, `session_id`, `position`, `name`, `external_id`, `public_key_ssh`, `public_key_pem`, `public_key_md5`, `public_key_sha256`, `public_key_algorithm`, `public_key_bits`, `comment`, `verified_at`, `created_at`, `security_key`, `certificate`, `version`, `source` FROM `session_keys`;--> statement-breakpoint
INSERT INTO `session_authorities_new` (`id`, `session_id`, `position`, `name`, `public_key_ssh`, `public_key_pem`, `public_key_md5`, `public_key_sha256`, `public_key_algorithm`, `public_key_bits`, `comment`, `security_key`, `certificate`, `created_at`) SELECT `id`, `session_id`, `position`, `name`, `public_key_ssh`, `public_key_pem`, `public_key_md5`, `public_key_sha256`, `public_key_algorithm`, `public_key_bits`, `comment`, `security_key`, `certificate`, `created_at` FROM `session_authorities`;--> statement-breakpoint
INSERT INTO `events_new` (`id`, `project_id`, `session_id`, `entity`, `type`, `payload`, `created_at`, `livemode`) SELECT `id`, `project_id`, `session_id`, `entity`, `type`, `payload`, `created_at`, `livemode` FROM `events`;--> statement-breakpoint
INSERT INTO `webhook_invocations_new` (`id`, `webhook_id`, `event_id`, `status`, `attempts`, `next_attempt_at`, `created_at`, `updated_at`, `lease_until`, `failure_reason`) SELECT `id`, `webhook_id`, `event_id`, `status`, `attempts`, `next_attempt_at`, `created_at`, `updated_at`, `lease_until`, `failure_reason` FROM `webhook_invocations`;--> statement-breakpoint
INSERT INTO `webhook_attempts_new` (`id`, `invocation_id`, `attempt`, `request_time`, `duration_ms`, `status_code`, `response_body`, `error`) SELECT `id`, `invocation_id`, `attempt`, `request_time`, `duration_ms`, `status_code`, `response_body`, `error` FROM `webhook_attempts`;--> statement-breakpoint
DROP TABLE `webhook_attempts`;--> statement-breakpoint
DROP TABLE `webhook_invocations`;--> statement-breakpoint
DROP TABLE `events`;--> statement-breakpoint
DROP TABLE `session_authorities`;--> statement-breakpoint
DROP TABLE `session_keys`;--> statement-breakpoint
DROP TABLE `connection_keys`;--> statement-breakpoint
DROP TABLE `connections`;--> statement-breakpoint
DROP TABLE `webhooks`;--> statement-breakpoint
DROP TABLE `sessions`;--> statement-breakpoint
ALTER TABLE `sessions_new` RENAME TO `sessions`;--> statement-breakpoint
ALTER TABLE `webhooks_new` RENAME TO `webhooks`;--> statement-breakpoint
ALTER TABLE `connections_new` RENAME TO `connections`;--> statement-breakpoint
ALTER TABLE `connection_keys_new` RENAME TO `connection_keys`;--> statement-breakpoint
ALTER TABLE `session_keys_new` RENAME TO `session_keys`;--> statement-breakpoint
ALTER TABLE `session_authorities_new` RENAME TO `session_authorities`;--> statement-breakpoint
ALTER TABLE `events_new` RENAME TO `events`;--> statement-breakpoint
ALTER TABLE `webhook_invocations_new` RENAME TO `webhook_invocations`;--> statement-breakpoint
ALTER TABLE `webhook_attempts_new` RENAME TO `webhook_attempts`;--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_connection_identifier_unique` ON `sessions` (`connection_identifier`);--> statement-breakpoint
CREATE INDEX `sessions_project_kind_idx` ON `sessions` (`project_id`,`kind`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_project_kind_status_idx` ON `sessions` (`project_id`,`kind`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_project_created_idx` ON `sessions` (`project_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_project_completed_idx` ON `sessions` (`project_id`,`completed_at`) WHERE "sessions"."completed_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `sessions_project_kind_external_idx` ON `sessions` (`project_id`,`kind`,`external_id`,`id`) WHERE "sessions"."external_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `webhooks_project_idx` ON `webhooks` (`project_id`,`session_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhooks_session_idx` ON `webhooks` (`session_id`);--> statement-breakpoint
CREATE INDEX `connections_session_idx` ON `connections` (`session_id`,`id`);--> statement-breakpoint
CREATE INDEX `connection_keys_fingerprint_lookup_idx` ON `connection_keys` (`public_key_sha256`) WHERE "connection_keys"."security_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `connection_keys_session_idx` ON `connection_keys` (`session_id`);--> statement-breakpoint
CREATE INDEX `session_keys_session_idx` ON `session_keys` (`session_id`);--> statement-breakpoint
CREATE INDEX `session_authorities_session_idx` ON `session_authorities` (`session_id`);--> statement-breakpoint
CREATE INDEX `events_project_idx` ON `events` (`project_id`,`id`);--> statement-breakpoint
CREATE INDEX `events_session_idx` ON `events` (`session_id`,`id`) WHERE "events"."session_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `webhook_invocations_webhook_idx` ON `webhook_invocations` (`webhook_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_invocations_due_idx` ON `webhook_invocations` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_invocation_idx` ON `webhook_attempts` (`invocation_id`,`attempt`);
