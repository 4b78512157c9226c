/**
 * The timed reports' bare baselines, each in its own process (this file forked with BARE_JOB) so its time and RSS are measured
 * as the server's: 'pdf' is bare pdfkit on the server's print copies, 'excel' one SQL read of the due curves + exceljs's
 * streaming writer with the product's columns; no database transaction, hashing, blob store or HTTP (README).
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { finished } from 'node:stream/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { needsAttention } from '../../common/rules/schedule.js';
import type { InspectionLog } from '../../common/schemas/inspection.js';
import type { DbOrTx } from '../../server/db/client.js';
import { dueColumns, dueRow } from '../../server/features/reports/curve-maintenance.js';
import { RECORD_BLOCK } from '../../server/features/reports/inspection-pdf.js';
import { recordTexts } from '../../server/features/reports/record-texts.js';
import { reportPdfOptions } from '../../server/features/reports/report-text.js';
import { REPORT_WORDS } from '../../server/features/reports/report-words.js';
import { cofOf, listSchedule, type ScheduleRow, serviceOf } from '../../server/features/schedule/index.js';
import type { ScheduleContext } from '../../server/features/schedule/schedule-sql.js';
import { fontFaces, loadFontkit, runsOf, type Weight } from '../../server/pdf/fonts.js';
import { PAGE_GEOMETRY } from '../../server/pdf/pdf-report.js';
import { excelDateSerial } from '../../server/xlsx/stream-workbook.js';
import { forkReady, serveAsChild } from '../lib/child.js';
import { withRss } from '../lib/memory.js';
import type { ScenarioContext } from '../lib/types.js';
import { generatedDataEnv, loadGeneratedRecords, openBareDb } from './database.js';

export type PdfFigures = Awaited<ReturnType<typeof writePdf>> & { cpuSeconds: number };
export type ExcelFigures = Awaited<ReturnType<typeof writeExcel>> & { cpuSeconds: number };

interface JobWorkerReady {
  where: string;
  curves: number;
  inspections: number;
  loadSeconds: number;
}

type JobRequest = PdfInput | { context: ScheduleContext };
type JobMessage = ({ type: 'done' } & (PdfFigures | ExcelFigures)) | { type: 'failed'; message: string };

export type WithRssFigures<F> = F & { rssBeforeMb: number; rssPeakMb: number };

export interface JobBaseline<Input, F> extends JobWorkerReady {
  run(input: Input): Promise<WithRssFigures<F>>;
  stop(): Promise<void>;
}

async function startJobWorker<Input, F>(job: 'pdf' | 'excel', env: Record<string, string>, request: (input: Input) => JobRequest): Promise<JobBaseline<Input, F>> {
  const { child, ready } = await forkReady<JobWorkerReady, JobMessage>(`the ${job} baseline`, fileURLToPath(import.meta.url), { ...env, BARE_JOB: job }, 600_000);
  const { type: _ready, ...held } = ready;
  return {
    ...held,
    async run(input) {
      const { value: answer, rssBeforeMb, rssPeakMb } = await withRss(child.pid, () => {
        child.send(request(input));
        return child.next(600_000);
      });
      if (answer.type !== 'done') throw new Error(`the ${job} baseline failed: ${answer.type === 'failed' ? answer.message : answer.type}`);
      const { type: _done, ...figures } = answer;
      return { ...(figures as F), rssBeforeMb, rssPeakMb };
    },
    stop: () => child.stop(),
  };
}

export const startPdfBaseline = () => startJobWorker<PdfInput, PdfFigures>('pdf', {}, (input) => input);

export function startReportBaseline(ctx: ScenarioContext, today: string): Promise<JobBaseline<ScheduleContext, ExcelFigures>> {
  const generated = ctx.dataset?.generated;
  if (!ctx.databaseUrl && !generated) throw new Error('the report baseline on PGlite needs the generated records (dataset: records)');
  const env = { BARE_DATABASE_URL: ctx.databaseUrl ?? '', ...generatedDataEnv({ today, count: generated?.count ?? 0, curves: generated?.curves ?? 0 }) };
  return startJobWorker<ScheduleContext, ExcelFigures>('excel', env, (context) => ({ context }));
}


const { margin: MARGIN, headerHeight: HEADER, footerHeight: FOOTER } = PAGE_GEOMETRY;
const READ_AHEAD = 4; // photos read ahead, as the server's report reads its print copies
const BATCH_ROWS = 1000; // rows between yields to the event loop, as the report writes its batches
const OVERDUE_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } };
// The product's record block (inspection-pdf.ts): its gap, title band, fields' size and column gap.
const { gap: GAP, titleBand: TITLE_BAND, fieldSize: FIELD_SIZE, fieldGap: FIELD_GAP } = RECORD_BLOCK;
const FIELD_LINE = 10;
const INK = '#1a1a1a';
const MUTED = '#5c6670';
/** The report's furniture as the product words it (report-text.ts); the job's figures are made up: no database. */
const BASELINE_JOB = { id: '6b1f0c52-4d3e-4a8f-9c1a-2f7e5d9b8a10', requester: { userId: null, employeeId: 'ADM1', name: 'Bench Admin' }, createdAt: new Date() };
const TIME_ZONE = 'Asia/Kolkata';
const COF_THRESHOLD = 0.25;

