CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`session_id` text,
	`entity` text NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `events_project_idx` ON `events` (`project_id`,`id`);--> statement-breakpoint
CREATE INDEX `events_project_session_idx` ON `events` (`project_id`,`session_id`,`id`);--> statement-breakpoint
CREATE INDEX `events_project_type_idx` ON `events` (`project_id`,`type`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`invocation_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`request_time` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`status_code` integer,
	`response_body` text,
	`error` text,
	FOREIGN KEY (`invocation_id`) REFERENCES `webhook_invocations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_invocation_idx` ON `webhook_attempts` (`invocation_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `webhook_invocations` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` text,
	`enqueued_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_invocations_webhook_idx` ON `webhook_invocations` (`webhook_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_invocations_outbox_idx` ON `webhook_invocations` (`enqueued_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`session_id` text,
	`url` text NOT NULL,
	`method` text NOT NULL,
	`headers` text NOT NULL,
	`events` text NOT NULL,
	`retries` integer NOT NULL,
	`initial_backoff` integer NOT NULL,
	`backoff_multiplier` real NOT NULL,
	`enabled` integer NOT NULL,
	`secret` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhooks_project_idx` ON `webhooks` (`project_id`,`session_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhooks_session_idx` ON `webhooks` (`session_id`);