CREATE TABLE `identity_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `identity_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `identity_challenges_user_idx` ON `identity_challenges` (`user_id`);--> statement-breakpoint
CREATE INDEX `identity_challenges_expires_idx` ON `identity_challenges` (`expires_at`);--> statement-breakpoint
CREATE TABLE `identity_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by` text NOT NULL,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	`revoked_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `identity_invitations_token_hash_unique` ON `identity_invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `identity_invitations_expires_idx` ON `identity_invitations` (`expires_at`);--> statement-breakpoint
CREATE TABLE `outbox_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text,
	`sealed` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `outbox_messages_created_at_idx` ON `outbox_messages` (`created_at`);--> statement-breakpoint
CREATE INDEX `outbox_messages_delivery_idx` ON `outbox_messages` (`delivery_id`);--> statement-breakpoint
ALTER TABLE `blog_posts` ADD `previews_revoked_at` integer;--> statement-breakpoint
ALTER TABLE `identity_users` ADD `email_key` text;--> statement-breakpoint
ALTER TABLE `identity_users` ADD `admin_requested_at` integer;--> statement-breakpoint
ALTER TABLE `identity_users` ADD `srp_verifier` text;--> statement-breakpoint
ALTER TABLE `identity_users` ADD `mfa_secret` text;--> statement-breakpoint
ALTER TABLE `identity_users` ADD `mfa_pending_secret` text;--> statement-breakpoint
ALTER TABLE `identity_users` ADD `mfa_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `identity_users` ADD `mfa_last_step` integer;--> statement-breakpoint
-- One confirmed account per address: the oldest confirmed account of each address (an admin first) keeps it.
UPDATE `identity_users` SET `email_key` = lower(`email`) WHERE `id` IN (SELECT `id` FROM (SELECT `id`, row_number() OVER (PARTITION BY lower(`email`) ORDER BY `is_admin` DESC, `created_at` ASC, `id` ASC) AS n FROM `identity_users` WHERE `status` = 'CONFIRMED') AS ranked WHERE n = 1);--> statement-breakpoint
CREATE UNIQUE INDEX `identity_users_email_key_unique` ON `identity_users` (`email_key`);