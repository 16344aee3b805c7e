CREATE TABLE "calendar_authorizations" (
	"id" text PRIMARY KEY NOT NULL,
	"state_hash" text NOT NULL,
	"binding_hash" text NOT NULL,
	"integration_id" text NOT NULL,
	"provider" text NOT NULL,
	"admin_sub" text NOT NULL,
	"code_verifier" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_authorizations_state_hash" UNIQUE("state_hash")
);
--> statement-breakpoint
CREATE TABLE "calendar_connections" (
	"integration_id" text PRIMARY KEY NOT NULL,
	"account_email" text,
	"calendar_name" text,
	"connected_at" timestamp with time zone NOT NULL,
	"needs_reconnect_at" timestamp with time zone,
	"needs_reconnect_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_authorizations" ADD CONSTRAINT "calendar_authorizations_integration_id_calendar_settings_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."calendar_settings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD CONSTRAINT "calendar_connections_integration_id_calendar_settings_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."calendar_settings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_authorizations_expires_at_idx" ON "calendar_authorizations" USING btree ("expires_at");