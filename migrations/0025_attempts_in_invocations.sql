-- A delivery's attempts live in its invocation's row, as the JSON list the API shows: the update
-- that counts an attempt records it, where a row of its own was one more row written an attempt.
ALTER TABLE `webhook_invocations` ADD `attempt_log` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
UPDATE `webhook_invocations` SET `attempt_log` = (
  SELECT json_group_array(json_object(
    'attempt', `attempt`, 'request_time', `request_time`, 'duration_ms', `duration_ms`,
    'status_code', `status_code`, 'response_body', `response_body`, 'error', `error`))
  FROM (SELECT * FROM `webhook_attempts` AS `a`
        WHERE `a`.`invocation_id` = `webhook_invocations`.`id` ORDER BY `a`.`attempt`)
) WHERE EXISTS (SELECT 1 FROM `webhook_attempts` AS `a` WHERE `a`.`invocation_id` = `webhook_invocations`.`id`);--> statement-breakpoint
DROP TABLE `webhook_attempts`;
