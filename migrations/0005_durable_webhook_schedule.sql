DROP INDEX `webhook_invocations_outbox_idx`;--> statement-breakpoint
ALTER TABLE `webhook_invocations` ADD `lease_until` text;--> statement-breakpoint
ALTER TABLE `webhook_invocations` ADD `failure_reason` text;--> statement-breakpoint
CREATE INDEX `webhook_invocations_due_idx` ON `webhook_invocations` (`status`,`next_attempt_at`);--> statement-breakpoint
ALTER TABLE `webhook_invocations` DROP COLUMN `enqueued_at`;--> statement-breakpoint
-- Unfinished invocations written before D1 held the schedule are due from when they were made.
UPDATE `webhook_invocations` SET `next_attempt_at` = `created_at` WHERE `status` IN ('pending', 'retrying') AND `next_attempt_at` IS NULL;
