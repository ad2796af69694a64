ALTER TABLE `api_keys` ADD `livemode` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `livemode` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `livemode` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `livemode` integer DEFAULT true NOT NULL;