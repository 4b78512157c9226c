DROP INDEX "curves_division_section_idx";--> statement-breakpoint
DROP INDEX "stations_division_idx";--> statement-breakpoint
CREATE INDEX "curves_register_order_idx" ON "consolidated_curve_details" USING btree ("division_railway","section","no","id");--> statement-breakpoint
CREATE UNIQUE INDEX "stations_section_code_uq" ON "stations" USING btree ("section","station_code");--> statement-breakpoint
CREATE INDEX "stations_register_order_idx" ON "stations" USING btree ("division_railway","section","no","id");