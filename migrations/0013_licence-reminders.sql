CREATE TABLE `licence_reminders` (
	`licence_id` integer NOT NULL,
	`ends_on` text NOT NULL,
	`days_before` integer NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`licence_id`, `ends_on`, `days_before`),
	FOREIGN KEY (`licence_id`) REFERENCES `book_access`(`id`) ON UPDATE no action ON DELETE cascade
);
