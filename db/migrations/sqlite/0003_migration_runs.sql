CREATE TABLE `migration_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`table_name` text NOT NULL,
	`state` text DEFAULT 'running' NOT NULL,
	`progress` text NOT NULL,
	`error` text,
	`owner` text,
	`lease_expires_at` integer,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "migration_runs_state_values" CHECK("migration_runs"."state" in ('running', 'completed', 'failed', 'interrupted'))
);
--> statement-breakpoint
CREATE INDEX `migration_runs_started_at_idx` ON `migration_runs` (`started_at`);