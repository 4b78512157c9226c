/**
 * The register's Excel export at 100,000 curves (topped up through the import), alternating with one division's export to
 * see whether the RSS rise follows the row count; beside bare exceljs streaming the same rows, same run.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { CURVE_PAGE_MAX } from '../../common/schemas/curve.js';
import { IMPORT_MAX_ROWS } from '../../common/schemas/register.js';
import { CURVE_COLUMNS } from '../../server/features/register/columns.js';
import { recordRss } from '../lib/memory.js';
import { ownCpuSeconds } from '../lib/process-stats.js';
import { benchCurveRows, curvePage, curvesCsv, curveTotal, importForm, importMismatch, postImport } from '../lib/register.js';
import { median, note, round } from '../lib/stats.js';
import { downloadZip, mib, RunBook, rssRise, runsNote, series, type TimedRun, withServerFigures, worksheetRowCounts } from '../lib/timer.js';
import type { Scenario, ScenarioContext, ScenarioResult } from '../lib/types.js';

const PATH = '/api/export/curves';
const TARGET_CURVES = 100_000;
const SECTION_PREFIX = 'BENCH-EXP';
const FIRST_HKM_CODE = 1_100_000_001; // far from the demo's, the records generator's and import-curves' codes
const SEED = 0xe_4907;
const REPEATS = 3;
const DIVISION = 'RTM/WR';
const WARMUP_DIVISION = 'JBP/WCR';
const BASELINE_BATCH = 2000; // export-service.ts's BATCH_ROWS: the export yields this often

type Cell = string | number | null;

interface ExportRun extends TimedRun {
  status: number;
  rows: number;
}

async function measuredExport(ctx: ScenarioContext, cookie: string, division: string | undefined): Promise<ExportRun> {
  const path = division ? `${PATH}?division=${encodeURIComponent(division)}` : PATH;
  const { value, ...figures } = await withServerFigures(ctx, () => downloadZip(`${ctx.baseUrl}${path}`, { cookie }, 300_000));
  const { body, ...download } = value;
  const counts = [...(await worksheetRowCounts(body)).values()];
  if (counts.length === 0) throw new Error('the workbook has no worksheet');
  return { ...download, ...figures, rows: (counts.at(-1) ?? 0) - 1 };
}

async function topUp(ctx: ScenarioContext, cookie: string, have: number): Promise<string> {
  const need = TARGET_CURVES - have;
  if (need <= 0) return `the register already had ${have} curves`;
  const rows = benchCurveRows({ count: need, sectionPrefix: SECTION_PREFIX, firstHkmCode: FIRST_HKM_CODE, seed: SEED });
  const started = performance.now();
  let files = 0;
  let slowest = 0;
  for (let i = 0; i < rows.length; i += IMPORT_MAX_ROWS) {
    const batch = rows.slice(i, i + IMPORT_MAX_ROWS);
    const answer = await postImport(ctx, cookie, importForm(curvesCsv(batch), `bench-export-${files + 1}.csv`), false);
    const mismatch = importMismatch(answer, { valid: true, count: batch.length, added: batch.length });
    if (mismatch) throw new Error(`topping the register up through POST /api/import-excel (file ${files + 1}, ${batch.length} rows): ${mismatch}`);
    files += 1;
    slowest = Math.max(slowest, answer.ms / 1000);
    ctx.log(`export-curves: imported ${i + batch.length} of ${need} curves (this file ${round(answer.ms / 1000, 1)} s)`);
  }
  const seconds = (performance.now() - started) / 1000;
  return (
    `the register (${have} curves) was topped up to ${TARGET_CURVES} through the product's import: ${files} files of up to ${IMPORT_MAX_ROWS} rows ` +
    `in ${round(seconds, 1)} s (${round(need / seconds, 0)} rows/s, slowest file ${round(slowest, 2)} s)`
  );
}

async function fetchCells(ctx: ScenarioContext, cookie: string, total: number): Promise<Cell[][]> {
  const cells: Cell[][] = [];
  for (let offset = 0; offset < total; offset += CURVE_PAGE_MAX) {
    for (const curve of (await curvePage(ctx, cookie, `limit=${CURVE_PAGE_MAX}&offset=${offset}`)).curves) {
      cells.push(
        CURVE_COLUMNS.map((c): Cell => {
          const value = curve[c.field];
          if (value === null || value === undefined) return null;
          return c.numeric && typeof value === 'number' ? value : String(value);
        }),
      );
    }
  }
  return cells;
}

async function writeBaseline(rows: readonly Cell[][]): Promise<{ seconds: number; bytes: number; cpu: number }> {
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback();
    },
  });
  const started = performance.now();
  const cpuStart = ownCpuSeconds();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Curve Details', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = CURVE_COLUMNS.map((c) => ({ header: c.header, key: c.field, width: c.width, style: c.numeric ? {} : { numFmt: '@' } }));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: CURVE_COLUMNS.length } };
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();
  for (let i = 0; i < rows.length; i++) {
    sheet.addRow(rows[i] ?? []).commit();
    if ((i + 1) % BASELINE_BATCH === 0) await yieldToLoop();
  }
  sheet.commit();
  await workbook.commit();
  return { seconds: (performance.now() - started) / 1000, bytes, cpu: ownCpuSeconds() - cpuStart };
}

export const exportCurves: Scenario = {
  name: 'export-curves',
  description: `GET ${PATH} as the demo Admin over ${TARGET_CURVES} curves, ${REPEATS} times, and ?division=${DIVISION}; one at a time`,
  budget: {
    description:
      'Excel exports, 100k rows: <= 1.5x the bare exceljs streaming writer on the same rows, memory flat in the row count (docs/architecture.md, "Budgets"; memory in the notes)',
    maxRatioToBaseline: 1.5,
  },
  async run(ctx) {
    const cookie = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
    const topUpNote = await topUp(ctx, cookie, await curveTotal(ctx, cookie));
    const total = await curveTotal(ctx, cookie);
    if (total < TARGET_CURVES) throw new Error(`the register has ${total} curves after the top-up, expected ${TARGET_CURVES}`);
    ctx.log(`export-curves: reading the ${total} curves for the baseline (pages of ${CURVE_PAGE_MAX}) ...`);
    const cells = await fetchCells(ctx, cookie, total);
    const divisionIndex = CURVE_COLUMNS.findIndex((c) => c.field === 'divisionRailway');
    const rowsOf = (division: string) => cells.filter((row) => row[divisionIndex] === division).length;
    // Unmeasured: the first export pays for lazy code paths and the database's caches.
    await measuredExport(ctx, cookie, WARMUP_DIVISION);
    const full: ExportRun[] = [];
    const part: ExportRun[] = [];
    const book = new RunBook();
    for (let i = 0; i < REPEATS; i++) {
      for (const division of [undefined, DIVISION]) {
        const run = await book.attempt(() => measuredExport(ctx, cookie, division));
        if (!run) continue;
        book.status(run.status);
        const expected = division ? rowsOf(division) : total;
        if (run.rows !== expected) book.problems.push(`${division ?? 'full'} export: ${String(run.rows)} rows in the sheet, expected ${expected}`);
        (division ? part : full).push(run);
        ctx.log(`export-curves: ${division ?? 'full'} export ${round(run.ms / 1000, 2)} s, ${round(mib(run.bytes), 1)} MB, RSS ${round(run.rssBeforeMb, 0)} -> ${round(run.rssPeakMb, 0)} MB`);
      }
    }
    ctx.log(`export-curves: bare baseline (exceljs WorkbookWriter, the same ${cells.length} rows), ${REPEATS} runs ...`);
    const baseline: { seconds: number; bytes: number; cpu: number }[] = [];
    const ownRssBefore = process.memoryUsage().rss;
    const ownRecorder = recordRss(process.pid, 20);
    for (let i = 0; i < REPEATS; i++) baseline.push(await writeBaseline(cells));
    const ownSamples = await ownRecorder.stop();
    const baselineSeconds = median(baseline.map((b) => b.seconds));
    const productSeconds = median(full.map((r) => r.ms)) / 1000;
    const result: ScenarioResult = {
      ...book.result('exports/s', full.map((r) => r.ms)),
      baseline: {
        description: `exceljs WorkbookWriter, the same ${cells.length} rows, median of ${REPEATS}`,
        productSeconds: round(productSeconds),
        baselineSeconds: round(baselineSeconds),
      },
    };
    const rowsPerSecond = (rows: number, list: readonly ExportRun[]) => (list.length ? round(rows / (median(list.map((r) => r.ms)) / 1000), 0) : null);
    result.notes.push(
      `data: ${topUpNote}; the table's p50/p99 are the full exports'; one at a time, alternating:`,
      runsNote(`full export (${total} rows)`, full, { 'rows/s': rowsPerSecond(total, full) }),
      runsNote(`?division=${DIVISION} (${rowsOf(DIVISION)} rows)`, part, { 'rows/s': rowsPerSecond(rowsOf(DIVISION), part) }),
    );
    const ownPeak = Math.max(mib(ownRssBefore), ...ownSamples.map((s) => s.mb));
    result.notes.push(
      note(
        `bare baseline (exceljs WorkbookWriter, useStyles, no shared strings, the export's sheet layout, the same ${cells.length} rows ` +
          `x ${CURVE_COLUMNS.length} columns read beforehand through GET /api/consolidated-curves, into a stream that drops the bytes, in the bench process)`,
        {
          '': `${series(baseline.map((b) => b.seconds), 2)} s, median ${round(baselineSeconds, 2)} s`,
          CPU: `${round(median(baseline.map((b) => b.cpu)), 2)} s`,
          size: `${round(mib(median(baseline.map((b) => b.bytes))), 2)} MB`,
          'bench process RSS': `${round(mib(ownRssBefore), 0)} -> peak ${round(ownPeak, 0)} MB`,
          'product median': `${round(productSeconds, 2)} s = ${baselineSeconds > 0 ? (productSeconds / baselineSeconds).toFixed(2) : '-'}x the baseline`,
        },
      ),
    );
    // RSS rises are noisy (V8 keeps heap it grew for one export for the next): the median of each size.
    const small = median(part.map(rssRise));
    const big = median(full.map(rssRise));
    const firstByteShare = median(full.map((r) => r.firstByteMs / r.ms));
    result.notes.push(
      `memory vs rows: median RSS rise ${round(small, 1)} MB for ${rowsOf(DIVISION)} rows (${DIVISION}), ${round(big, 1)} MB for ${total} rows ` +
        `(difference ${round(big - small, 1)} MB: ${big - small < 20 ? 'flat within 20 MB' : 'it grows with the rows: not flat'}); ` +
        `the full export's first byte came after ${round(firstByteShare * 100, 0)}% of its time ` +
        `(${firstByteShare > 0.5 ? 'the file is mostly held back until the end, not streamed as it is written' : 'bytes flow while the rows are written'})`,
      ...book.errorNotes(),
    );
    return result;
  },
};
