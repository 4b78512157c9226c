import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import Papa from 'papaparse';
import pg from 'pg';
import type { ImportResult } from '../../common/schemas/register.js';
import { openDatabase } from '../../server/db/client.js';
import { COPIED_CURVE_COLUMNS } from '../bare/start.js';
import { readRssMb, recordRss } from '../lib/memory.js';
import { cpuMark, type CpuMark } from '../lib/records.js';
import { benchCurveRows, CSV_COLUMN, curvesCsv, importForm, importMismatch, postImport } from '../lib/register.js';
import { countNon2xx, median, round, summarizeLatencies } from '../lib/stats.js';
import type { Scenario, ScenarioResult } from '../lib/types.js';

const ROWS = 10_000;
/** Every CHANGED_EVERY-th row of the file gets a new length and remark for the last import. */
const CHANGED_EVERY = 10;
const SECTION_PREFIX = 'BENCH-IMP';
const FIRST_HKM_CODE = 1_000_000_001;
const SEED = 0x1_4c5f;
/** The baseline is timed this many times (a fresh table each time); the median counts. */
const BASELINE_RUNS = 3;
const BASELINE_TABLE = 'hkmi_bench_import_baseline';
/** One import should take seconds; past this the server is taken to be stuck. */
const STEP_TIMEOUT_MS = 120_000;

/** The array type each column goes through unnest as, where it is not varchar. */
const COLUMN_TYPES: Partial<Record<(typeof COPIED_CURVE_COLUMNS)[number], string>> = {
  no: 'int4', hkm_code: 'int4', km_from: 'int4', met_from: 'int4', km_to: 'int4', met_to: 'int4', length: 'int4', degree: 'numeric', comments: 'text',
};
/** consolidated_curve_details's columns in the CSV's order (the export's, as the bare copy's), with the type of each array passed to unnest. */
const TABLE_COLUMNS = COPIED_CURVE_COLUMNS.map((name) => [name, COLUMN_TYPES[name] ?? 'varchar'] as const);

type Query = (text: string, params?: unknown[]) => Promise<unknown>;

/**
 * The bare baseline (docs/architecture.md, 'Budgets'): papaparse on the same CSV text, then ONE insert of all
 * its rows (18 arrays through unnest: 10,000 x 18 single parameters would pass PostgreSQL's
 * 65,535), into an empty table of the register's shape with its indexes. No checks, no
 * lookups, no audit: the floor under the import.
 */
async function timeBaseline(query: Query, table: string, csv: string, reset: () => Promise<void>): Promise<number[]> {
  const names = TABLE_COLUMNS.map(([name]) => name).join(', ');
  const arrays = TABLE_COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  const statement = `insert into ${table} (${names}) select * from unnest(${arrays})`;
  const seconds: number[] = [];
  for (let run = 0; run < BASELINE_RUNS; run++) {
    await reset();
    const started = performance.now();
    const parsed = Papa.parse<string[]>(csv, { header: false, skipEmptyLines: true });
    const [, ...rows] = parsed.data;
    const params = TABLE_COLUMNS.map((_, c) => rows.map((r) => (r[c] === undefined || r[c] === '' ? null : r[c])));
    await query(statement, params);
    seconds.push((performance.now() - started) / 1000);
    if (rows.length !== ROWS) throw new Error(`the baseline parsed ${rows.length} rows, expected ${ROWS}`);
  }
  return seconds;
}

/** On PostgreSQL: the server's own scratch database, a scratch table like the register's (indexes too), dropped after. */
async function baselinePostgres(databaseUrl: string, csv: string): Promise<{ seconds: number[]; where: string }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const seq = `${BASELINE_TABLE}_id_seq`;
  try {
    await client.query(`drop table if exists ${BASELINE_TABLE}; drop sequence if exists ${seq}`);
    // Its own sequence: the copied default would draw ids from the register's.
    await client.query(
      `create sequence ${seq}; create table ${BASELINE_TABLE} (like consolidated_curve_details including all); ` +
        `alter table ${BASELINE_TABLE} alter column id set default nextval('${seq}')`,
    );
    const seconds = await timeBaseline(
      (text, params) => client.query(text, params),
      BASELINE_TABLE,
      csv,
      async () => {
        await client.query(`truncate ${BASELINE_TABLE}`);
      },
    );
    return { seconds, where: `a scratch table (like consolidated_curve_details including all: same columns, defaults, indexes) in the server's database` };
  } finally {
    await client.query(`drop table if exists ${BASELINE_TABLE}; drop sequence if exists ${seq}`).catch(() => undefined);
    await client.end();
  }
}

