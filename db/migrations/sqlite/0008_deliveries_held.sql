PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_deliveries` (
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
	CONSTRAINT "deliveries_channel_values" CHECK("__new_deliveries"."channel" in ('email', 'calendar')),
	CONSTRAINT "deliveries_status_values" CHECK("__new_deliveries"."status" in ('pending', 'sending', 'sent', 'held', 'failed', 'skipped'))
);
--> statement-breakpoint
INSERT INTO `__new_deliveries`("id", "channel", "purpose", "appointment_id", "integration_id", "recipient", "payload", "dedupe_key", "status", "attempts", "next_attempt_at", "lease_expires_at", "last_error", "external_ref", "sent_at", "created_at", "updated_at") SELECT "id", "channel", "purpose", "appointment_id", "integration_id", "recipient", "payload", "dedupe_key", "status", "attempts", "next_attempt_at", "lease_expires_at", "last_error", "external_ref", "sent_at", "created_at", "updated_at" FROM `deliveries`;--> statement-breakpoint
DROP TABLE `deliveries`;--> statement-breakpoint
ALTER TABLE `__new_deliveries` RENAME TO `deliveries`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_dedupe_key_unique` ON `deliveries` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `deliveries_unfinished_idx` ON `deliveries` (`created_at`,`id`) WHERE "deliveries"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX `deliveries_unfinished_by_appointment_idx` ON `deliveries` (`appointment_id`,`channel`,`created_at`,`id`) WHERE "deliveries"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX `deliveries_appointment_idx` ON `deliveries` (`appointment_id`);--> statement-breakpoint
CREATE INDEX `deliveries_created_at_idx` ON `deliveries` (`created_at`);--> statement-breakpoint
-- Mail kept in the development outbox was recorded as sent (issue 19): it was held, never sent.
UPDATE `deliveries` SET `status` = 'held', `sent_at` = NULL WHERE `status` = 'sent' AND `external_ref` = 'outbox';
