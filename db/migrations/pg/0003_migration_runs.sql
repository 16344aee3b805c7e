CREATE TABLE "migration_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"table_name" text NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"progress" text NOT NULL,
	"error" text,
	"owner" text,
	"lease_expires_at" timestamp with time zone,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "migration_runs_state_values" CHECK ("migration_runs"."state" in ('running', 'completed', 'failed', 'interrupted'))
);
--> statement-breakpoint
CREATE INDEX "migration_runs_started_at_idx" ON "migration_runs" USING btree ("started_at");