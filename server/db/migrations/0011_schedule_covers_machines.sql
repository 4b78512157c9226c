-- The schedule covers curves that have a lubricator: each register curve finds its rollout record
-- (curve_records) by section, curve number and line, one index probe per curve.
CREATE INDEX "curve_records_section_curve_idx" ON "curve_records" USING btree ("section","curve_number");