/** On PGlite: the server holds its data dir, so an in-memory PGlite of this process, migrated as the app's. */
async function baselinePglite(csv: string): Promise<{ seconds: number[]; where: string }> {
  const pglite = new PGlite();
  const database = await openDatabase({ pglite });
  try {
    await database.migrate();
    const seconds = await timeBaseline(
      (text, params) => pglite.query(text, params),
      'consolidated_curve_details',
      csv,
      async () => {
        await pglite.query('truncate consolidated_curve_details');
      },
    );
    return { seconds, where: "consolidated_curve_details of an in-memory PGlite in the bench process, made by the app's migrations" };
  } finally {
    await database.close();
  }
}

interface Step {
  label: string;
  csv: string;
  dryRun: boolean;
  expected: Partial<ImportResult>;
}

interface StepRun {
  label: string;
  status: number;
  ms: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  answer: string;
  /** CPU seconds the server and PostgreSQL's processes spent during the step. */
  cpu: string;
}

/** 'server CPU 1.9 s, PostgreSQL 0.4 s' between two marks. */
function cpuBetween(start: CpuMark, end: CpuMark): string {
  const parts: string[] = [];
  if (start.server !== null && end.server !== null) parts.push(`server CPU ${round(end.server - start.server, 2)} s`);
  if (start.database !== null && end.database !== null) parts.push(`PostgreSQL ${round(end.database - start.database, 2)} s`);
  return parts.join(', ');
}