/** The records the photos belong to, as the API answers them (GET /api/inspections), in the photos' order. */
export interface PdfInput {
  files: string[];
  records: InspectionLog[];
}

/**
 * `text` on one line from (x, y), each run of a script in the Noto face that has it (the product's runsOf), with pdfkit's own
 * text(); right-aligned to `right` when given. No wrapping, no measuring for layout, no ActualText: bare pdfkit.
 */
function drawText(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number, weight: Weight, right?: number) {
  const runs = runsOf(text, weight);
  let at = x;
  if (right !== undefined) at = right - runs.reduce((sum, run) => sum + doc.font(run.font).fontSize(size).widthOfString(run.text), 0);
  for (const run of runs) {
    doc.font(run.font).fontSize(size).text(run.text, at, y, { lineBreak: false });
    at += doc.widthOfString(run.text);
  }
}

async function writePdf({ files, records }: PdfInput, file: string) {
  // runsOf reads the faces' coverage through fontkit, which the server too loads on first use (once per process).
  await loadFontkit();
  const started = performance.now();
  if (records.length !== files.length) throw new Error(`${files.length} photos but ${records.length} records`);
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, autoFirstPage: false });
  // The product's Noto faces, registered as it registers them (server/pdf/pdf-report.ts), subset by pdfkit.
  for (const face of fontFaces()) doc.registerFont(face.name, face.file);
  const out = createWriteStream(file);
  doc.pipe(out);
  const furniture = reportPdfOptions(BASELINE_JOB, { title: REPORT_WORDS.serviceInspectionReport, subject: 'bench', timeZone: TIME_ZONE });
  const total = Math.ceil(files.length / 2);
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
    const waited = performance.now();
    const photo = await (ahead.shift() as Promise<Buffer>);
    readSeconds += (performance.now() - waited) / 1000;
    if (index % 2 === 0) {
      doc.addPage();
      pages += 1;
      // The product's header and footer: the title, the report's reference, a rule, who made it, the page number.
      drawText(doc.fillColor(MUTED), furniture.title, MARGIN, MARGIN - 4, 8, 'bold');
      drawText(doc, furniture.reference, MARGIN, MARGIN - 4, 8, 'regular', doc.page.width - MARGIN);
      doc.save().moveTo(MARGIN, MARGIN + HEADER - 8).lineTo(doc.page.width - MARGIN, MARGIN + HEADER - 8).lineWidth(0.5).strokeColor('#c9d1d9').stroke().restore();
      const footerY = doc.page.height - MARGIN - 8;
      drawText(doc, furniture.madeBy, MARGIN, footerY, 7.5, 'regular');
      drawText(doc, furniture.pageText?.(pages, total) ?? '', MARGIN, footerY, 7.5, 'regular', doc.page.width - MARGIN);
    }
    const pageWidth = doc.page.width - 2 * MARGIN;
    const block = (doc.page.height - 2 * MARGIN - HEADER - FOOTER - GAP) / 2;
    const top = MARGIN + HEADER + (index % 2) * (block + GAP);
    const record = records[index]!;
    const texts = recordTexts({ ...record, submittedAt: new Date(record.submittedAt) }, index, COF_THRESHOLD, TIME_ZONE);
    doc.save().rect(MARGIN, top, pageWidth, TITLE_BAND).fill('#eef2f6').restore();
    drawText(doc.fillColor(INK), texts.title, MARGIN + 4, top + 4, 9, 'bold');
    drawText(doc, texts.subtitle, MARGIN + pageWidth / 2, top + 4, 9, 'regular', MARGIN + pageWidth - 4);
    const fieldRows = Math.ceil(texts.fields.length / 2);
    const fieldsTop = top + block - fieldRows * FIELD_LINE;
    doc.image(photo, MARGIN, top + TITLE_BAND + 4, { fit: [pageWidth, fieldsTop - top - TITLE_BAND - 10], align: 'center', valign: 'center' });
    // The fields in two columns under the photo, each label before its value.
    const column = (pageWidth - FIELD_GAP) / 2;
    texts.fields.forEach(([label, value], i) => {
      const x = MARGIN + (i % 2) * (column + FIELD_GAP);
      const y = fieldsTop + Math.floor(i / 2) * FIELD_LINE;
      drawText(doc.fillColor(MUTED), label, x, y, FIELD_SIZE, 'regular');
      drawText(doc.fillColor(INK), value, x + column * 0.5, y, FIELD_SIZE, 'regular');
    });
  }
  doc.end();
  await finished(out);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, readSeconds, pages, photos: files.length, bytes: (await stat(file)).size };
}

