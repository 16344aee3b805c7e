CREATE TABLE `appointments` (
	`id` text PRIMARY KEY NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`consultation_type` text NOT NULL,
	`scheduled_date` integer NOT NULL,
	`duration` integer DEFAULT 30 NOT NULL,
	`status` text DEFAULT 'scheduled' NOT NULL,
	`notes` text,
	`practice_area` text NOT NULL,
	`reminder_sent` integer DEFAULT false NOT NULL,
	`external_event_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "appointments_status_values" CHECK("appointments"."status" in ('scheduled', 'confirmed', 'cancelled', 'completed')),
	CONSTRAINT "appointments_duration_positive" CHECK("appointments"."duration" > 0)
);
--> statement-breakpoint
CREATE INDEX `appointments_scheduled_date_idx` ON `appointments` (`scheduled_date`);--> statement-breakpoint
CREATE TABLE `blog_post_redirects` (
	`id` text PRIMARY KEY NOT NULL,
	`old_slug` text NOT NULL,
	`post_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`post_id`) REFERENCES `blog_posts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `blog_post_redirects_old_slug_unique` ON `blog_post_redirects` (`old_slug`);--> statement-breakpoint
CREATE TABLE `blog_posts` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`excerpt` text NOT NULL,
	`content` text NOT NULL,
	`category` text NOT NULL,
	`author` text DEFAULT 'Pacific Crest Law Group' NOT NULL,
	`is_published` integer DEFAULT false NOT NULL,
	`published_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `blog_posts_slug_unique` ON `blog_posts` (`slug`);--> statement-breakpoint
CREATE INDEX `blog_posts_published_idx` ON `blog_posts` (`is_published`,`published_at`);--> statement-breakpoint
CREATE TABLE `blog_sources` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`type` text DEFAULT 'rss' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`display_limit` integer DEFAULT 5 NOT NULL,
	`config` text,
	`last_fetched` integer,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "blog_sources_type_values" CHECK("blog_sources"."type" in ('rss', 'api', 'scraper')),
	CONSTRAINT "blog_sources_display_limit_range" CHECK("blog_sources"."display_limit" between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE `calendar_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`is_active` integer DEFAULT false NOT NULL,
	`config` text NOT NULL,
	`webhook_url` text,
	`api_key` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "calendar_settings_provider_values" CHECK("calendar_settings"."provider" in ('calendly', 'google', 'outlook', 'custom'))
);
--> statement-breakpoint
CREATE TABLE `component_visibility_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`component_key` text NOT NULL,
	`component_name` text NOT NULL,
	`description` text NOT NULL,
	`is_visible` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `component_visibility_settings_component_key_unique` ON `component_visibility_settings` (`component_key`);--> statement-breakpoint
CREATE TABLE `contact_submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`practice_area` text NOT NULL,
	`message` text NOT NULL,
	`is_read` integer DEFAULT false NOT NULL,
	`is_resolved` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contact_submissions_created_at_idx` ON `contact_submissions` (`created_at`);--> statement-breakpoint
CREATE TABLE `email_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text DEFAULT 'sendgrid' NOT NULL,
	`is_active` integer DEFAULT false NOT NULL,
	`config` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "email_settings_provider_values" CHECK("email_settings"."provider" in ('sendgrid', 'smtp'))
);
--> statement-breakpoint
CREATE TABLE `external_blog_articles` (
	`id` text PRIMARY KEY NOT NULL,
	`source_id` text NOT NULL,
	`title` text NOT NULL,
	`url` text NOT NULL,
	`excerpt` text,
	`content` text,
	`author` text,
	`published_at` integer,
	`image_url` text,
	`is_visible` integer DEFAULT true NOT NULL,
	`external_id` text,
	`fetched_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `blog_sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `external_blog_articles_source_url_unique` ON `external_blog_articles` (`source_id`,`url`);--> statement-breakpoint
CREATE TABLE `probate_calculations` (
	`id` text PRIMARY KEY NOT NULL,
	`estate_value` text NOT NULL,
	`real_estate_value` text NOT NULL,
	`attorney_fees` text NOT NULL,
	`executor_fees` text NOT NULL,
	`court_costs` text NOT NULL,
	`total_probate` text NOT NULL,
	`trust_cost` text NOT NULL,
	`savings` text NOT NULL,
	`user_email` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `testimonials` (
	`id` text PRIMARY KEY NOT NULL,
	`client_name` text NOT NULL,
	`rating` integer DEFAULT 5 NOT NULL,
	`content` text NOT NULL,
	`practice_area` text NOT NULL,
	`is_published` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "testimonials_rating_range" CHECK("testimonials"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE INDEX `testimonials_created_at_idx` ON `testimonials` (`created_at`);--> statement-breakpoint
CREATE TABLE `theme_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`display_name` text NOT NULL,
	`description` text NOT NULL,
	`css_variables` text NOT NULL,
	`is_active` integer DEFAULT false NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `theme_settings_name_unique` ON `theme_settings` (`name`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`password` text NOT NULL,
	`role` text DEFAULT 'admin' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);