/**
 * The admin's register import at the budget table's size: 10,000 new curves as CSV, a dry run, the real
 * import, the same file again, then the file with every tenth row changed. Each timed alone
 * (send to last byte of the answer) with the server's RSS sampled every 20 ms; the budget is
 * the real import's time, the bare baseline (papaparse + one insert) is printed beside it.
 */
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
    const changedRows = rows.map((row, i) => {
      if (i % CHANGED_EVERY !== 0) return row;
      const changed = [...row];
      changed[CSV_COLUMN.length] = String(Number(row[CSV_COLUMN.length]) + 10);
      changed[CSV_COLUMN.comments] = `Re-surveyed ${i}, length corrected`;
      return changed;
    });
    const changedCount = Math.ceil(ROWS / CHANGED_EVERY);
    const changedCsv = curvesCsv(changedRows);
    const sections = new Set(rows.map((r) => r[CSV_COLUMN.section])).size;
    ctx.log(`import-curves: ${ROWS} rows in ${sections} sections, ${round(Buffer.byteLength(csv) / 1024, 0)} KB of CSV`);

    ctx.log(`import-curves: bare baseline (papaparse + one insert), ${BASELINE_RUNS} runs ...`);
    const baseline = ctx.databaseUrl ? await baselinePostgres(ctx.databaseUrl, csv) : await baselinePglite(csv);
    const baselineSeconds = median(baseline.seconds);

    const steps: Step[] = [
      { label: 'dry run', csv, dryRun: true, expected: { dryRun: true, valid: true, count: ROWS, added: ROWS, changed: 0, unchanged: 0 } },
      { label: 'import', csv, dryRun: false, expected: { dryRun: false, valid: true, count: ROWS, added: ROWS, changed: 0, unchanged: 0 } },
      { label: 'same file again', csv, dryRun: false, expected: { valid: true, count: ROWS, added: 0, changed: 0, unchanged: ROWS } },
      {
        label: `${changedCount} rows changed`,
        csv: changedCsv,
        dryRun: false,
        expected: { valid: true, count: ROWS, added: 0, changed: changedCount, unchanged: ROWS - changedCount },
      },
    ];
    const statusCodes: Record<string, number> = {};
    const runs: StepRun[] = [];
    const problems: string[] = [];
    // A 200 with the wrong figures is an error of the run (a non-2xx already fails it).
    let wrongAnswers = 0;
    let transportErrors = 0;
    for (const step of steps) {
      const form = importForm(step.csv, 'bench-curves.csv');
      const rssBeforeMb = (await readRssMb(ctx.serverPid)) ?? 0;
      const recorder = recordRss(ctx.serverPid, 20);
      const cpuStart = await cpuMark(ctx);
      const started = performance.now();
      const outcome = await postImport(ctx, cookie, form, step.dryRun, STEP_TIMEOUT_MS).then(
        (answer) => ({ answer, error: null }),
        (error: unknown) => ({ answer: null, error }),
      );
      const samples = await recorder.stop();
      const cpu = cpuBetween(cpuStart, await cpuMark(ctx));
      const answer = outcome.answer;
      if (!answer) {
        // No answer at all: the server is stuck or gone, and the steps after this one would only wait too.
        const seconds = round((performance.now() - started) / 1000, 0);
        const cause = outcome.error instanceof Error ? `${outcome.error.name}: ${outcome.error.message}` : String(outcome.error);
        problems.push(`${step.label}: no answer after ${seconds} s (${cause}); server RSS peak ${round(Math.max(rssBeforeMb, ...samples.map((s) => s.mb)), 0)} MB`);
        transportErrors += 1;
        break;
      }
      statusCodes[String(answer.status)] = (statusCodes[String(answer.status)] ?? 0) + 1;
      const mismatch = importMismatch(answer, step.expected);
      if (mismatch) {
        problems.push(`${step.label}: ${mismatch}`);
        if (answer.status === 200) wrongAnswers += 1;
      }
      const r = answer.result;
      runs.push({
        label: step.label,
        status: answer.status,
        ms: answer.ms,
        rssBeforeMb,
        rssPeakMb: Math.max(rssBeforeMb, ...samples.map((s) => s.mb)),
        answer: r ? `added ${r.added}, changed ${r.changed}, unchanged ${r.unchanged}` : `HTTP ${answer.status}`,
        cpu,
      });
      ctx.log(`import-curves: ${step.label}: ${round(answer.ms, 0)} ms, ${runs.at(-1)?.answer ?? ''}`);
    }

    const real = runs.find((r) => r.label === 'import');
    const realSeconds = real && real.status === 200 ? real.ms / 1000 : 0;
    const result: ScenarioResult = {
      unit: 'rows/s',
      connections: 1,
      durationSeconds: round(realSeconds),
      requests: runs.length,
      throughput: round(realSeconds > 0 ? ROWS / realSeconds : 0, 0),
      latencyMs: summarizeLatencies(real && real.status === 200 ? [real.ms] : []),
      non2xx: countNon2xx(statusCodes),
      errors: wrongAnswers + transportErrors,
      statusCodes,
      notes: [],
      baseline: {
        description: `papaparse + one ${ROWS}-row insert`,
        productSeconds: round(realSeconds),
        baselineSeconds: round(baselineSeconds, 3),
      },
    };
    result.notes.push(
      `file: ${ROWS} new curves in ${sections} sections ${SECTION_PREFIX}-*, ${round(Buffer.byteLength(csv) / 1024, 0)} KB of CSV, ` +
        `HKM codes from ${FIRST_HKM_CODE}; the table's p50/p99 and throughput are the real import's (send to last byte)`,
    );
    result.notes.push(
      'one at a time: ' +
        runs
          .map(
            (r) =>
              `${r.label} ${round(r.ms / 1000, 2)} s (${r.answer}; ${r.cpu ? `${r.cpu}; ` : ''}server RSS ${round(r.rssBeforeMb, 0)} -> ` +
              `peak ${round(r.rssPeakMb, 0)} MB, +${round(r.rssPeakMb - r.rssBeforeMb, 1)})`,
          )
          .join('; '),
    );
    const ratio = baselineSeconds > 0 ? realSeconds / baselineSeconds : 0;
    result.notes.push(
      `bare baseline: papaparse of the same CSV text + ONE insert (unnest of 18 arrays) of the ${ROWS} rows into ${baseline.where}: ` +
        `${baseline.seconds.map((s) => round(s, 3)).join(' / ')} s, median ${round(baselineSeconds, 3)} s; ` +
        `the real import ${round(realSeconds, 2)} s = ${round(ratio, 1)}x the baseline`,
    );
    for (const problem of problems) result.notes.push(`error: ${problem}`);
    return result;
  },
};
