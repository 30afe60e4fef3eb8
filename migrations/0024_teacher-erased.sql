ALTER TABLE `teachers` ADD `erased_at` integer;--> statement-breakpoint
CREATE INDEX `teachers_erased_idx` ON `teachers` (`erased_at`);