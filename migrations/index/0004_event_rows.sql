-- A push's events are one row of `event_rows`: one row written a push, not one an
-- event, and one deleted at erasure. Their ids share their first 29 characters and the row is
-- keyed by the first; the fields their payloads all start with are kept once, in `common`
-- (db/webhooks.ts). Each event kept before this is a row of its own, keyed by its own id;
-- `events` becomes a view of the rows, one line an event, as every read sees them.
CREATE TABLE `event_rows` (
	`id` text NOT NULL,
	`project_id` text NOT NULL,
	`session_id` text,
	`entity` text NOT NULL,
	`livemode` integer DEFAULT true NOT NULL,
	`events` text NOT NULL,
	`common` text,
	PRIMARY KEY(`project_id`, `id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `event_rows` (`id`, `project_id`, `session_id`, `entity`, `livemode`, `events`)
	SELECT `id`, `project_id`, `session_id`, `entity`, `livemode`,
		json_array(json_object('s', substr(`id`, 30), 't', `type`, 'p', json(`payload`), 'at', `created_at`))
	FROM `events`;
--> statement-breakpoint
CREATE INDEX `event_rows_ping_idx` ON `event_rows` (`id`) WHERE "event_rows"."session_id" IS NULL;
--> statement-breakpoint
DROP TABLE `events`;
--> statement-breakpoint
CREATE VIEW `events` AS
	SELECT substr(r.`id`, 1, 29) || json_extract(e.`value`, '$.s') AS `id`,
		r.`id` AS `row_id`,
		e.`key` AS `position`,
		r.`project_id`,
		r.`session_id`,
		r.`entity`,
		json_extract(e.`value`, '$.t') AS `type`,
		r.`livemode`,
		CASE WHEN r.`common` IS NULL THEN json_extract(e.`value`, '$.p') ELSE (
			SELECT json_group_object(f.`key`, CASE f.`type`
				WHEN 'true' THEN json('true') WHEN 'false' THEN json('false')
				WHEN 'object' THEN json(f.`value`) WHEN 'array' THEN json(f.`value`)
				ELSE f.`value` END)
			FROM (SELECT `key`, `type`, `value` FROM json_each(r.`common`)
				UNION ALL SELECT `key`, `type`, `value` FROM json_each(e.`value`, '$.p')) AS f
		) END AS `payload`,
		json_extract(e.`value`, '$.at') AS `created_at`
	FROM `event_rows` AS r, json_each(r.`events`) AS e;
