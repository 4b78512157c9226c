/**
 * The register import of 10,000 new curves (dry run, import, same file again, every tenth row changed), each timed alone.
 * Bare baseline: papaparse + ONE insert through unnest (10,000 x 18 single parameters would pass PostgreSQL's 65,535).
 */
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import Papa from 'papaparse';
import pg from 'pg';
import type { ImportResult } from '../../common/schemas/register.js';
import { openDatabase } from '../../server/db/client.js';
import { insertChunk, type SqlClient } from '../../server/db/seed/scale/columns.js';
import { sqlClientOf } from '../../server/db/seed/scale/load.js';
import { COPIED_CURVE_COLUMNS } from '../bare/start.js';
import { benchCurveRows, CSV_COLUMN, curvesCsv, importForm, importMismatch, postImport } from '../lib/register.js';
import { median, round } from '../lib/stats.js';
import { RunBook, withServerFigures } from '../lib/timer.js';
import type { Scenario, ScenarioResult } from '../lib/types.js';

const ROWS = 10_000;
const CHANGED_EVERY = 10;
const SECTION_PREFIX = 'BENCH-IMP';
const FIRST_HKM_CODE = 1_000_000_001;
const SEED = 0x1_4c5f;
const BASELINE_RUNS = 3;
const BASELINE_TABLE = 'hkmi_bench_import_baseline';
const STEP_TIMEOUT_MS = 120_000;

const COLUMN_TYPES: Partial<Record<(typeof COPIED_CURVE_COLUMNS)[number], string>> = {
  no: 'int4', hkm_code: 'int4', km_from: 'int4', met_from: 'int4', km_to: 'int4', met_to: 'int4', length: 'int4', degree: 'numeric', comments: 'text',
};

interface BaselineTable extends SqlClient {
  name: string;
  where: string;
  close(): Promise<void>;
}

