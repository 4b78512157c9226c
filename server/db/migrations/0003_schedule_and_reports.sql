CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" varchar(40) NOT NULL,
	"params" jsonb NOT NULL,
	"division" varchar(50),
	"dedupe_key" varchar(64) NOT NULL,
	"requested_by_user_id" integer,
	"requested_by_employee_id" varchar(50) NOT NULL,
	"status" varchar(12) DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"record_count" integer,
	"summary" jsonb,
	"file_hash" varchar(64),
	"file_name" varchar(200),
	"file_size_bytes" bigint,
	"content_type" varchar(100),
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reports_status_ck" CHECK ("reports"."status" in ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
DROP INDEX "inspection_logs_curve_idx";--> statement-breakpoint
CREATE INDEX "reports_dedupe_idx" ON "reports" USING btree ("dedupe_key","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reports_expires_idx" ON "reports" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "reports_file_hash_idx" ON "reports" USING btree ("file_hash");--> statement-breakpoint
CREATE INDEX "inspection_logs_curve_type_date_idx" ON "inspection_logs" USING btree ("section","curve_number","line","type","date" DESC NULLS LAST,"submitted_at" DESC NULLS LAST,"id" DESC NULLS LAST);