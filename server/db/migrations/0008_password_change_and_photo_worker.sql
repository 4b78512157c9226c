ALTER TABLE "inspection_logs" ADD COLUMN "photo_state" varchar(12) DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "inspection_logs_photo_pending_idx" ON "inspection_logs" USING btree ("submitted_at") WHERE "inspection_logs"."photo_state" = 'pending';--> statement-breakpoint
ALTER TABLE "inspection_logs" ADD CONSTRAINT "inspection_logs_photo_state_ck" CHECK ("inspection_logs"."photo_state" in ('pending', 'ready', 'undecodable'));--> statement-breakpoint
-- Users whose password an Admin chose (added with their phone, or reset) and who could not
-- change it before this release: they choose their own at their next sign-in.
UPDATE "users" SET "must_change_password" = true WHERE "employee_id" IN (SELECT "entity_id" FROM "audit_log" WHERE "entity" = 'user' AND "action" IN ('user.create', 'user.reset-password') AND "entity_id" IS NOT NULL);
