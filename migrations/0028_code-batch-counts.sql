ALTER TABLE `code_batches` ADD `redeemed_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `code_batches` ADD `revoked_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The counts of batches made before the columns, from their codes (written by hand: drizzle-kit adds columns only).
UPDATE `code_batches` SET
	`redeemed_count` = (SELECT count(*) FROM `codes` WHERE `codes`.`batch_id` = `code_batches`.`id` AND `redeemed_at` IS NOT NULL),
	`revoked_count` = (SELECT count(*) FROM `codes` WHERE `codes`.`batch_id` = `code_batches`.`id` AND `redeemed_at` IS NULL AND `revoked_at` IS NOT NULL);
