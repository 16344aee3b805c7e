CREATE TABLE "external_reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"reviewer_name" text NOT NULL,
	"platform" text NOT NULL,
	"rating" integer NOT NULL,
	"content" text NOT NULL,
	"review_url" text NOT NULL,
	"reviewed_on" text,
	"is_visible" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "external_reviews_platform_values" CHECK ("external_reviews"."platform" in ('google', 'avvo', 'yelp', 'facebook', 'martindale')),
	CONSTRAINT "external_reviews_rating_range" CHECK ("external_reviews"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE INDEX "external_reviews_created_at_idx" ON "external_reviews" USING btree ("created_at");