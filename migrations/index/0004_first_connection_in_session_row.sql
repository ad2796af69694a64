-- A session's row holds its first connection, with its keys (`first_connection`, JSON as the
-- Worker writes it): a proof's connection is written with the row its close rewrites anyway,
-- and erased with it (issue 47). Later connections keep rows of their own.
ALTER TABLE `sessions` ADD `first_connection` text;--> statement-breakpoint
UPDATE `sessions` SET `first_connection` = (
	SELECT json_object(
		'id', c.`id`,
		'method', c.`method`,
		'ipAddress', c.`ip_address`,
		'clientVersion', c.`client_version`,
		'createdAt', c.`created_at`,
		'closedAt', c.`closed_at`,
		'confirmed', CASE WHEN c.`confirmed` IS NULL THEN NULL WHEN c.`confirmed` THEN json('true') ELSE json('false') END,
		'outcome', c.`outcome`,
		'refusals', json(c.`refusals`),
		'version', c.`version`,
		'keys', json(c.`keys`)
	)
	FROM `connections` AS c
	WHERE c.`session_id` = `sessions`.`id`
	ORDER BY c.`id`
	LIMIT 1
);--> statement-breakpoint
DELETE FROM `connections`
WHERE (`session_id`, `id`) IN (
	SELECT `id`, json_extract(`first_connection`, '$.id') FROM `sessions` WHERE `first_connection` IS NOT NULL
);
