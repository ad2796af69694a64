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
);
--> statement-breakpoint
CREATE UNIQUE INDEX `session_authorities_fingerprint_idx` ON `session_authorities` (`session_id`,`public_key_sha256`);--> statement-breakpoint
ALTER TABLE `connection_keys` ADD `security_key` text;--> statement-breakpoint
ALTER TABLE `connection_keys` ADD `certificate` text;--> statement-breakpoint
CREATE INDEX `connection_keys_fingerprint_lookup_idx` ON `connection_keys` (`public_key_sha256`);--> statement-breakpoint
ALTER TABLE `session_keys` ADD `security_key` text;--> statement-breakpoint
ALTER TABLE `session_keys` ADD `certificate` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `require_security_key` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `require_user_verification` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `principal` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `certificate_verified_at` text;