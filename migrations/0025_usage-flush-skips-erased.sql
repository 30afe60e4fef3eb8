-- Erasure (issue 44, docs/decisions/0045): a teacher whose personal data was erased keeps a row with
-- no person in it (teachers.erased_at set), so the usage rows under its id still count. A school
-- object's flush that was on its way while the erasure ran must not bring their reading progress
-- back: the trigger saves progress only for teachers not erased. Usage rows still go to the rollups
-- (they name no person, and the publisher's figures must not lose them). Everything else is 0018's
-- trigger as it was; a trigger holds no data, so dropping and creating it again loses nothing.
DROP TRIGGER `usage_flush_apply`;
--> statement-breakpoint
CREATE TRIGGER `usage_flush_apply` INSTEAD OF INSERT ON `usage_flush` BEGIN
	INSERT INTO seat_daily (school_id, book_id, day, peak_readers, turned_away)
		SELECT NEW.school_id, json_extract(value, '$[1]'), json_extract(value, '$[0]'), json_extract(value, '$[2]'), json_extract(value, '$[3]')
		FROM json_each(coalesce(NEW.seats, '[]'))
		WHERE EXISTS (SELECT 1 FROM schools WHERE id = NEW.school_id) AND json_extract(value, '$[1]') IN (SELECT id FROM books)
	ON CONFLICT (school_id, book_id, day) DO UPDATE SET
		peak_readers = max(peak_readers, excluded.peak_readers), turned_away = max(turned_away, excluded.turned_away);
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
		WHERE json_extract(value, '$[0]') IN (SELECT id FROM teachers WHERE school_id = NEW.school_id AND erased_at IS NULL)
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
