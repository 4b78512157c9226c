-- The machine dashboard's figures are worked out from curve_records and kept per instance until
-- the table changes; the reports landing reads machine_dashboard_summary the same way. Every write
-- bumps the table's version in the writing transaction (see change_counters in schema.ts).
CREATE TRIGGER "curve_records_change_counter" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "curve_records" FOR EACH STATEMENT EXECUTE FUNCTION "bump_change_counter"();
--> statement-breakpoint
CREATE TRIGGER "machine_dashboard_summary_change_counter" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "machine_dashboard_summary" FOR EACH STATEMENT EXECUTE FUNCTION "bump_change_counter"();
--> statement-breakpoint
CREATE TRIGGER "hkm_controller_mapping_change_counter" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "hkm_controller_mapping" FOR EACH STATEMENT EXECUTE FUNCTION "bump_change_counter"();
