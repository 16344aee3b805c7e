CREATE TABLE "identity_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identity_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "outbox_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"delivery_id" text,
	"sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "previews_revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "identity_users" ADD COLUMN "email_key" text;--> statement-breakpoint
ALTER TABLE "identity_users" ADD COLUMN "admin_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "identity_users" ADD COLUMN "srp_verifier" text;--> statement-breakpoint
ALTER TABLE "identity_users" ADD COLUMN "mfa_secret" text;--> statement-breakpoint
ALTER TABLE "identity_users" ADD COLUMN "mfa_pending_secret" text;--> statement-breakpoint
ALTER TABLE "identity_users" ADD COLUMN "mfa_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_users" ADD COLUMN "mfa_last_step" integer;--> statement-breakpoint
ALTER TABLE "identity_challenges" ADD CONSTRAINT "identity_challenges_user_id_identity_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."identity_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "identity_challenges_user_idx" ON "identity_challenges" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "identity_challenges_expires_idx" ON "identity_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "identity_invitations_expires_idx" ON "identity_invitations" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "outbox_messages_created_at_idx" ON "outbox_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "outbox_messages_delivery_idx" ON "outbox_messages" USING btree ("delivery_id");--> statement-breakpoint
-- One confirmed account per address: the oldest confirmed account of each address (an admin first) keeps it.
UPDATE "identity_users" SET "email_key" = lower("email") WHERE "id" IN (SELECT "id" FROM (SELECT "id", row_number() OVER (PARTITION BY lower("email") ORDER BY "is_admin" DESC, "created_at" ASC, "id" ASC) AS n FROM "identity_users" WHERE "status" = 'CONFIRMED') AS ranked WHERE n = 1);--> statement-breakpoint
ALTER TABLE "identity_users" ADD CONSTRAINT "identity_users_email_key_unique" UNIQUE("email_key");