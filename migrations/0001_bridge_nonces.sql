CREATE TABLE `bridge_nonces` (
	`nonce` text PRIMARY KEY NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bridge_nonces_expiry_idx` ON `bridge_nonces` (`expires_at`);