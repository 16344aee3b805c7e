CREATE TABLE "appointment_slot_claims" (
	"starts_at" timestamp with time zone PRIMARY KEY NOT NULL,
	"appointment_id" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appointment_slot_claims" ADD CONSTRAINT "appointment_slot_claims_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointment_slot_claims_appointment_id_idx" ON "appointment_slot_claims" USING btree ("appointment_id");--> statement-breakpoint
-- Backfill (hand-written, docs/decisions/008): claim the 30-minute cells of every appointment that is
-- still scheduled or confirmed, so slots booked before this migration stay taken. A cell two legacy
-- appointments share goes to the one booked first.
INSERT INTO "appointment_slot_claims" ("starts_at", "appointment_id")
SELECT "cell", "a"."id"
  FROM "appointments" "a"
 CROSS JOIN LATERAL generate_series(
       to_timestamp(floor(extract(epoch FROM "a"."scheduled_date") / 1800) * 1800),
       "a"."scheduled_date" + make_interval(mins => "a"."duration") - interval '1 microsecond',
       interval '30 minutes') AS "cell"
 WHERE "a"."status" IN ('scheduled', 'confirmed')
 ORDER BY "a"."created_at", "a"."id", "cell"
ON CONFLICT DO NOTHING;
