CREATE TABLE `oidc_requests` (
	`state` text PRIMARY KEY NOT NULL,
	`school_id` integer NOT NULL,
	`provider` text NOT NULL,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`return_to` text NOT NULL,
	`handoff_hash` text,
	`teacher_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`school_id`) REFERENCES `schools`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`teacher_id`) REFERENCES `teachers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oidc_requests_handoff_hash_unique` ON `oidc_requests` (`handoff_hash`);--> statement-breakpoint
CREATE INDEX `oidc_requests_created_idx` ON `oidc_requests` (`created_at`);--> statement-breakpoint
CREATE TABLE `school_sign_in` (
	`school_id` integer NOT NULL,
	`provider` text NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`domains` text DEFAULT '[]' NOT NULL,
	`tenant_id` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`school_id`, `provider`),
	FOREIGN KEY (`school_id`) REFERENCES `schools`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `teachers` ADD `coordinator` integer DEFAULT false NOT NULL;