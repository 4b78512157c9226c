CREATE TABLE "blob_deletions" (
	"hash" varchar(64) PRIMARY KEY NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "change_counters" (
	"table_name" varchar(64) PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "inspection_logs_division_submitted_idx" ON "inspection_logs" USING btree ("division_railway","submitted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inspection_logs_technician_submitted_idx" ON "inspection_logs" USING btree ("technician_id","submitted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Every write to a counted table bumps its version in the writing transaction (see change_counters in schema.ts).
CREATE FUNCTION "bump_change_counter"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "change_counters" ("table_name", "version") VALUES (TG_TABLE_NAME, 1)
	ON CONFLICT ("table_name") DO UPDATE SET "version" = "change_counters"."version" + 1;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "inspection_logs_change_counter" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "inspection_logs" FOR EACH STATEMENT EXECUTE FUNCTION "bump_change_counter"();
--> statement-breakpoint
CREATE TRIGGER "consolidated_curve_details_change_counter" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "consolidated_curve_details" FOR EACH STATEMENT EXECUTE FUNCTION "bump_change_counter"();
--> statement-breakpoint
CREATE TRIGGER "stations_change_counter" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "stations" FOR EACH STATEMENT EXECUTE FUNCTION "bump_change_counter"();
