CREATE TABLE `code_batch_books` (
	`batch_id` integer NOT NULL,
	`book_id` integer NOT NULL,
	PRIMARY KEY(`batch_id`, `book_id`),
	FOREIGN KEY (`batch_id`) REFERENCES `code_batches`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `code_batch_books_book_idx` ON `code_batch_books` (`book_id`);--> statement-breakpoint
CREATE TABLE `code_batches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`label` text NOT NULL,
	`days` integer,
	`ends_on` text,
	`seats` integer,
	`offline_allowed` integer DEFAULT true NOT NULL,
	`offline_days` integer DEFAULT 14 NOT NULL,
	`count` integer NOT NULL,
	`redeem_by` text,
	`created_by` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE INDEX `code_batches_label_idx` ON `code_batches` (`label`);--> statement-breakpoint
CREATE TABLE `codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`batch_id` integer NOT NULL,
	`hash` text NOT NULL,
	`last4` text NOT NULL,
	`redeemed_at` integer,
	`school_id` integer,
	`school_name` text,
	`redemption` text,
	`revoked_at` integer,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`batch_id`) REFERENCES `code_batches`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`school_id`) REFERENCES `schools`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `codes_hash` ON `codes` (`hash`);--> statement-breakpoint
CREATE INDEX `codes_batch_idx` ON `codes` (`batch_id`);--> statement-breakpoint
CREATE INDEX `codes_school_idx` ON `codes` (`school_id`);--> statement-breakpoint
CREATE INDEX `codes_redeemed_idx` ON `codes` (`redeemed_at`);