ALTER TABLE "blog_posts" ADD COLUMN "seo_title" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "seo_description" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "featured_image_url" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "featured_image_alt" text;