-- Indexes suggested for the records view's list (issue 6), to try without a migration:
--   BENCH_PREPARE_SQL=bench/data/suggested-indexes.sql BENCH_DATABASE_URL=postgres://... \
--     npm run bench -- inspections-page inspections-filtered
-- (PostgreSQL only: pg_trgm is a contrib extension; PGlite needs it loaded at start.)
--
-- 1. The list orders by `submitted_at DESC, id DESC`, which in SQL means DESC NULLS FIRST. The
--    schema's indexes were made by Drizzle's `.desc()` as DESC NULLS LAST, and PostgreSQL does
--    not use an index whose NULLS order differs from the ORDER BY's (NOT NULL columns or not):
--    every page is a scan of all matching rows plus a top-N sort. Either order by
--    `desc nulls last` in the repository, or index with the ORDER BY's own NULLS order, as here.
create index if not exists bench_inspection_logs_submitted_nf on inspection_logs (submitted_at desc, id desc);
create index if not exists bench_inspection_logs_division_submitted_nf on inspection_logs (division_railway, submitted_at desc, id desc);
create index if not exists bench_inspection_logs_technician_submitted_nf on inspection_logs (technician_id, submitted_at desc, id desc);
-- 2. `q` (part of a record ID, any case) is `record_id ILIKE '%...%'`: no btree serves it.
create extension if not exists pg_trgm;
create index if not exists bench_inspection_logs_record_id_trgm on inspection_logs using gin (record_id gin_trgm_ops);
analyze inspection_logs;
