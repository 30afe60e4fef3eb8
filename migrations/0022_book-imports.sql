CREATE TABLE `book_import_rows` (
	`import_id` text NOT NULL,
	`row` integer NOT NULL,
	`book_id` integer NOT NULL,
	`title` text NOT NULL,
	`pdf_file` text NOT NULL,
	`cover_file` text,
	PRIMARY KEY(`import_id`, `row`),
	FOREIGN KEY (`import_id`) REFERENCES `book_imports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `book_imports` (
	`id` text PRIMARY KEY NOT NULL,
	`admin_id` integer,
	`row_count` integer NOT NULL,
	`first_book_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE set null
);
