CREATE TABLE "backup_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"trigger" varchar(12) NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"state" varchar(12) DEFAULT 'running' NOT NULL,
	"error" text,
	CONSTRAINT "backup_runs_state_ck" CHECK ("backup_runs"."state" in ('running', 'done', 'failed')),
	CONSTRAINT "backup_runs_trigger_ck" CHECK ("backup_runs"."trigger" in ('manual', 'scheduled'))
);
--> statement-breakpoint
CREATE TABLE "file_task_problems" (
	"task_id" uuid NOT NULL,
	"record_id" varchar(100) NOT NULL,
	"image_hash" varchar(64) NOT NULL,
	"problem" varchar(12) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_tasks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" varchar(12) NOT NULL,
	"state" varchar(12) DEFAULT 'running' NOT NULL,
	"requested_by_employee_id" varchar(50) NOT NULL,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"summary" jsonb,
	"error" text,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "file_tasks_kind_ck" CHECK ("file_tasks"."kind" in ('check', 'restore', 'recreate')),
	CONSTRAINT "file_tasks_state_ck" CHECK ("file_tasks"."state" in ('running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "file_task_problems" ADD CONSTRAINT "file_task_problems_task_id_file_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."file_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backup_runs_started_idx" ON "backup_runs" USING btree ("started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "file_task_problems_pk" ON "file_task_problems" USING btree ("task_id","record_id");--> statement-breakpoint
CREATE INDEX "file_tasks_kind_started_idx" ON "file_tasks" USING btree ("kind","started_at" DESC NULLS LAST);