CREATE TABLE `page_set_pages` (
	`set_id` text NOT NULL,
	`n` integer NOT NULL,
	`width` real NOT NULL,
	`height` real NOT NULL,
	`error` text,
	PRIMARY KEY(`set_id`, `n`),
	FOREIGN KEY (`set_id`) REFERENCES `page_sets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `page_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`book_id` integer NOT NULL,
	`pdf_key` text NOT NULL,
	`pdf_size` integer NOT NULL,
	`page_count` integer,
	`status` text DEFAULT 'preparing' NOT NULL,
	`has_outline` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `page_sets_book_idx` ON `page_sets` (`book_id`,`status`);--> statement-breakpoint
CREATE TABLE `reading_daily` (
	`day` text NOT NULL,
	`school_id` integer NOT NULL,
	`book_id` integer NOT NULL,
	`teacher_id` integer NOT NULL,
	`pages` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `school_id`, `book_id`, `teacher_id`),
	FOREIGN KEY (`school_id`) REFERENCES `schools`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`teacher_id`) REFERENCES `teachers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reading_daily_school_day_idx` ON `reading_daily` (`school_id`,`day`);--> statement-breakpoint
CREATE INDEX `reading_daily_book_day_idx` ON `reading_daily` (`book_id`,`day`);--> statement-breakpoint
CREATE INDEX `reading_daily_teacher_idx` ON `reading_daily` (`teacher_id`);--> statement-breakpoint
ALTER TABLE `books` ADD `page_set_id` text;--> statement-breakpoint
ALTER TABLE `schools` ADD `session_limit` integer DEFAULT 3 NOT NULL;