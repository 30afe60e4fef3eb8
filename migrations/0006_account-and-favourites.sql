CREATE TABLE `favourites` (
	`teacher_id` integer NOT NULL,
	`book_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`teacher_id`, `book_id`),
	FOREIGN KEY (`teacher_id`) REFERENCES `teachers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `favourites_book_idx` ON `favourites` (`book_id`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `device` text;