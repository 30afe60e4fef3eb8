-- Full-text index over the book catalogue, used by teacher and admin search.
-- A regular FTS5 table (it keeps its own copy of the indexed text) so triggers can
-- replace rows by rowid; ISBNs are indexed both as written and without hyphens.
CREATE VIRTUAL TABLE `books_fts` USING fts5(
	title,
	authors,
	subject,
	isbn,
	description,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3 4'
);
--> statement-breakpoint
INSERT INTO `books_fts` (rowid, title, authors, subject, isbn, description)
SELECT id, title, trim(author1 || ' ' || coalesce(author2, '')), coalesce(subject, ''),
	trim(coalesce(isbn, '') || ' ' || replace(coalesce(isbn, ''), '-', '')), description
FROM `books`;
--> statement-breakpoint
CREATE TRIGGER `books_fts_after_insert` AFTER INSERT ON `books` BEGIN
	INSERT INTO `books_fts` (rowid, title, authors, subject, isbn, description)
	VALUES (new.id, new.title, trim(new.author1 || ' ' || coalesce(new.author2, '')), coalesce(new.subject, ''),
		trim(coalesce(new.isbn, '') || ' ' || replace(coalesce(new.isbn, ''), '-', '')), new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `books_fts_after_update` AFTER UPDATE ON `books` BEGIN
	DELETE FROM `books_fts` WHERE rowid = old.id;
	INSERT INTO `books_fts` (rowid, title, authors, subject, isbn, description)
	VALUES (new.id, new.title, trim(new.author1 || ' ' || coalesce(new.author2, '')), coalesce(new.subject, ''),
		trim(coalesce(new.isbn, '') || ' ' || replace(coalesce(new.isbn, ''), '-', '')), new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `books_fts_after_delete` AFTER DELETE ON `books` BEGIN
	DELETE FROM `books_fts` WHERE rowid = old.id;
END;
