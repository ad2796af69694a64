-- The due sweep's index holds unfinished invocations only (issue #33): a finished one has no
-- next_attempt_at and leaves the index, where (status, next_attempt_at) moved it to a new entry,
-- a row written for every delivery.
DROP INDEX `webhook_invocations_due_idx`;--> statement-breakpoint
CREATE INDEX `webhook_invocations_due_idx` ON `webhook_invocations` (`next_attempt_at`) WHERE "webhook_invocations"."next_attempt_at" IS NOT NULL;