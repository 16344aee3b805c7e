CREATE TABLE `idempotency_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`fingerprint` text NOT NULL,
	`status_code` integer,
	`response_body` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_at_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `identity_codes` (
	`user_id` text NOT NULL,
	`purpose` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `identity_users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "identity_codes_purpose_values" CHECK("identity_codes"."purpose" in ('confirm-sign-up', 'reset-password'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `identity_codes_user_purpose` ON `identity_codes` (`user_id`,`purpose`);--> statement-breakpoint
CREATE TABLE `identity_pools` (
	`id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `identity_pools_client_id_unique` ON `identity_pools` (`client_id`);--> statement-breakpoint
CREATE TABLE `identity_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`client_id` text NOT NULL,
	`refresh_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `identity_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `identity_sessions_user_idx` ON `identity_sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `identity_sessions_expires_idx` ON `identity_sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `identity_signing_keys` (
	`kid` text PRIMARY KEY NOT NULL,
	`public_jwk` text NOT NULL,
	`private_key` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`retired_at` integer
);
--> statement-breakpoint
CREATE TABLE `identity_throttles` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`locked_until` integer,
	`window_started_at` integer NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `identity_users` (
	`id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`username_key` text NOT NULL,
	`email` text NOT NULL,
	`email_verified` integer DEFAULT false NOT NULL,
	`password_hash` text NOT NULL,
	`status` text DEFAULT 'UNCONFIRMED' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "identity_users_status_values" CHECK("identity_users"."status" in ('UNCONFIRMED', 'CONFIRMED'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `identity_users_username_key_unique` ON `identity_users` (`username_key`);