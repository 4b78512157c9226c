/**
 * The bare baseline of the Excel maintenance report, run as a child process (started by
 * bench/lib/report-baseline.ts): ONE SQL read of the due curves (the schedule statement the
 * product's due list and report use, run once through a bare Drizzle client: register order,
 * status 'attention'), then exceljs's stream.xlsx.WorkbookWriter writing the report's two lists,
 * "Service due" and "CoF due", with the same columns (widths, text and date formats, bold frozen
 * header, autofilter, overdue rows filled) and rows, into a file. No snapshot transaction, no
 * counts per section, no Summary sheet, no hashing, no blob store, no HTTP: the floor under the
 * report.
 *
 * Env: BARE_DATABASE_URL (PostgreSQL: the server's database) or, unset, an in-memory PGlite
 * loaded as the server's was (../bare/database.ts).
 * Messages: parent -> {type: 'run', context}; child -> 'ready', 'done' with the figures, or 'failed'.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { finished } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { needsAttention } from '../../common/rules/schedule.js';
import type { DbOrTx } from '../../server/db/client.js';
import { dueColumns, dueRow } from '../../server/features/reports/curve-maintenance.js';
import { cofOf, listSchedule, type ScheduleRow, serviceOf } from '../../server/features/schedule/index.js';
import { type CellValue, excelDateSerial } from '../../server/xlsx/stream-workbook.js';
import { loadGeneratedRecords, openBareDb } from '../bare/database.js';
import type { RunRequest, WorkerMessage } from './report-baseline.js';

/** Rows between yields to the event loop, as the report writes its batches. */
const BATCH_ROWS = 1000;
const OVERDUE_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } };

type Kind = 'Service' | 'CoF';

/** The product's own cells, dates as Excel serials as its writer stores them. */
function cells(kind: Kind, row: ScheduleRow, dateColumns: readonly boolean[]): { values: CellValue[]; overdue: boolean } {
  const { cells: values, overdue } = dueRow(kind, row);
  return { values: values.map((v, i) => (dateColumns[i] && typeof v === 'string' ? (excelDateSerial(v) ?? v) : v)), overdue };
}

async function writeSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, kind: Kind, rows: readonly ScheduleRow[]): Promise<number> {
  const columns = dueColumns(kind);
  const dateColumns = columns.map((c) => c.date === true);
  const sheet = workbook.addWorksheet(`${kind} due`, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({
    header: c.header,
    key: String(i),
    width: c.width,
    style: c.text ? { numFmt: '@' } : c.date ? { numFmt: 'yyyy-mm-dd' } : {},
  }));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();
  let written = 0;
  for (const row of rows) {
    if (!needsAttention(kind === 'Service' ? serviceOf(row) : cofOf(row))) continue;
    const { values, overdue } = cells(kind, row, dateColumns);
    const added = sheet.addRow(values);
    if (overdue) added.eachCell((cell) => (cell.fill = OVERDUE_FILL));
    added.commit();
    written += 1;
    if (written % BATCH_ROWS === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.commit();
  return written;
}

async function openBaseline(): Promise<{ db: DbOrTx; where: string; close: () => Promise<void>; loadSeconds: number }> {
  const opened = await openBareDb(1);
  if (!opened.pglite || !opened.database) return { db: opened.db as unknown as DbOrTx, where: opened.where, close: opened.close, loadSeconds: 0 };
  const loadSeconds = await loadGeneratedRecords(opened.pglite, opened.database);
  const where = `${opened.where}, loaded by the scale seed as the server's was (demo seed, same seed, day and sizes)`;
  return { db: opened.db as unknown as DbOrTx, where, close: opened.close, loadSeconds };
}

async function counts(db: DbOrTx): Promise<{ curves: number; inspections: number }> {
  const result = (await db.execute(
    sql`select (select count(*) from consolidated_curve_details)::int as curves, (select count(*) from inspection_logs)::int as inspections`,
  )) as unknown as { rows: Array<{ curves: number; inspections: number }> };
  return result.rows[0] ?? { curves: 0, inspections: 0 };
}

async function main(): Promise<void> {
  const { db, where, close, loadSeconds } = await openBaseline();
  const size = await counts(db);
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'hkmi-bench-report-out-'));
  const send = (message: WorkerMessage) => process.send?.(message);
  const stop = () => {
    rmSync(outDir, { recursive: true, force: true });
    void close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.on('message', (message: RunRequest) => {
    void (async () => {
      const cpuStart = process.cpuUsage();
      const started = performance.now();
      // The one read: every curve needing a visit of either kind, in register order.
      const { rows } = await listSchedule(db, {}, message.context, { order: 'register', status: 'attention' });
      const read = performance.now();
      const file = path.join(outDir, 'Curve_Maintenance.xlsx');
      const out = createWriteStream(file);
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
      const serviceRows = await writeSheet(workbook, 'Service', rows);
      const cofRows = await writeSheet(workbook, 'CoF', rows);
      await workbook.commit();
      await finished(out);
      const done = performance.now();
      const cpu = process.cpuUsage(cpuStart);
      const bytes = (await stat(file)).size;
      rmSync(file, { force: true });
      send({
        type: 'done',
        sqlSeconds: (read - started) / 1000,
        writeSeconds: (done - read) / 1000,
        seconds: (done - started) / 1000,
        serviceRows,
        cofRows,
        bytes,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
      });
    })().catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }));
  });
  send({ type: 'ready', where, curves: size.curves, inspections: size.inspections, loadSeconds });
}

main().catch((error: unknown) => {
  process.send?.({ type: 'failed', message: error instanceof Error ? error.stack ?? error.message : String(error) } satisfies WorkerMessage);
  process.exit(1);
});
