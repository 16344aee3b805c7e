ALTER TABLE `blog_posts` ADD `seo_title` text;--> statement-breakpoint
ALTER TABLE `blog_posts` ADD `seo_description` text;--> statement-breakpoint
ALTER TABLE `blog_posts` ADD `featured_image_url` text;--> statement-breakpoint
ALTER TABLE `blog_posts` ADD `featured_image_alt` text;