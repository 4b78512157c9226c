CREATE TABLE "follow_up_action_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"action_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"event" varchar(20) NOT NULL,
	"record_id" varchar(64),
	"record_date" date,
	"actor_employee_id" varchar(50),
	"actor_name" varchar(100),
	"note" text,
	CONSTRAINT "follow_up_action_events_event_ck" CHECK ("follow_up_action_events"."event" in ('opened', 'reported-again', 'closed', 'reopened', 'record-deleted'))
);
--> statement-breakpoint
CREATE TABLE "follow_up_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(30) NOT NULL,
	"state" varchar(10) DEFAULT 'open' NOT NULL,
	"severity" varchar(10) NOT NULL,
	"division_railway" varchar(50) NOT NULL,
	"section" varchar(100) NOT NULL,
	"curve_number" varchar(50) NOT NULL,
	"line" varchar(10) NOT NULL,
	"sse" varchar(150),
	"reported" text NOT NULL,
	"report_count" integer DEFAULT 1 NOT NULL,
	"opened_on" date NOT NULL,
	"due_date" date NOT NULL,
	"last_reported_on" date NOT NULL,
	"opened_by_record_id" varchar(64),
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_on" date,
	"closed_at" timestamp with time zone,
	"closed_by_record_id" varchar(64),
	"closed_by_employee_id" varchar(50),
	"close_note" text,
	CONSTRAINT "follow_up_actions_kind_ck" CHECK ("follow_up_actions"."kind" in ('machine-not-working', 'part-stolen', 'part-broken', 'cof-high')),
	CONSTRAINT "follow_up_actions_state_ck" CHECK ("follow_up_actions"."state" in ('open', 'closed')),
	CONSTRAINT "follow_up_actions_line_ck" CHECK ("follow_up_actions"."line" in ('Up', 'Down', 'Single'))
);
--> statement-breakpoint
ALTER TABLE "follow_up_action_events" ADD CONSTRAINT "follow_up_action_events_action_id_follow_up_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."follow_up_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "follow_up_action_events_action_idx" ON "follow_up_action_events" USING btree ("action_id","id");--> statement-breakpoint
CREATE INDEX "follow_up_action_events_record_idx" ON "follow_up_action_events" USING btree ("record_id");--> statement-breakpoint
CREATE UNIQUE INDEX "follow_up_actions_one_open_idx" ON "follow_up_actions" USING btree ("division_railway","section","curve_number","line","kind") WHERE "follow_up_actions"."state" = 'open';--> statement-breakpoint
CREATE INDEX "follow_up_actions_curve_idx" ON "follow_up_actions" USING btree ("section","curve_number","line","kind","opened_on" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "follow_up_actions_state_division_idx" ON "follow_up_actions" USING btree ("state","division_railway","opened_on" DESC NULLS LAST);--> statement-breakpoint
-- The actions list and counts are cached until an instance writes an action (change_counters, migration 0001).
CREATE TRIGGER "follow_up_actions_change_counter" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "follow_up_actions" FOR EACH STATEMENT EXECUTE FUNCTION "bump_change_counter"();
