-- The catalogue's version (catalogue_state, one row): raised by the database itself on every
-- insert, change and delete of a book, so no writer (an edit, a cover, a finished page set, a
-- delete, a script) can forget it. The dashboard keeps each school's shelf while it is unchanged
-- (workers/reading/shelf-cache.ts) and reads this one row instead of every licence of the school.
INSERT INTO `catalogue_state` (`id`, `books_version`) VALUES (1, 0) ON CONFLICT (`id`) DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER `books_version_insert` AFTER INSERT ON `books` BEGIN
	UPDATE `catalogue_state` SET `books_version` = `books_version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `books_version_update` AFTER UPDATE ON `books` BEGIN
	UPDATE `catalogue_state` SET `books_version` = `books_version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `books_version_delete` AFTER DELETE ON `books` BEGIN
	UPDATE `catalogue_state` SET `books_version` = `books_version` + 1 WHERE `id` = 1;
END;
