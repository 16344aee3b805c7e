CREATE TABLE "calendar_notices" (
	"id" text PRIMARY KEY NOT NULL,
	"integration_id" text,
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"message" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "calendar_notices_kind_values" CHECK ("calendar_notices"."kind" in ('unreachable', 'reachable-again', 'overlap'))
);
--> statement-breakpoint
CREATE INDEX "calendar_notices_last_seen_idx" ON "calendar_notices" USING btree ("last_seen_at");--> statement-breakpoint
CREATE INDEX "calendar_notices_open_idx" ON "calendar_notices" USING btree ("integration_id","kind") WHERE "calendar_notices"."ended_at" is null;