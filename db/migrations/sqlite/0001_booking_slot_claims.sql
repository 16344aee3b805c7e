CREATE TABLE `appointment_slot_claims` (
	`starts_at` integer PRIMARY KEY NOT NULL,
	`appointment_id` text NOT NULL,
	FOREIGN KEY (`appointment_id`) REFERENCES `appointments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `appointment_slot_claims_appointment_id_idx` ON `appointment_slot_claims` (`appointment_id`);--> statement-breakpoint
-- Backfill (hand-written, docs/decisions/008): claim the 30-minute cells of every appointment that is
-- still scheduled or confirmed, so slots booked before this migration stay taken. A cell two legacy
-- appointments share goes to the one booked first.
WITH RECURSIVE `cells` (`starts_at`, `appointment_id`, `ends_at`, `created_at`) AS (
	SELECT (`scheduled_date` / 1800000) * 1800000, `id`, `scheduled_date` + `duration` * 60000, `created_at`
	  FROM `appointments` WHERE `status` IN ('scheduled', 'confirmed')
	UNION ALL
	SELECT `starts_at` + 1800000, `appointment_id`, `ends_at`, `created_at` FROM `cells` WHERE `starts_at` + 1800000 < `ends_at`
)
INSERT INTO `appointment_slot_claims` (`starts_at`, `appointment_id`)
SELECT `starts_at`, `appointment_id` FROM `cells` WHERE true ORDER BY `created_at`, `appointment_id`, `starts_at`
ON CONFLICT DO NOTHING;
