ALTER TABLE "deliveries" DROP CONSTRAINT "deliveries_status_values";--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_status_values" CHECK ("deliveries"."status" in ('pending', 'sending', 'sent', 'held', 'failed', 'skipped'));--> statement-breakpoint
-- Mail kept in the development outbox was recorded as sent (issue 19): it was held, never sent.
UPDATE "deliveries" SET "status" = 'held', "sent_at" = NULL WHERE "status" = 'sent' AND "external_ref" = 'outbox';
