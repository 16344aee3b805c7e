CREATE TABLE `health_probes` (
	`origin` text PRIMARY KEY NOT NULL,
	`checked_at` integer NOT NULL
);
