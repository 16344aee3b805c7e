CREATE TABLE `calendar_sync_states` (
	`integration_id` text PRIMARY KEY NOT NULL,
	`cursor` text,
	`version` integer DEFAULT 0 NOT NULL,
	`lease_owner` text,
	`lease_expires_at` integer,
	`channel_id` text,
	`channel_resource_id` text,
	`channel_secret` text,
	`channel_expires_at` integer,
	`channel_address` text,
	`last_synced_at` integer,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`integration_id`) REFERENCES `calendar_settings`(`id`) ON UPDATE no action ON DELETE cascade
);