async function writeSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, kind: 'Service' | 'CoF', rows: readonly ScheduleRow[]): Promise<number> {
  const columns = dueColumns(kind);
  const sheet = workbook.addWorksheet(`${kind} due`, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width, style: c.text ? { numFmt: '@' } : c.date ? { numFmt: 'yyyy-mm-dd' } : {} }));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();
  let written = 0;
  for (const row of rows) {
    if (!needsAttention(kind === 'Service' ? serviceOf(row) : cofOf(row))) continue;
    // The product's own cells, dates as Excel serials as its writer stores them.
    const { cells, overdue } = dueRow(kind, row);
    const added = sheet.addRow(cells.map((v, i) => (columns[i]?.date === true && typeof v === 'string' ? (excelDateSerial(v) ?? v) : v)));
    if (overdue) added.eachCell((cell) => (cell.fill = OVERDUE_FILL));
    added.commit();
    written += 1;
    if (written % BATCH_ROWS === 0) await yieldToLoop();
  }
  sheet.commit();
  return written;
}

async function writeExcel(db: DbOrTx, context: ScheduleContext, file: string) {
  const started = performance.now();
  const { rows } = await listSchedule(db, {}, context, { order: 'register', status: 'attention' });
  const read = performance.now();
  const out = createWriteStream(file);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const serviceRows = await writeSheet(workbook, 'Service', rows);
  const cofRows = await writeSheet(workbook, 'CoF', rows);
  await workbook.commit();
  await finished(out);
  const done = performance.now();
  return { sqlSeconds: (read - started) / 1000, writeSeconds: (done - read) / 1000, seconds: (done - started) / 1000, serviceRows, cofRows, bytes: (await stat(file)).size };
}

async function openExcelDb(): Promise<{ db: DbOrTx; close: () => Promise<void>; ready: JobWorkerReady }> {
  const opened = await openBareDb(1);
  const db = opened.db as unknown as DbOrTx;
  const loadSeconds = opened.pglite && opened.database ? await loadGeneratedRecords(opened.pglite, opened.database) : 0;
  const where = opened.pglite ? `${opened.where}, loaded by the scale seed as the server's was (demo seed, same seed, day and sizes)` : opened.where;
  const counts = (await db.execute(
    sql`select (select count(*) from consolidated_curve_details)::int as curves, (select count(*) from inspection_logs)::int as inspections`,
  )) as unknown as { rows: Array<{ curves: number; inspections: number }> };
  return { db, close: opened.close, ready: { where, loadSeconds, ...(counts.rows[0] ?? { curves: 0, inspections: 0 }) } };
}

async function worker() {
  const excel = process.env.BARE_JOB === 'excel' ? await openExcelDb() : null;
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'hkmi-bench-job-baseline-'));
  const send = (message: JobMessage) => process.send?.(message);
  process.on('message', (message: JobRequest) => {
    void (async () => {
      const file = path.join(outDir, 'report');
      const cpuStart = process.cpuUsage();
      const figures = 'files' in message ? await writePdf(message, file) : excel ? await writeExcel(excel.db, message.context, file) : null;
      if (!figures) throw new Error('not an Excel baseline (BARE_JOB)');
      const cpu = process.cpuUsage(cpuStart);
      rmSync(file, { force: true });
      send({ type: 'done', ...figures, cpuSeconds: (cpu.user + cpu.system) / 1e6 } as JobMessage);
    })().catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }));
  });
  const stop = async () => {
    rmSync(outDir, { recursive: true, force: true });
    await excel?.close();
  };
  return { ready: excel?.ready ?? { where: '', curves: 0, inspections: 0, loadSeconds: 0 }, stop };
}

if (process.env.BARE_JOB) serveAsChild<JobWorkerReady>(worker);
