CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_email_unique` ON `accounts` (`email`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`hash` text NOT NULL,
	`created_at` text NOT NULL,
	`expired_at` text,
	`revoked_at` text,
	`last_used_at` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE INDEX `api_keys_project_idx` ON `api_keys` (`project_id`,`id`);--> statement-breakpoint
CREATE TABLE `project_members` (
	`project_id` text NOT NULL,
	`account_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`project_id`, `account_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `project_members_account_idx` ON `project_members` (`account_id`);--> statement-breakpoint
CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
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
	`created_at` text NOT NULL,
	FOREIGN KEY (`connection_id`) REFERENCES `connections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `connection_keys_fingerprint_idx` ON `connection_keys` (`connection_id`,`public_key_sha256`);--> statement-breakpoint
CREATE INDEX `connection_keys_session_idx` ON `connection_keys` (`session_id`,`public_key_sha256`);--> statement-breakpoint
CREATE TABLE `connections` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`ip_address` text NOT NULL,
	`client_version` text NOT NULL,
	`created_at` text NOT NULL,
	`closed_at` text,
	`confirmed` integer,
	`outcome` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `connections_session_idx` ON `connections` (`session_id`,`id`);--> statement-breakpoint
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
	`verified_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `session_keys_fingerprint_idx` ON `session_keys` (`session_id`,`public_key_sha256`);--> statement-breakpoint
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
	`expired_at` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`completed_at` text,
	`verified_at` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_connection_identifier_unique` ON `sessions` (`connection_identifier`);--> statement-breakpoint
CREATE INDEX `sessions_project_kind_idx` ON `sessions` (`project_id`,`kind`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_project_kind_status_idx` ON `sessions` (`project_id`,`kind`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_project_kind_external_idx` ON `sessions` (`project_id`,`kind`,`external_id`,`id`);