-- Invocations are keyed by their webhook (WITHOUT ROWID): the key is the delivery log's index, so
-- a delivery is written as its row and its due entry, without a third entry for the log. An
-- invocation's id is its event's and its webhook's; the few made another way (test pings, and
-- deliveries from before 2026-11-23) take that id here, so every id names its webhook. There is no
-- foreign key to events any more: its cascade searched every invocation for each event deleted
-- (no index by event); the statements that delete events delete their invocations first, found
-- from the events by their ids. Nothing references this table, so dropping it cascades nothing.
CREATE TABLE `webhook_invocations_new` (
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
) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `webhook_invocations_new`("id", "webhook_id", "project_id", "event_id", "status", "attempts", "next_attempt_at", "lease_until", "failure_reason", "attempt_log", "created_at", "updated_at")
  SELECT 'whi_' || substr("event_id", 5) || substr("webhook_id", 4), "webhook_id", "project_id", "event_id", "status", "attempts", "next_attempt_at", "lease_until", "failure_reason", "attempt_log", "created_at", "updated_at"
  FROM `webhook_invocations`;--> statement-breakpoint
DROP TABLE `webhook_invocations`;--> statement-breakpoint
ALTER TABLE `webhook_invocations_new` RENAME TO `webhook_invocations`;--> statement-breakpoint
CREATE INDEX `webhook_invocations_due_idx` ON `webhook_invocations` (`next_attempt_at`) WHERE "webhook_invocations"."next_attempt_at" IS NOT NULL;
