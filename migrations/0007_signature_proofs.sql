ALTER TABLE `connections` ADD `method` text DEFAULT 'ssh' NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `signature_challenge` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Sessions made before signature proofs get a challenge of their own (new ones get one at creation).
UPDATE `sessions` SET `signature_challenge` = 'keyproof:' || lower(hex(randomblob(16))) WHERE `signature_challenge` = '';
