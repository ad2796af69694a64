-- A project's home page figures of each day gone by, worked out once and kept: the page
-- reads the days it knows instead of walking 30 days of a busy project's sessions at each view.
CREATE TABLE `project_days` (
	`project_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`day` text NOT NULL,
	`figures` text NOT NULL,
	PRIMARY KEY(`project_id`, `livemode`, `day`)
) WITHOUT ROWID;
