-- The interface language a user chose ('en' or 'hi', common/constants.ts LANGUAGES), so it follows
-- them to another phone. NULL: not chosen yet; the device's own choice applies.
ALTER TABLE "users" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language_ck" CHECK ("users"."language" in ('en', 'hi'));