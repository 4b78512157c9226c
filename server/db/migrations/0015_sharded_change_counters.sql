-- A table's version becomes the sum of its shards (see change_counter_shards in schema.ts): with
-- one row per table, concurrent writers queued on that row's lock until they committed.
CREATE TABLE "change_counter_shards" (
	"table_name" varchar(64) NOT NULL,
	"shard" integer NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "change_counter_shards_table_name_shard_pk" PRIMARY KEY("table_name","shard")
);
--> statement-breakpoint
-- The versions so far become shard 0, so no table's version goes back (caches compare them).
INSERT INTO "change_counter_shards" ("table_name", "shard", "version") SELECT "table_name", 0, "version" FROM "change_counters";
--> statement-breakpoint
DROP TABLE "change_counters" CASCADE;--> statement-breakpoint
-- The same name and columns as the table it replaces: an instance of the previous build, still
-- serving during a rolling upgrade, reads the summed versions with its own query.
CREATE VIEW "public"."change_counters" AS (select "table_name", sum("version")::bigint as "version" from "change_counter_shards" group by "table_name");
--> statement-breakpoint
-- A write bumps a shard that no other open transaction holds (SKIP LOCKED), so it never waits
-- for another writer's commit. When every shard is held, it adds one, keyed by its backend's
-- process id (unique among live connections), so a table has about as many shards as it had
-- writers at once.
CREATE OR REPLACE FUNCTION "bump_change_counter"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "change_counter_shards" SET "version" = "version" + 1
	WHERE "table_name" = TG_TABLE_NAME
		AND "shard" = (SELECT "shard" FROM "change_counter_shards" WHERE "table_name" = TG_TABLE_NAME LIMIT 1 FOR UPDATE SKIP LOCKED);
	IF NOT FOUND THEN
		INSERT INTO "change_counter_shards" ("table_name", "shard", "version") VALUES (TG_TABLE_NAME, pg_backend_pid(), 1)
		ON CONFLICT ("table_name", "shard") DO UPDATE SET "version" = "change_counter_shards"."version" + 1;
	END IF;
	RETURN NULL;
END;
$$;
