CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" varchar(60) NOT NULL,
	"owner_user_id" integer,
	"status" varchar(12) DEFAULT 'queued' NOT NULL,
	"unique_key" varchar(100),
	"attempts" integer DEFAULT 0 NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"claimed_by" varchar(64),
	"heartbeat_at" timestamp with time zone,
	"result" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "jobs_status_ck" CHECK ("jobs"."status" in ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
-- Every report, file task and backup run becomes a job under its own ID before the feature
-- tables lose their queue columns: the recent reports, file tasks and backup history survive,
-- and queued or running reports stay resumable (a running one is claimed again when stale).
INSERT INTO "jobs" ("id", "kind", "owner_user_id", "status", "unique_key", "attempts", "progress", "claimed_by", "heartbeat_at", "error", "created_at", "started_at", "finished_at", "expires_at")
SELECT "id", 'report.' || "kind", "requested_by_user_id", "status", CASE WHEN "status" in ('queued', 'running') THEN "dedupe_key" END, "attempts", "progress", "claimed_by", "heartbeat_at", "error", "created_at", "started_at", "finished_at", "expires_at" FROM "reports";--> statement-breakpoint
INSERT INTO "jobs" ("id", "kind", "status", "unique_key", "attempts", "progress", "progress_done", "progress_total", "heartbeat_at", "result", "error", "created_at", "started_at", "finished_at")
SELECT "id", 'files.' || "kind", "state", CASE WHEN "state" = 'running' THEN 'files.' || "kind" END, 1,
  CASE WHEN "progress_total" > 0 THEN ("progress_done" * 100) / "progress_total" ELSE 0 END, "progress_done", "progress_total", "heartbeat_at", "summary", "error", "started_at", "started_at", "finished_at" FROM "file_tasks";--> statement-breakpoint
INSERT INTO "jobs" ("id", "kind", "status", "unique_key", "attempts", "heartbeat_at", "error", "created_at", "started_at", "finished_at")
SELECT "id", 'backup', "state", CASE WHEN "state" = 'running' THEN 'backup' END, 1, "heartbeat_at", "error", "started_at", "started_at", "finished_at" FROM "backup_runs";--> statement-breakpoint
ALTER TABLE "backup_runs" DROP CONSTRAINT "backup_runs_state_ck";--> statement-breakpoint
ALTER TABLE "file_tasks" DROP CONSTRAINT "file_tasks_state_ck";--> statement-breakpoint
ALTER TABLE "reports" DROP CONSTRAINT "reports_status_ck";--> statement-breakpoint
DROP INDEX "backup_runs_started_idx";--> statement-breakpoint
DROP INDEX "file_tasks_kind_started_idx";--> statement-breakpoint
DROP INDEX "reports_expires_idx";--> statement-breakpoint
DROP INDEX "reports_requested_by_idx";--> statement-breakpoint
DROP INDEX "reports_requester_started_idx";--> statement-breakpoint
DROP INDEX "reports_queue_idx";--> statement-breakpoint
DROP INDEX "reports_unfinished_dedupe_uq";--> statement-breakpoint
DROP INDEX "reports_dedupe_idx";--> statement-breakpoint
CREATE INDEX "jobs_queue_idx" ON "jobs" USING btree ("created_at") WHERE "jobs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_owner_created_idx" ON "jobs" USING btree ("owner_user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "jobs_owner_started_idx" ON "jobs" USING btree ("owner_user_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "jobs_kind_started_idx" ON "jobs" USING btree ("kind","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "jobs_expires_idx" ON "jobs" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_unfinished_unique_key_uq" ON "jobs" USING btree ("unique_key") WHERE "jobs"."status" in ('queued', 'running');--> statement-breakpoint
ALTER TABLE "backup_runs" ADD CONSTRAINT "backup_runs_id_jobs_id_fk" FOREIGN KEY ("id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_tasks" ADD CONSTRAINT "file_tasks_id_jobs_id_fk" FOREIGN KEY ("id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_id_jobs_id_fk" FOREIGN KEY ("id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_dedupe_idx" ON "reports" USING btree ("dedupe_key");--> statement-breakpoint
ALTER TABLE "backup_runs" DROP COLUMN "started_at";--> statement-breakpoint
ALTER TABLE "backup_runs" DROP COLUMN "heartbeat_at";--> statement-breakpoint
ALTER TABLE "backup_runs" DROP COLUMN "finished_at";--> statement-breakpoint
ALTER TABLE "backup_runs" DROP COLUMN "state";--> statement-breakpoint
ALTER TABLE "backup_runs" DROP COLUMN "error";--> statement-breakpoint
ALTER TABLE "file_tasks" DROP COLUMN "state";--> statement-breakpoint
ALTER TABLE "file_tasks" DROP COLUMN "progress_done";--> statement-breakpoint
ALTER TABLE "file_tasks" DROP COLUMN "progress_total";--> statement-breakpoint
ALTER TABLE "file_tasks" DROP COLUMN "summary";--> statement-breakpoint
ALTER TABLE "file_tasks" DROP COLUMN "error";--> statement-breakpoint
ALTER TABLE "file_tasks" DROP COLUMN "heartbeat_at";--> statement-breakpoint
ALTER TABLE "file_tasks" DROP COLUMN "started_at";--> statement-breakpoint
ALTER TABLE "file_tasks" DROP COLUMN "finished_at";--> statement-breakpoint
ALTER TABLE "reports" DROP COLUMN "requested_by_user_id";--> statement-breakpoint
ALTER TABLE "reports" DROP COLUMN "status";--> statement-breakpoint
ALTER TABLE "reports" DROP COLUMN "progress";--> statement-breakpoint
ALTER TABLE "reports" DROP COLUMN "error";--> statement-breakpoint
ALTER TABLE "reports" DROP COLUMN "claimed_by";--> statement-breakpoint
ALTER TABLE "reports" DROP COLUMN "heartbeat_at";--> statement-breakpoint
ALTER TABLE "reports" DROP COLUMN "attempts";--> statement-breakpoint
ALTER TABLE "reports" DROP COLUMN "created_at";--> statement-breakpoint
ALTER TABLE "reports" DROP COLUMN "started_at";--> statement-breakpoint
ALTER TABLE "reports" DROP COLUMN "finished_at";--> statement-breakpoint
ALTER TABLE "reports" DROP COLUMN "expires_at";