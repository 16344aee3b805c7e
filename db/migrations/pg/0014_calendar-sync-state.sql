CREATE TABLE "calendar_sync_states" (
	"integration_id" text PRIMARY KEY NOT NULL,
	"cursor" text,
	"version" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"channel_id" text,
	"channel_resource_id" text,
	"channel_secret" text,
	"channel_expires_at" timestamp with time zone,
	"channel_address" text,
	"last_synced_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_sync_states" ADD CONSTRAINT "calendar_sync_states_integration_id_calendar_settings_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."calendar_settings"("id") ON DELETE cascade ON UPDATE no action;