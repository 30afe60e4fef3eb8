CREATE TABLE `page_jobs` (
	`set_id` text NOT NULL,
	`first` integer NOT NULL,
	`last` integer NOT NULL,
	`state` text DEFAULT 'queued' NOT NULL,
	`tries` integer DEFAULT 0 NOT NULL,
	`at` integer,
	`blank_pages` integer DEFAULT 0 NOT NULL,
	`sent_at` integer NOT NULL,
	`leased_until` integer,
	PRIMARY KEY(`set_id`, `first`),
	FOREIGN KEY (`set_id`) REFERENCES `page_sets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `page_jobs_queued_idx` ON `page_jobs` (`state`,`leased_until`);--> statement-breakpoint
CREATE TABLE `preparation_notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`book_id` integer,
	`title` text NOT NULL,
	`admin_id` integer,
	`outcome` text NOT NULL,
	`page_count` integer,
	`failed_pages` integer DEFAULT 0 NOT NULL,
	`message` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `preparation_notices_created_idx` ON `preparation_notices` (`created_at`);--> statement-breakpoint
ALTER TABLE `page_sets` ADD `started_by` integer;