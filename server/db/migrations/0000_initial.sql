CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" integer,
	"actor_employee_id" varchar(50),
	"action" varchar(50) NOT NULL,
	"entity" varchar(50) NOT NULL,
	"entity_id" varchar(200),
	"before" jsonb,
	"after" jsonb,
	"request_id" varchar(64)
);
--> statement-breakpoint
CREATE TABLE "consolidated_curve_details" (
	"id" serial PRIMARY KEY NOT NULL,
	"no" integer NOT NULL,
	"hkm_code" integer,
	"division_railway" varchar(50) NOT NULL,
	"section" varchar(100) NOT NULL,
	"curve_number" varchar(50) NOT NULL,
	"line" varchar(10) NOT NULL,
	"km_from" integer,
	"met_from" integer,
	"km_to" integer,
	"met_to" integer,
	"length" integer,
	"station1" varchar(100),
	"station2" varchar(100),
	"degree" numeric(5, 2),
	"den" varchar(100),
	"aen" varchar(150),
	"sse" varchar(150),
	"comments" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consolidated_curve_details_hkm_code_unique" UNIQUE("hkm_code")
);
--> statement-breakpoint
CREATE TABLE "curve_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"no" integer NOT NULL,
	"phase" varchar(10),
	"division_railway" varchar(50) NOT NULL,
	"section" varchar(100) NOT NULL,
	"curve_number" varchar(50) NOT NULL,
	"line" varchar(10) NOT NULL,
	"den" varchar(100),
	"aen" varchar(150),
	"sse" varchar(150),
	"foundation_actual" varchar(20),
	"machine_actual" varchar(20),
	"commissioned" varchar(20),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hkm_controller_mapping" (
	"id" serial PRIMARY KEY NOT NULL,
	"hkm_code" integer NOT NULL,
	"controller_number" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hkm_controller_mapping_hkm_code_unique" UNIQUE("hkm_code")
);
--> statement-breakpoint
CREATE TABLE "inspection_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"record_id" varchar(64) NOT NULL,
	"client_submission_id" uuid,
	"date" date NOT NULL,
	"type" varchar(10) NOT NULL,
	"division_railway" varchar(50) NOT NULL,
	"section" varchar(100) NOT NULL,
	"curve_number" varchar(50) NOT NULL,
	"line" varchar(10) NOT NULL,
	"technician_id" varchar(50) NOT NULL,
	"technician_name" varchar(100) NOT NULL,
	"cof_value" numeric(3, 2),
	"location" varchar(20),
	"station1" varchar(100),
	"station2" varchar(100),
	"km" varchar(20),
	"pole1" varchar(20),
	"pole2" varchar(20),
	"railway_engineer" varchar(150),
	"image_url" text,
	"file_name" varchar(255),
	"image_hash" varchar(64),
	"image_size_bytes" integer,
	"image_width" integer,
	"image_height" integer,
	"image_data" text,
	"service_update" varchar(20),
	"part_category" varchar(100),
	"part_item_name" varchar(200),
	"is_machine_working" boolean,
	"grease_depth" numeric(3, 1),
	"grease_weight" integer,
	"latitude" double precision,
	"longitude" double precision,
	"location_accuracy_m" double precision,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inspection_logs_record_id_unique" UNIQUE("record_id"),
	CONSTRAINT "inspection_logs_client_submission_id_unique" UNIQUE("client_submission_id"),
	CONSTRAINT "inspection_logs_type_ck" CHECK ("inspection_logs"."type" in ('Service', 'CoF')),
	CONSTRAINT "inspection_logs_line_ck" CHECK ("inspection_logs"."line" in ('Up', 'Down', 'Single'))
);
--> statement-breakpoint
CREATE TABLE "login_throttle" (
	"key" varchar(200) PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"failures" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "machine_dashboard_summary" (
	"id" serial PRIMARY KEY NOT NULL,
	"division" varchar(50) NOT NULL,
	"scope" integer DEFAULT 0 NOT NULL,
	"foundation_completed" integer DEFAULT 0 NOT NULL,
	"machines_installed" integer DEFAULT 0 NOT NULL,
	"machines_commissioned" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "machine_dashboard_summary_division_unique" UNIQUE("division")
);
--> statement-breakpoint
CREATE TABLE "machine_details" (
	"id" serial PRIMARY KEY NOT NULL,
	"jurisdiction" varchar(200) NOT NULL,
	"level" varchar(10) NOT NULL,
	"parent_jurisdiction" varchar(200),
	"curve_count" integer DEFAULT 0 NOT NULL,
	"foundation_completed" integer DEFAULT 0 NOT NULL,
	"machines_installed" integer DEFAULT 0 NOT NULL,
	"machines_commissioned" integer DEFAULT 0 NOT NULL,
	"foundation_completed_date" timestamp with time zone,
	"machines_installed_date" timestamp with time zone,
	"machines_commissioned_date" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "machine_parts" (
	"id" serial PRIMARY KEY NOT NULL,
	"no" integer NOT NULL,
	"category" varchar(100) NOT NULL,
	"item_name" varchar(200) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"user_agent" varchar(300),
	"ip_address" varchar(64)
);
--> statement-breakpoint
CREATE TABLE "stations" (
	"id" serial PRIMARY KEY NOT NULL,
	"no" integer NOT NULL,
	"station_name" varchar(100) NOT NULL,
	"station_code" varchar(20) NOT NULL,
	"section" varchar(100) NOT NULL,
	"division_railway" varchar(50) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"employee_id" varchar(50) NOT NULL,
	"name" varchar(100) NOT NULL,
	"role" varchar(20) DEFAULT 'Technician' NOT NULL,
	"phone" varchar(20),
	"password_hash" text NOT NULL,
	"division_access" varchar(50),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_ck" CHECK ("users"."role" in ('Technician', 'Admin', 'Client'))
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "curves_section_number_line_uq" ON "consolidated_curve_details" USING btree ("section","curve_number","line");--> statement-breakpoint
CREATE INDEX "curves_division_section_idx" ON "consolidated_curve_details" USING btree ("division_railway","section");--> statement-breakpoint
CREATE INDEX "curve_records_division_section_idx" ON "curve_records" USING btree ("division_railway","section");--> statement-breakpoint
CREATE INDEX "curve_records_den_aen_idx" ON "curve_records" USING btree ("den","aen");--> statement-breakpoint
CREATE INDEX "inspection_logs_submitted_idx" ON "inspection_logs" USING btree ("submitted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inspection_logs_date_idx" ON "inspection_logs" USING btree ("date");--> statement-breakpoint
CREATE INDEX "inspection_logs_type_date_idx" ON "inspection_logs" USING btree ("type","date");--> statement-breakpoint
CREATE INDEX "inspection_logs_division_date_idx" ON "inspection_logs" USING btree ("division_railway","date");--> statement-breakpoint
CREATE INDEX "inspection_logs_technician_date_idx" ON "inspection_logs" USING btree ("technician_id","date");--> statement-breakpoint
CREATE INDEX "inspection_logs_curve_idx" ON "inspection_logs" USING btree ("section","curve_number","line","date");--> statement-breakpoint
CREATE INDEX "inspection_logs_image_hash_idx" ON "inspection_logs" USING btree ("image_hash");--> statement-breakpoint
CREATE INDEX "machine_details_parent_idx" ON "machine_details" USING btree ("parent_jurisdiction","level");--> statement-breakpoint
CREATE UNIQUE INDEX "machine_parts_category_item_uq" ON "machine_parts" USING btree ("category","item_name");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stations_section_idx" ON "stations" USING btree ("section","no");--> statement-breakpoint
CREATE INDEX "stations_division_idx" ON "stations" USING btree ("division_railway");--> statement-breakpoint
CREATE UNIQUE INDEX "users_employee_id_lower_uq" ON "users" USING btree (lower("employee_id"));