CREATE TABLE `cdn_purges` (
	`id` text PRIMARY KEY NOT NULL,
	`keys` text NOT NULL,
	`paths` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_expires_at` integer,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cdn_purges_next_attempt_idx` ON `cdn_purges` (`next_attempt_at`);