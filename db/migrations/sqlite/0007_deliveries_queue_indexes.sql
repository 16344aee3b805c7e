DROP INDEX `deliveries_due_idx`;--> statement-breakpoint
CREATE INDEX `deliveries_unfinished_idx` ON `deliveries` (`created_at`,`id`) WHERE "deliveries"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX `deliveries_unfinished_by_appointment_idx` ON `deliveries` (`appointment_id`,`channel`,`created_at`,`id`) WHERE "deliveries"."status" in ('pending', 'sending');