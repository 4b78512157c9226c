/**
 * The bare baselines of the timed reports (./jobs.ts starts this process, BARE_JOB picks one):
 *
 * 'pdf'    pdfkit alone writes an A4 PDF of the given print-size JPEGs (the bytes the server made
 *          for its report, copied by the scenario), two to a page, each under a line of text
 *          (standard Helvetica, nothing embedded but the photos), streamed into a file; each photo
 *          read from disk a few ahead of the one placed, as the server reads its print copies. No
 *          database, cover page, fields, Unicode fonts, hashing, blob store or HTTP.
 * 'excel'  ONE SQL read of the due curves (the product's schedule statement through a bare Drizzle
 *          client: register order, status 'attention'), then exceljs's stream.xlsx.WorkbookWriter
 *          writing "Service due" and "CoF due" with the product's columns and cells (widths, text
 *          and date formats, bold frozen header, autofilter, overdue fill) into a file. No snapshot
 *          transaction, Summary sheet, hashing, blob store or HTTP.
 *
 * Messages: parent -> {type: 'run', files | context}; child -> 'ready', 'done' with the figures, or 'failed'.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { finished } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { needsAttention } from '../../common/rules/schedule.js';
import type { DbOrTx } from '../../server/db/client.js';
import { dueColumns, dueRow } from '../../server/features/reports/curve-maintenance.js';
import { cofOf, listSchedule, type ScheduleRow, serviceOf } from '../../server/features/schedule/index.js';
import type { ScheduleContext } from '../../server/features/schedule/schedule-sql.js';
import { type CellValue, excelDateSerial } from '../../server/xlsx/stream-workbook.js';
import { loadGeneratedRecords, openBareDb } from './database.js';
import type { ExcelFigures, JobMessage, JobRequest, JobWorkerReady, PdfFigures } from './jobs.js';

const MARGIN = 36;
/** Photos read ahead of the one being placed, as the server's report reads its print copies. */
const READ_AHEAD = 4;
const GAP = 14;
const LINE = 16;

async function writePdf(files: readonly string[], file: string): Promise<{ pages: number; readSeconds: number }> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, autoFirstPage: false });
  const out = createWriteStream(file);
  doc.pipe(out);
  let pages = 0;
  let readSeconds = 0;
  const ahead: Promise<Buffer>[] = [];
  let next = 0;
  for (let index = 0; index < files.length; index++) {
    while (next < files.length && ahead.length <= READ_AHEAD) {
      const reading = readFile(files[next++] ?? '');
      // Awaited in its turn; a failure must not count as unhandled before then.
      reading.catch(() => undefined);
      ahead.push(reading);
    }
    const started = performance.now();
    const photo = await (ahead.shift() as Promise<Buffer>);
    readSeconds += (performance.now() - started) / 1000;
    if (index % 2 === 0) {
      doc.addPage();
      pages += 1;
    }
    const width = doc.page.width - 2 * MARGIN;
    const block = (doc.page.height - 2 * MARGIN - GAP) / 2;
    const top = MARGIN + (index % 2) * (block + GAP);
    doc.font('Helvetica').fontSize(9).fillColor('#1a1a1a').text(`${index + 1}. Photo ${path.basename(files[index] ?? '')}`, MARGIN, top, { width, lineBreak: false });
    doc.image(photo, MARGIN, top + LINE, { fit: [width, block - LINE], align: 'center', valign: 'center' });
  }
  doc.end();
  await finished(out);
  return { pages, readSeconds };
}

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


/** The maintenance report's two lists into `file`. */
async function writeExcel(db: DbOrTx, context: ScheduleContext, file: string): Promise<Omit<ExcelFigures, 'cpuSeconds'>> {
  const started = performance.now();
  // The one read: every curve needing a visit of either kind, in register order.
  const { rows } = await listSchedule(db, {}, context, { order: 'register', status: 'attention' });
  const read = performance.now();
  const out = createWriteStream(file);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const serviceRows = await writeSheet(workbook, 'Service', rows);
  const cofRows = await writeSheet(workbook, 'CoF', rows);
  await workbook.commit();
  await finished(out);
  const done = performance.now();
  const bytes = (await stat(file)).size;
  return { sqlSeconds: (read - started) / 1000, writeSeconds: (done - read) / 1000, seconds: (done - started) / 1000, serviceRows, cofRows, bytes };
}

async function pdfRun(files: readonly string[], file: string): Promise<Omit<PdfFigures, 'cpuSeconds'>> {
  const started = performance.now();
  const { pages, readSeconds } = await writePdf(files, file);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, readSeconds, pages, photos: files.length, bytes: (await stat(file)).size };
}

async function main(): Promise<void> {
  const excel = process.env.BARE_JOB === 'excel' ? await openBaseline() : null;
  const held: JobWorkerReady = excel ? { where: excel.where, loadSeconds: excel.loadSeconds, ...(await counts(excel.db)) } : { where: '', curves: 0, inspections: 0, loadSeconds: 0 };
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'hkmi-bench-job-baseline-'));
  const send = (message: JobMessage<PdfFigures | ExcelFigures>) => process.send?.(message);
  const stop = () => {
    rmSync(outDir, { recursive: true, force: true });
    void (excel?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.on('message', (message: JobRequest) => {
    void (async () => {
      const file = path.join(outDir, 'report');
      const cpuStart = process.cpuUsage();
      const figures = 'files' in message ? await pdfRun(message.files, file) : excel ? await writeExcel(excel.db, message.context, file) : null;
      if (!figures) throw new Error('not an Excel baseline (BARE_JOB)');
      const cpu = process.cpuUsage(cpuStart);
      rmSync(file, { force: true });
      send({ type: 'done', ...figures, cpuSeconds: (cpu.user + cpu.system) / 1e6 } as JobMessage<PdfFigures | ExcelFigures>);
    })().catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }));
  });
  send({ type: 'ready', ...held });
}

main().catch((error: unknown) => {
  process.send?.({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
