-- The tables session objects kept their session in from 2026-11 until 2026-11-26, made at once:
-- the columns the drizzle migrations in migrations/session-object reach (0000 … 0004), as
-- WITHOUT ROWID tables with no secondary index. Objects now keep key-value entries
-- (session-record.ts); one that still has these tables moves them to entries as it wakes
-- (legacy-tables.ts). Kept so that tests can make such an object, and as the record of the format.
CREATE TABLE `connection_keys` (
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
	`security_key` text,
	`certificate` text,
	`created_at` text NOT NULL,
	`version` integer NOT NULL
) WITHOUT ROWID;
CREATE TABLE `connections` (
	`id` text PRIMARY KEY NOT NULL,
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
	`lease_until` integer,
	`rules` text NOT NULL,
	`confirming` text
) WITHOUT ROWID;
CREATE TABLE `outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	`version` integer NOT NULL
) WITHOUT ROWID;
CREATE TABLE `session` (
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
	`expired_at` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`completed_at` text,
	`verified_at` text,
	`version` integer DEFAULT 0 NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	`return_url` text,
	`redacted_at` text,
	`livemode` integer DEFAULT true NOT NULL
) WITHOUT ROWID;
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
	`version` integer NOT NULL
) WITHOUT ROWID;
CREATE TABLE `session_keys` (
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
	`security_key` text,
	`certificate` text,
	`verified_at` text,
	`created_at` text NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`source` text
) WITHOUT ROWID;
