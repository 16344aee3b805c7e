CREATE TABLE "booking_closures" (
	"id" text PRIMARY KEY NOT NULL,
	"first_day" text NOT NULL,
	"last_day" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_closures_first_before_last" CHECK ("booking_closures"."first_day" <= "booking_closures"."last_day")
);
--> statement-breakpoint
CREATE TABLE "booking_hours" (
	"id" text PRIMARY KEY NOT NULL,
	"weekday" integer NOT NULL,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	CONSTRAINT "booking_hours_weekday_start_unique" UNIQUE("weekday","start_time"),
	CONSTRAINT "booking_hours_weekday_range" CHECK ("booking_hours"."weekday" between 1 and 5),
	CONSTRAINT "booking_hours_start_before_end" CHECK ("booking_hours"."start_time" < "booking_hours"."end_time")
);
--> statement-breakpoint
CREATE TABLE "booking_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"observe_holidays" boolean DEFAULT true NOT NULL,
	"minimum_notice_hours" integer NOT NULL,
	"booking_horizon_days" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_rules_one_row" CHECK ("booking_rules"."id" = 'firm'),
	CONSTRAINT "booking_rules_notice_range" CHECK ("booking_rules"."minimum_notice_hours" between 0 and 720),
	CONSTRAINT "booking_rules_horizon_range" CHECK ("booking_rules"."booking_horizon_days" between 1 and 730)
);
--> statement-breakpoint
CREATE INDEX "booking_closures_first_day_idx" ON "booking_closures" USING btree ("first_day");--> statement-breakpoint
-- Seed (hand-written, docs/decisions/032): the booking rules that were code until now
-- (src/shared/booking/rules.ts defaultBookingRules), so nothing changes on upgrade: Monday to Friday
-- 9:00-12:00 and 1:00-5:00 PM, closed on the court holidays, two hours' notice, a year ahead.
INSERT INTO "booking_rules" ("id", "observe_holidays", "minimum_notice_hours", "booking_horizon_days") VALUES ('firm', true, 2, 365);--> statement-breakpoint
INSERT INTO "booking_hours" ("id", "weekday", "start_time", "end_time") VALUES
	('initial-1-09:00', 1, '09:00', '12:00'),
	('initial-1-13:00', 1, '13:00', '17:00'),
	('initial-2-09:00', 2, '09:00', '12:00'),
	('initial-2-13:00', 2, '13:00', '17:00'),
	('initial-3-09:00', 3, '09:00', '12:00'),
	('initial-3-13:00', 3, '13:00', '17:00'),
	('initial-4-09:00', 4, '09:00', '12:00'),
	('initial-4-13:00', 4, '13:00', '17:00'),
	('initial-5-09:00', 5, '09:00', '12:00'),
	('initial-5-13:00', 5, '13:00', '17:00');
