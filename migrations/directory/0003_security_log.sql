-- An account's security log (sign-ins, failed and blocked ones, browsers signed out), and where and
-- how each signed-in browser signed in.
CREATE TABLE `security_log` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`event` text NOT NULL,
	`details` text NOT NULL,
	`ip_address` text NOT NULL,
	`user_agent` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `security_log_account_idx` ON `security_log` (`account_id`,`id`);--> statement-breakpoint
ALTER TABLE `web_sessions` ADD `ip_address` text;--> statement-breakpoint
ALTER TABLE `web_sessions` ADD `user_agent` text;--> statement-breakpoint
ALTER TABLE `web_sessions` ADD `signed_in_with` text;