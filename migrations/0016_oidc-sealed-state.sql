ALTER TABLE `oidc_requests` DROP COLUMN `nonce`;--> statement-breakpoint
ALTER TABLE `oidc_requests` DROP COLUMN `code_verifier`;