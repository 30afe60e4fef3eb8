CREATE INDEX `audit_log_admin_at_idx` ON `audit_log` (`admin_email`,`at`);--> statement-breakpoint
CREATE INDEX `audit_log_action_at_idx` ON `audit_log` (`action`,`at`);