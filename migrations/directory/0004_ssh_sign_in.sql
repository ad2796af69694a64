-- SSH keys accounts sign in with, their recovery codes (hashed), and the sign-in codes signatures
-- have used.
CREATE TABLE `account_ssh_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`public_key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_ssh_keys_fingerprint_unique` ON `account_ssh_keys` (`fingerprint`);--> statement-breakpoint
CREATE INDEX `account_ssh_keys_account_idx` ON `account_ssh_keys` (`account_id`);--> statement-breakpoint
CREATE TABLE `recovery_codes` (
	`account_id` text NOT NULL,
	`code_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`used_at` text,
	PRIMARY KEY(`account_id`, `code_hash`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `used_sign_in_codes` (
	`code_hash` text PRIMARY KEY NOT NULL,
	`used_at` text NOT NULL
);
