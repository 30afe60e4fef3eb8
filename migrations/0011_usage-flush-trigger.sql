-- A school object's usage batch (docs/decisions/0024), applied by D1 in one statement:
--   INSERT INTO usage_flush (school_id, seq, rows) VALUES (?, ?, ?)
-- `rows` is a JSON array of [day, book_id, teacher_id, pages, seconds, last_at, new_teacher, new_book];
-- `progress` of [teacher_id, book_id, page, updated_at], the page each teacher was last on.
-- The view stores nothing; its trigger adds the batch to the rollups the reports read, once: a
-- batch whose number the school has already applied (a retried alarm, a lost answer) changes
-- nothing, and so does a batch for a school that no longer exists. Rows of a teacher or book
-- deleted since still count in the school's and the platform's totals, as before.
CREATE VIEW `usage_flush` AS SELECT 0 AS school_id, 0 AS seq, '[]' AS rows, '[]' AS progress WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `usage_flush_apply` INSTEAD OF INSERT ON `usage_flush` BEGIN
	SELECT RAISE(IGNORE) WHERE NOT EXISTS (SELECT 1 FROM schools WHERE id = NEW.school_id AND usage_flush_seq < NEW.seq);
	UPDATE schools SET usage_flush_seq = NEW.seq,
		last_active_day = max(coalesce(last_active_day, ''), (SELECT max(json_extract(value, '$[0]')) FROM json_each(NEW.rows)))
	WHERE id = NEW.school_id;
	INSERT INTO reading_daily (day, school_id, book_id, teacher_id, pages, seconds, last_at)
		SELECT json_extract(value, '$[0]'), NEW.school_id, json_extract(value, '$[1]'), json_extract(value, '$[2]'),
			json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]')
		FROM json_each(NEW.rows)
		WHERE json_extract(value, '$[2]') IN (SELECT id FROM teachers WHERE school_id = NEW.school_id)
			AND json_extract(value, '$[1]') IN (SELECT id FROM books)
	ON CONFLICT (day, school_id, book_id, teacher_id) DO UPDATE SET pages = pages + excluded.pages,
		seconds = seconds + excluded.seconds, last_at = max(coalesce(last_at, 0), excluded.last_at);
	INSERT INTO school_usage_daily (school_id, day, active_teachers, books_opened, pages, seconds)
		SELECT NEW.school_id, json_extract(value, '$[0]') AS d, sum(json_extract(value, '$[6]')), sum(json_extract(value, '$[7]')),
			sum(json_extract(value, '$[3]')), sum(json_extract(value, '$[4]'))
		FROM json_each(NEW.rows) WHERE true GROUP BY d
	ON CONFLICT (school_id, day) DO UPDATE SET active_teachers = active_teachers + excluded.active_teachers,
		books_opened = books_opened + excluded.books_opened, pages = pages + excluded.pages, seconds = seconds + excluded.seconds;
	INSERT INTO usage_daily (day, active_teachers, books_opened, pages, seconds)
		SELECT json_extract(value, '$[0]') AS d, sum(json_extract(value, '$[6]')), sum(json_extract(value, '$[7]')),
			sum(json_extract(value, '$[3]')), sum(json_extract(value, '$[4]'))
		FROM json_each(NEW.rows) WHERE true GROUP BY d
	ON CONFLICT (day) DO UPDATE SET active_teachers = active_teachers + excluded.active_teachers,
		books_opened = books_opened + excluded.books_opened, pages = pages + excluded.pages, seconds = seconds + excluded.seconds;
	INSERT INTO reading_progress (teacher_id, book_id, page, updated_at)
		SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]')
		FROM json_each(NEW.progress)
		WHERE json_extract(value, '$[0]') IN (SELECT id FROM teachers WHERE school_id = NEW.school_id)
			AND json_extract(value, '$[1]') IN (SELECT id FROM books)
	ON CONFLICT (teacher_id, book_id) DO UPDATE SET page = excluded.page, updated_at = excluded.updated_at
		WHERE excluded.updated_at >= reading_progress.updated_at;
	UPDATE teachers SET last_active_day = (
		SELECT max(json_extract(value, '$[0]')) FROM json_each(NEW.rows) WHERE json_extract(value, '$[2]') = teachers.id)
	WHERE school_id = NEW.school_id
		AND id IN (SELECT json_extract(value, '$[2]') FROM json_each(NEW.rows))
		AND (last_active_day IS NULL OR last_active_day < (
			SELECT max(json_extract(value, '$[0]')) FROM json_each(NEW.rows) WHERE json_extract(value, '$[2]') = teachers.id));
END;
