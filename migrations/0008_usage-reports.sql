CREATE TABLE `school_usage_daily` (
	`school_id` integer NOT NULL,
	`day` text NOT NULL,
	`active_teachers` integer DEFAULT 0 NOT NULL,
	`books_opened` integer DEFAULT 0 NOT NULL,
	`pages` integer DEFAULT 0 NOT NULL,
	`seconds` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`school_id`, `day`),
	FOREIGN KEY (`school_id`) REFERENCES `schools`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `school_usage_daily_day_idx` ON `school_usage_daily` (`day`);--> statement-breakpoint
CREATE TABLE `usage_daily` (
	`day` text PRIMARY KEY NOT NULL,
	`active_teachers` integer DEFAULT 0 NOT NULL,
	`books_opened` integer DEFAULT 0 NOT NULL,
	`pages` integer DEFAULT 0 NOT NULL,
	`seconds` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `usage_rankings` (
	`range_days` integer NOT NULL,
	`kind` text NOT NULL,
	`rank` integer NOT NULL,
	`entity_id` integer NOT NULL,
	`pages` integer NOT NULL,
	`seconds` integer NOT NULL,
	`readers` integer NOT NULL,
	`computed_at` integer NOT NULL,
	PRIMARY KEY(`range_days`, `kind`, `rank`)
);
--> statement-breakpoint
DROP INDEX `reading_daily_teacher_idx`;--> statement-breakpoint
ALTER TABLE `reading_daily` ADD `seconds` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `reading_daily` ADD `last_at` integer;--> statement-breakpoint
CREATE INDEX `reading_daily_teacher_day_idx` ON `reading_daily` (`teacher_id`,`day`);--> statement-breakpoint
ALTER TABLE `schools` ADD `last_active_day` text;--> statement-breakpoint
CREATE INDEX `schools_last_active_idx` ON `schools` (`last_active_day`);--> statement-breakpoint
ALTER TABLE `teachers` ADD `last_active_day` text;--> statement-breakpoint
CREATE INDEX `teachers_last_active_idx` ON `teachers` (`last_active_day`);--> statement-breakpoint
-- Rollups for the reading already counted (before this migration reading time was not measured).
INSERT INTO `school_usage_daily` (`school_id`, `day`, `active_teachers`, `books_opened`, `pages`, `seconds`)
  SELECT `school_id`, `day`, count(DISTINCT `teacher_id`), count(*), sum(`pages`), 0 FROM `reading_daily` GROUP BY `school_id`, `day`;--> statement-breakpoint
INSERT INTO `usage_daily` (`day`, `active_teachers`, `books_opened`, `pages`, `seconds`)
  SELECT `day`, count(DISTINCT `teacher_id`), count(*), sum(`pages`), 0 FROM `reading_daily` GROUP BY `day`;--> statement-breakpoint
UPDATE `teachers` SET `last_active_day` = (SELECT max(`day`) FROM `reading_daily` WHERE `teacher_id` = `teachers`.`id`);--> statement-breakpoint
UPDATE `schools` SET `last_active_day` = (SELECT max(`day`) FROM `reading_daily` WHERE `school_id` = `schools`.`id`);
