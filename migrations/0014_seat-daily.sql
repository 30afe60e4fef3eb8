CREATE TABLE `seat_daily` (
	`school_id` integer NOT NULL,
	`book_id` integer NOT NULL,
	`day` text NOT NULL,
	`peak_readers` integer DEFAULT 0 NOT NULL,
	`turned_away` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`school_id`, `book_id`, `day`),
	FOREIGN KEY (`school_id`) REFERENCES `schools`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `seat_daily_book_day_idx` ON `seat_daily` (`book_id`,`day`);