async function openBaselineTable(databaseUrl: string | undefined): Promise<BaselineTable> {
  if (!databaseUrl) {
    const pglite = new PGlite();
    const database = await openDatabase({ pglite });
    await database.migrate();
    const where = "consolidated_curve_details of an in-memory PGlite in the bench process, made by the app's migrations";
    return { query: async <R>(text: string, params?: unknown[]) => (await pglite.query<R>(text, params)).rows, name: 'consolidated_curve_details', where, close: () => database.close() };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const drop = `drop table if exists ${BASELINE_TABLE}; drop sequence if exists ${BASELINE_TABLE}_id_seq`;
  await client.query(drop);
  // Its own sequence: the copied default would draw ids from the register's.
  await client.query(
    `create sequence ${BASELINE_TABLE}_id_seq; create table ${BASELINE_TABLE} (like consolidated_curve_details including all); ` +
      `alter table ${BASELINE_TABLE} alter column id set default nextval('${BASELINE_TABLE}_id_seq')`,
  );
  return {
    ...sqlClientOf(client),
    name: BASELINE_TABLE,
    where: "a scratch table (like consolidated_curve_details including all: same columns, defaults, indexes) in the server's database",
    close: () => client.query(drop).then(() => client.end(), () => client.end()),
  };
}

async function timeBaseline(table: BaselineTable, csv: string): Promise<number[]> {
  const columns = COPIED_CURVE_COLUMNS.map((name, c) => [name, COLUMN_TYPES[name] ?? 'varchar', (r: string[]) => (r[c] === undefined || r[c] === '' ? null : r[c])] as const);
  const seconds: number[] = [];
  for (let run = 0; run < BASELINE_RUNS; run++) {
    await table.query(`truncate ${table.name}`);
    const started = performance.now();
    const [, ...rows] = Papa.parse<string[]>(csv, { header: false, skipEmptyLines: true }).data;
    await insertChunk(table, table.name, columns, rows);
    seconds.push((performance.now() - started) / 1000);
    if (rows.length !== ROWS) throw new Error(`the baseline parsed ${rows.length} rows, expected ${ROWS}`);
  }
  return seconds;
}

export const importCurves: Scenario = {
  name: 'import-curves',
  description: `POST /api/import-excel as the demo Admin: ${ROWS} new curves as CSV (dry run, import, same again, 10% changed), one at a time`,
  budget: {
    description: 'CSV import, 10k rows: <= 3 s (docs/architecture.md, "Budgets"; bare baseline papaparse + one multi-row insert)',
    maxDurationSeconds: 3,
  },
  async run(ctx) {
    const cookie = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
    const rows = benchCurveRows({ count: ROWS, sectionPrefix: SECTION_PREFIX, firstHkmCode: FIRST_HKM_CODE, seed: SEED });
    const csv = curvesCsv(rows);
    const changedCsv = curvesCsv(
      rows.map((row, i) => {
        if (i % CHANGED_EVERY !== 0) return row;
        const changed = [...row];
        changed[CSV_COLUMN.length] = String(Number(row[CSV_COLUMN.length]) + 10);
        changed[CSV_COLUMN.comments] = `Re-surveyed ${i}, length corrected`;
        return changed;
      }),
    );
    const changedCount = Math.ceil(ROWS / CHANGED_EVERY);
    const sections = new Set(rows.map((r) => r[CSV_COLUMN.section])).size;
    const csvKb = round(Buffer.byteLength(csv) / 1024, 0);
    ctx.log(`import-curves: ${ROWS} rows in ${sections} sections, ${csvKb} KB of CSV`);
    ctx.log(`import-curves: bare baseline (papaparse + one insert), ${BASELINE_RUNS} runs ...`);
    const table = await openBaselineTable(ctx.databaseUrl);
    const baseline = await timeBaseline(table, csv).finally(() => table.close());
    const baselineSeconds = median(baseline);
    const steps: Array<{ label: string; csv: string; dryRun: boolean; expected: Partial<ImportResult> }> = [
      { label: 'dry run', csv, dryRun: true, expected: { dryRun: true, valid: true, count: ROWS, added: ROWS, changed: 0, unchanged: 0 } },
      { label: 'import', csv, dryRun: false, expected: { dryRun: false, valid: true, count: ROWS, added: ROWS, changed: 0, unchanged: 0 } },
      { label: 'same file again', csv, dryRun: false, expected: { valid: true, count: ROWS, added: 0, changed: 0, unchanged: ROWS } },
      { label: `${changedCount} rows changed`, csv: changedCsv, dryRun: false, expected: { valid: true, count: ROWS, added: 0, changed: changedCount, unchanged: ROWS - changedCount } },
    ];
    const book = new RunBook();
    const runs: Array<{ label: string; status: number; ms: number; text: string }> = [];
    for (const step of steps) {
      const form = importForm(step.csv, 'bench-curves.csv');
      const started = performance.now();
      let failure: unknown = null;
      const measured = await withServerFigures(ctx, () =>
        postImport(ctx, cookie, form, step.dryRun, STEP_TIMEOUT_MS).catch((error: unknown) => {
          failure = error;
          return null;
        }),
      );
      const { value: answer, rssBeforeMb, rssPeakMb } = measured;
      const rss = `server RSS ${round(rssBeforeMb, 0)} -> peak ${round(rssPeakMb, 0)} MB`;
      if (!answer) {
        // No answer at all: the server is stuck or gone, and the steps after this one would only wait too.
        const cause = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure);
        book.problems.push(`${step.label}: no answer after ${round((performance.now() - started) / 1000, 0)} s (${cause}); ${rss}`);
        break;
      }
      book.status(answer.status);
      const mismatch = importMismatch(answer, step.expected);
      if (mismatch) book.problems.push(`${step.label}: ${mismatch}`);
      const r = answer.result;
      const cpu = [
        measured.serverCpu === null ? null : `server CPU ${round(measured.serverCpu, 2)} s`,
        measured.databaseCpu === null ? null : `PostgreSQL ${round(measured.databaseCpu, 2)} s`,
      ].filter((part) => part !== null);
      const text = `${r ? `added ${r.added}, changed ${r.changed}, unchanged ${r.unchanged}` : `HTTP ${answer.status}`}; ${cpu.length ? `${cpu.join(', ')}; ` : ''}`;
      runs.push({ label: step.label, status: answer.status, ms: answer.ms, text: `${text}${rss}, +${round(rssPeakMb - rssBeforeMb, 1)}` });
      ctx.log(`import-curves: ${step.label}: ${round(answer.ms, 0)} ms, ${text}`);
    }
    const real = runs.find((r) => r.label === 'import' && r.status === 200);
    const realSeconds = real ? real.ms / 1000 : 0;
    const result: ScenarioResult = {
      ...book.result('rows/s', real ? [real.ms] : [], 0, ROWS),
      notes: [
        `file: ${ROWS} new curves in ${sections} sections ${SECTION_PREFIX}-*, ${csvKb} KB of CSV, ` +
          `HKM codes from ${FIRST_HKM_CODE}; the table's p50/p99 and throughput are the real import's (send to last byte)`,
        `one at a time: ${runs.map((r) => `${r.label} ${round(r.ms / 1000, 2)} s (${r.text})`).join('; ')}`,
        `bare baseline: papaparse of the same CSV text + ONE insert (unnest of 18 arrays) of the ${ROWS} rows into ${table.where}: ` +
          `${baseline.map((s) => round(s, 3)).join(' / ')} s, median ${round(baselineSeconds, 3)} s; ` +
          `the real import ${round(realSeconds, 2)} s = ${round(baselineSeconds > 0 ? realSeconds / baselineSeconds : 0, 1)}x the baseline`,
        ...book.errorNotes(Infinity),
      ],
      baseline: { description: `papaparse + one ${ROWS}-row insert`, productSeconds: round(realSeconds), baselineSeconds: round(baselineSeconds, 3) },
    };
    return result;
  },
};
