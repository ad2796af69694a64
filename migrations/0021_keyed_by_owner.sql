-- Keyed by what reads them (issue #33): a session's connections and keys by session, events by
-- project, all WITHOUT ROWID. The key is then the index the reads use, so each row written is one
-- row billed where an id key and an index were two. An invocation names its event by the event's
-- new key, its project and id (the project copied from its webhook's), and still goes with it;
-- pings, events of no session, get an index of their own for housekeeping's sweep. As 0019:
-- tables built beside, rows copied, the old ones dropped children first (so no ON DELETE CASCADE
-- runs: D1 keeps foreign keys on), then renamed, which points the new tables' references at the
-- final names.
CREATE TABLE `connections_new` (
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
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `connection_keys_new` (
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
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `events_new` (
	`id` text NOT NULL,
	`project_id` text NOT NULL,
	`session_id` text,
	`entity` text NOT NULL,
	`type` text NOT NULL,
	`livemode` integer DEFAULT true NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`project_id`, `id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `webhook_invocations_new` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`project_id` text NOT NULL,
	`event_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` text,
	`lease_until` text,
	`failure_reason` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`,`event_id`) REFERENCES `events_new`(`project_id`,`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `webhook_attempts_new` (
	`id` text NOT NULL,
	`invocation_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`request_time` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`status_code` integer,
	`response_body` text,
	`error` text,
	PRIMARY KEY(`invocation_id`, `attempt`),
	FOREIGN KEY (`invocation_id`) REFERENCES `webhook_invocations_new`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `connections_new`("id", "session_id", "method", "ip_address", "client_version", "created_at", "closed_at", "confirmed", "outcome", "refusals", "version") SELECT "id", "session_id", "method", "ip_address", "client_version", "created_at", "closed_at", "confirmed", "outcome", "refusals", "version" FROM `connections`;--> statement-breakpoint
INSERT INTO `connection_keys_new`("id", "connection_id", "session_id", "public_key_ssh", "public_key_pem", "public_key_md5", "public_key_sha256", "public_key_algorithm", "public_key_bits", "comment", "security_key", "certificate", "created_at") SELECT "id", "connection_id", "session_id", "public_key_ssh", "public_key_pem", "public_key_md5", "public_key_sha256", "public_key_algorithm", "public_key_bits", "comment", "security_key", "certificate", "created_at" FROM `connection_keys`;--> statement-breakpoint
INSERT INTO `events_new`("id", "project_id", "session_id", "entity", "type", "livemode", "payload", "created_at") SELECT "id", "project_id", "session_id", "entity", "type", "livemode", "payload", "created_at" FROM `events`;--> statement-breakpoint
INSERT INTO `webhook_invocations_new`("id", "webhook_id", "project_id", "event_id", "status", "attempts", "next_attempt_at", "lease_until", "failure_reason", "created_at", "updated_at") SELECT i."id", i."webhook_id", w."project_id", i."event_id", i."status", i."attempts", i."next_attempt_at", i."lease_until", i."failure_reason", i."created_at", i."updated_at" FROM `webhook_invocations` i JOIN `webhooks` w ON w."id" = i."webhook_id";--> statement-breakpoint
INSERT INTO `webhook_attempts_new`("id", "invocation_id", "attempt", "request_time", "duration_ms", "status_code", "response_body", "error") SELECT "id", "invocation_id", "attempt", "request_time", "duration_ms", "status_code", "response_body", "error" FROM `webhook_attempts`;--> statement-breakpoint
DROP TABLE `webhook_attempts`;--> statement-breakpoint
DROP TABLE `webhook_invocations`;--> statement-breakpoint
DROP TABLE `events`;--> statement-breakpoint
DROP TABLE `connection_keys`;--> statement-breakpoint
DROP TABLE `connections`;--> statement-breakpoint
ALTER TABLE `connections_new` RENAME TO `connections`;--> statement-breakpoint
ALTER TABLE `connection_keys_new` RENAME TO `connection_keys`;--> statement-breakpoint
ALTER TABLE `events_new` RENAME TO `events`;--> statement-breakpoint
ALTER TABLE `webhook_invocations_new` RENAME TO `webhook_invocations`;--> statement-breakpoint
ALTER TABLE `webhook_attempts_new` RENAME TO `webhook_attempts`;--> statement-breakpoint
CREATE INDEX `connection_keys_fingerprint_lookup_idx` ON `connection_keys` (`public_key_sha256`) WHERE "connection_keys"."security_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `events_session_idx` ON `events` (`session_id`,`id`) WHERE "events"."session_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `events_ping_idx` ON `events` (`id`) WHERE "events"."session_id" IS NULL;--> statement-breakpoint
CREATE INDEX `webhook_invocations_webhook_idx` ON `webhook_invocations` (`webhook_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_invocations_due_idx` ON `webhook_invocations` (`status`,`next_attempt_at`);
