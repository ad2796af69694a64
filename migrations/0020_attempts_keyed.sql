-- An attempt keyed by its invocation and number, WITHOUT ROWID (issue #33): the key is the index
-- the delivery log reads, so an attempt is one row written where the id key, its index and the
-- invocation's index were three. No table references this one: rebuilt as drizzle-kit does it.
CREATE TABLE `__new_webhook_attempts` (
	`id` text NOT NULL,
	`invocation_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`request_time` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`status_code` integer,
	`response_body` text,
	`error` text,
	PRIMARY KEY(`invocation_id`, `attempt`),
	FOREIGN KEY (`invocation_id`) REFERENCES `webhook_invocations`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT OR IGNORE INTO `__new_webhook_attempts`("id", "invocation_id", "attempt", "request_time", "duration_ms", "status_code", "response_body", "error") SELECT "id", "invocation_id", "attempt", "request_time", "duration_ms", "status_code", "response_body", "error" FROM `webhook_attempts`;--> statement-breakpoint
DROP TABLE `webhook_attempts`;--> statement-breakpoint
ALTER TABLE `__new_webhook_attempts` RENAME TO `webhook_attempts`;
