CREATE TABLE `deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`channel` text NOT NULL,
	`purpose` text NOT NULL,
	`appointment_id` text,
	`integration_id` text,
	`recipient` text,
	`payload` text NOT NULL,
	`dedupe_key` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_expires_at` integer,
	`last_error` text,
	`external_ref` text,
	`sent_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "deliveries_channel_values" CHECK("deliveries"."channel" in ('email', 'calendar')),
	CONSTRAINT "deliveries_status_values" CHECK("deliveries"."status" in ('pending', 'sending', 'sent', 'failed', 'skipped'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_dedupe_key_unique` ON `deliveries` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `deliveries_due_idx` ON `deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `deliveries_appointment_idx` ON `deliveries` (`appointment_id`);--> statement-breakpoint
CREATE INDEX `deliveries_created_at_idx` ON `deliveries` (`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `appointments_external_event_id_unique` ON `appointments` (`external_event_id`);