CREATE INDEX `page_sets_status_idx` ON `page_sets` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `preparation_notices_book_idx` ON `preparation_notices` (`book_id`,`id`);