CREATE TABLE `catalogue_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`books_version` integer DEFAULT 0 NOT NULL
);
