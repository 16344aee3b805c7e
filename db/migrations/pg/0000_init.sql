CREATE TABLE "appointments" (
	"id" text PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"consultation_type" text NOT NULL,
	"scheduled_date" timestamp with time zone NOT NULL,
	"duration" integer DEFAULT 30 NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"notes" text,
	"practice_area" text NOT NULL,
	"reminder_sent" boolean DEFAULT false NOT NULL,
	"external_event_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointments_status_values" CHECK ("appointments"."status" in ('scheduled', 'confirmed', 'cancelled', 'completed')),
	CONSTRAINT "appointments_duration_positive" CHECK ("appointments"."duration" > 0)
);
--> statement-breakpoint
CREATE TABLE "blog_post_redirects" (
	"id" text PRIMARY KEY NOT NULL,
	"old_slug" text NOT NULL,
	"post_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blog_post_redirects_old_slug_unique" UNIQUE("old_slug")
);
--> statement-breakpoint
CREATE TABLE "blog_posts" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"excerpt" text NOT NULL,
	"content" text NOT NULL,
	"category" text NOT NULL,
	"author" text DEFAULT 'Pacific Crest Law Group' NOT NULL,
	"is_published" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blog_posts_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "blog_sources" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"type" text DEFAULT 'rss' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"display_limit" integer DEFAULT 5 NOT NULL,
	"config" text,
	"last_fetched" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blog_sources_type_values" CHECK ("blog_sources"."type" in ('rss', 'api', 'scraper')),
	CONSTRAINT "blog_sources_display_limit_range" CHECK ("blog_sources"."display_limit" between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE "calendar_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"config" text NOT NULL,
	"webhook_url" text,
	"api_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_settings_provider_values" CHECK ("calendar_settings"."provider" in ('calendly', 'google', 'outlook', 'custom'))
);
--> statement-breakpoint
CREATE TABLE "component_visibility_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"component_key" text NOT NULL,
	"component_name" text NOT NULL,
	"description" text NOT NULL,
	"is_visible" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "component_visibility_settings_component_key_unique" UNIQUE("component_key")
);
--> statement-breakpoint
CREATE TABLE "contact_submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"practice_area" text NOT NULL,
	"message" text NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"is_resolved" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text DEFAULT 'sendgrid' NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"config" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_settings_provider_values" CHECK ("email_settings"."provider" in ('sendgrid', 'smtp'))
);
--> statement-breakpoint
CREATE TABLE "external_blog_articles" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"excerpt" text,
	"content" text,
	"author" text,
	"published_at" timestamp with time zone,
	"image_url" text,
	"is_visible" boolean DEFAULT true NOT NULL,
	"external_id" text,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "external_blog_articles_source_url_unique" UNIQUE("source_id","url")
);
--> statement-breakpoint
CREATE TABLE "probate_calculations" (
	"id" text PRIMARY KEY NOT NULL,
	"estate_value" numeric(12, 2) NOT NULL,
	"real_estate_value" numeric(12, 2) NOT NULL,
	"attorney_fees" numeric(12, 2) NOT NULL,
	"executor_fees" numeric(12, 2) NOT NULL,
	"court_costs" numeric(12, 2) NOT NULL,
	"total_probate" numeric(12, 2) NOT NULL,
	"trust_cost" numeric(12, 2) NOT NULL,
	"savings" numeric(12, 2) NOT NULL,
	"user_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "testimonials" (
	"id" text PRIMARY KEY NOT NULL,
	"client_name" text NOT NULL,
	"rating" integer DEFAULT 5 NOT NULL,
	"content" text NOT NULL,
	"practice_area" text NOT NULL,
	"is_published" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "testimonials_rating_range" CHECK ("testimonials"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "theme_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"description" text NOT NULL,
	"css_variables" text NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "theme_settings_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password" text NOT NULL,
	"role" text DEFAULT 'admin' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_username_unique" UNIQUE("username")
);
--> statement-breakpoint
ALTER TABLE "blog_post_redirects" ADD CONSTRAINT "blog_post_redirects_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_blog_articles" ADD CONSTRAINT "external_blog_articles_source_id_blog_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."blog_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointments_scheduled_date_idx" ON "appointments" USING btree ("scheduled_date");--> statement-breakpoint
CREATE INDEX "blog_posts_published_idx" ON "blog_posts" USING btree ("is_published","published_at");--> statement-breakpoint
CREATE INDEX "contact_submissions_created_at_idx" ON "contact_submissions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "testimonials_created_at_idx" ON "testimonials" USING btree ("created_at");