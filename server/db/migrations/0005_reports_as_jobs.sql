ALTER TABLE "reports" ADD COLUMN "snapshot" jsonb;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "claimed_by" varchar(64);--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "reports_queue_idx" ON "reports" USING btree ("created_at") WHERE "reports"."status" in ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "reports_unfinished_dedupe_uq" ON "reports" USING btree ("dedupe_key") WHERE "reports"."status" in ('queued', 'running');