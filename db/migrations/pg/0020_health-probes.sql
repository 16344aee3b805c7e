CREATE TABLE "health_probes" (
	"origin" text PRIMARY KEY NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
