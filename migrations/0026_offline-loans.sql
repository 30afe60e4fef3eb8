ALTER TABLE `book_access` ADD `offline_allowed` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `book_access` ADD `offline_days` integer DEFAULT 14 NOT NULL;--> statement-breakpoint
ALTER TABLE `schools` ADD `offline_books_per_teacher` integer DEFAULT 5 NOT NULL;