-- Licences (docs/decisions/0028): every assignment becomes an open-ended, unlimited licence that
-- started on the day it was made. book_access is only a child table (nothing references it), so it
-- is rebuilt in place; D1 runs a migration in one transaction with foreign keys enforced.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_book_access` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`school_id` integer NOT NULL,
	`book_id` integer NOT NULL,
	`starts_on` text DEFAULT (date('now')) NOT NULL,
	`ends_on` text,
	`seats` integer,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`school_id`) REFERENCES `schools`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`book_id`) REFERENCES `books`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_book_access`("school_id", "book_id", "starts_on", "created_at", "updated_at")
  SELECT "school_id", "book_id", date("created_at" / 1000, 'unixepoch'), "created_at", "created_at" FROM `book_access` ORDER BY "created_at", "school_id", "book_id";--> statement-breakpoint
DROP TABLE `book_access`;--> statement-breakpoint
ALTER TABLE `__new_book_access` RENAME TO `book_access`;--> statement-breakpoint
CREATE UNIQUE INDEX `book_access_school_book` ON `book_access` (`school_id`,`book_id`);--> statement-breakpoint
CREATE INDEX `book_access_book_idx` ON `book_access` (`book_id`);--> statement-breakpoint
CREATE INDEX `book_access_ends_idx` ON `book_access` (`ends_on`);
