CREATE TABLE `calendar_authorizations` (
	`id` text PRIMARY KEY NOT NULL,
	`state_hash` text NOT NULL,
	`binding_hash` text NOT NULL,
	`integration_id` text NOT NULL,
	`provider` text NOT NULL,
	`admin_sub` text NOT NULL,
	`code_verifier` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`integration_id`) REFERENCES `calendar_settings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `calendar_authorizations_expires_at_idx` ON `calendar_authorizations` (`expires_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_authorizations_state_hash` ON `calendar_authorizations` (`state_hash`);--> statement-breakpoint
CREATE TABLE `calendar_connections` (
	`integration_id` text PRIMARY KEY NOT NULL,
	`account_email` text,
	`calendar_name` text,
	`connected_at` integer NOT NULL,
	`needs_reconnect_at` integer,
	`needs_reconnect_reason` text,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`integration_id`) REFERENCES `calendar_settings`(`id`) ON UPDATE no action ON DELETE cascade
);
