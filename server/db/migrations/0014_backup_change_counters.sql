-- Every table a backup holds counts its writes, so a backup on the embedded database can read
-- each table in short chunks and know which ones changed meanwhile (server/features/backups/
-- make-backup.ts). The tables that had no counter yet; the others got theirs in 0001 and 0006.
CREATE TRIGGER "users_change_counter" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "bump_change_counter"();
--> statement-breakpoint
CREATE TRIGGER "audit_log_change_counter" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "bump_change_counter"();
--> statement-breakpoint
CREATE TRIGGER "machine_parts_change_counter" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "machine_parts" FOR EACH STATEMENT EXECUTE FUNCTION "bump_change_counter"();
--> statement-breakpoint
CREATE TRIGGER "machine_details_change_counter" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "machine_details" FOR EACH STATEMENT EXECUTE FUNCTION "bump_change_counter"();
--> statement-breakpoint
CREATE TRIGGER "follow_up_action_events_change_counter" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "follow_up_action_events" FOR EACH STATEMENT EXECUTE FUNCTION "bump_change_counter"();
