CREATE TABLE "cdn_purges" (
	"id" text PRIMARY KEY NOT NULL,
	"keys" text NOT NULL,
	"paths" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "cdn_purges_next_attempt_idx" ON "cdn_purges" USING btree ("next_attempt_at");