/**
 * The PDF Reports report (docs/functional-requirements.md, 'PDF Reports'; POST /api/reports/generate): every Service
 * or CoF record of a division and period with its photo and its fields, two to an A4 page,
 * after a first page that says what was asked, who made it, when, and what it found. Photos
 * are their print copies (1200 px JPEG), embedded without decoding, so a thousand of them
 * make a file that opens on a phone; the originals stay untouched.
 */
import type { InspectionReportRequest, ReportJobResponse } from '../../../common/schemas/reports.js';
import { PDF_PHOTO_REPORT_MAX_RECORDS } from '../../../common/schemas/reports.js';
import { datedFileName } from '../../content-disposition.js';
import type { Db } from '../../db/client.js';
import type { InspectionRow } from '../../db/schema.js';
import { COLORS, PdfReport } from '../../pdf/pdf-report.js';
import { PdfTable } from '../../pdf/pdf-table.js';
import { dateInTimeZone } from '../../../common/rules/dates.js';
import { Semaphore } from '../../semaphore.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Actor } from '../../audit/index.js';
import { derivedPhoto, PRINT_COPY } from '../inspections/index.js';
import { cofFigures, countBy, readRecords, type RecordReports, reportDivision, snapshotOf } from './record-reports.js';
import { cofText, type Field, recordTexts } from './record-texts.js';
import { madeAtText, periodText, reportIdText, reportPdfOptions, requesterText } from './report-text.js';
import { type Bilingual, both, joined, REPORT_PHRASES, REPORT_WORDS as W, stacked, word } from './report-words.js';
import type { ReportService } from './service.js';
import type { RenderControl, ReportJob, ReportOutput } from './report-job.js';

const PDF_TYPE = 'application/pdf';
/** Print copies fetched ahead of the one being placed: making them overlaps the writing. */
const PHOTOS_AHEAD = 4;
/**
 * Print copies a report makes at once in this instance: one core's worth, so a report over
 * new photos leaves the other cores to uploads and the records view.
 */
const reportPhotoSlots = new Semaphore(1);
/**
 * A record's block, two to a page: the gap between blocks, its title band, and two columns of
 * fields (a bilingual label and its value side by side). The bench's bare baseline draws the same.
 */
export const RECORD_BLOCK = { gap: 14, titleBand: 18, fieldSize: 7.5, fieldColumns: 2, fieldGap: 12, fieldRowGap: 2 } as const;
const { gap: BLOCK_GAP, titleBand: BLOCK_TITLE, fieldSize: FIELD_SIZE, fieldColumns: FIELD_COLUMNS, fieldGap: FIELD_GAP, fieldRowGap: FIELD_ROW_GAP } = RECORD_BLOCK;

export interface InspectionPdfDeps {
  db: Db;
  blobs: BlobStore;
  reports: ReportService;
  records: RecordReports;
  appTimeZone: string;
}


type PdfImage = { width: number; height: number };

export function createInspectionPdfReport(deps: InspectionPdfDeps) {
  const { db, blobs } = deps;

  async function render(job: ReportJob, control: RenderControl): Promise<ReportOutput> {
    const { cofAlertThreshold: threshold } = snapshotOf(job);
    const params = job.params as { type: 'Service' | 'CoF'; fromDate?: string; toDate?: string; technicianId?: string; order: 'newest' | 'curve' };
    const rows = await readRecords(db, job, params.order);
    const title = params.type === 'CoF' ? W.cofMeasurementReport : W.serviceInspectionReport;
    const pdf = await PdfReport.open(
      reportPdfOptions(job, { title, subject: `${title.en}, ${job.division ?? 'all divisions'}, ${periodText(params.fromDate, params.toDate)}`, timeZone: deps.appTimeZone }),
    );
    const finished = (async () => {
      writeCover(pdf, job, rows, { title, threshold, params });
      // Two records to a page after the cover: the count is known, so pages go out as they are made.
      pdf.fixTotalPages(pdf.pageCount + Math.ceil(rows.length / 2));
      control.progress(0.02);
      const placed = await writeRecords(pdf, rows, threshold, control);
      const pages = pdf.finish();
      return {
        recordCount: rows.length,
        summary: { photosPrinted: placed, photosMissing: rows.length - placed, pages },
      };
    })();
    finished.catch((error: unknown) => pdf.output.destroy(error instanceof Error ? error : new Error(String(error))));
    const today = dateInTimeZone(job.createdAt, deps.appTimeZone);
    return {
      fileName: datedFileName(params.type === 'CoF' ? 'CoF_Report' : 'Service_Report', [job.division ?? undefined], today, 'pdf'),
      contentType: PDF_TYPE,
      stream: pdf.output,
      finished,
    };
  }

  function writeCover(
    pdf: PdfReport,
    job: ReportJob,
    rows: readonly InspectionRow[],
    about: { title: Bilingual; threshold: number; params: { type: string; fromDate?: string; toDate?: string; technicianId?: string; order: string } },
  ): void {
    const { params } = about;
    const division: Bilingual | string = job.division ?? W.allDivisions;
    const period = REPORT_PHRASES.period(params.fromDate, params.toDate);
    pdf.paragraph(both(about.title), { size: 20, weight: 'bold' }, 2);
    pdf.paragraph(both(joined(', ', division, period)), { size: 12, color: COLORS.muted }, 10);
    const technician = params.technicianId ? rows.find((r) => r.technicianId === params.technicianId) : undefined;
    pdf.facts([
      [word('division'), typeof division === 'string' ? division : both(division)],
      // The report's kind: Service is a word of the product, CoF the same in both languages.
      [word('serviceType'), params.type === 'Service' ? word('service') : params.type],
      [word('period'), both(period)],
      [word('technician'), params.technicianId ? (technician ? `${technician.technicianName} (${params.technicianId})` : params.technicianId) : word('allTechnicians')],
      [word('records'), String(rows.length)],
      [word('order'), word(params.order === 'curve' ? 'orderByCurve' : 'orderNewest')],
      [word('madeBy'), requesterText(job)],
      [word('madeAt'), madeAtText(job.createdAt, deps.appTimeZone)],
      [word('recordsUpTo'), madeAtText(snapshotOf(job).until, deps.appTimeZone)],
    ]);
    pdf.paragraph(reportIdText(job), { size: 9, color: COLORS.muted }, 6);
    if (params.type === 'CoF') writeCofFigures(pdf, rows, about.threshold);
    pdf.heading(word('recordsPerSection'));
    const bySection = new PdfTable(pdf, [
      { header: word('division'), weight: 1 },
      { header: word('section'), weight: 2 },
      { header: word('records'), weight: 1, align: 'right' },
    ]);
    for (const [key, n] of countBy(rows, (r) => `${r.divisionRailway}\u0000${r.section}`)) {
      const [division, section] = key.split('\u0000');
      bySection.row([division ?? '', section ?? '', String(n)]);
    }
    pdf.heading(word('recordsPerTechnician'));
    const byTechnician = new PdfTable(pdf, [
      { header: word('technician'), weight: 3 },
      { header: word('employeeId'), weight: 1 },
      { header: word('records'), weight: 1, align: 'right' },
    ]);
    for (const [key, n] of countBy(rows, (r) => `${r.technicianName}\u0000${r.technicianId}`)) {
      const [name, id] = key.split('\u0000');
      byTechnician.row([name ?? '', id ?? '', String(n)]);
    }
  }

  function writeCofFigures(pdf: PdfReport, rows: readonly InspectionRow[], threshold: number): void {
    const { readings, mean, lowest, highest, high } = cofFigures(rows, threshold);
    pdf.heading(word('cofReadings'));
    pdf.facts([
      [word('readings'), String(readings)],
      [word('mean'), mean],
      [word('lowest'), lowest],
      [word('highest'), highest],
      [word('aboveThreshold'), both(REPORT_PHRASES.aboveThresholdCount(high.length, threshold.toFixed(2)))],
    ]);
    if (high.length === 0) return;
    pdf.heading(both(REPORT_PHRASES.readingsAbove(threshold.toFixed(2))), 11);
    const table = new PdfTable(pdf, [
      { header: word('date'), weight: 1.1 },
      { header: word('section'), weight: 1.6 },
      { header: word('curve'), weight: 1 },
      { header: word('line'), weight: 0.8 },
      { header: word('cof'), weight: 0.7, align: 'right' },
      { header: word('technician'), weight: 2 },
      { header: word('recordId'), weight: 2 },
    ]);
    for (const r of high) table.row([r.date, r.section, r.curveNumber, r.line, cofText(r.cofValue), r.technicianName, r.recordId], { marked: true });
  }

  /** Two records to a page; answers how many photos were placed. */
  async function writeRecords(pdf: PdfReport, rows: readonly InspectionRow[], threshold: number, control: RenderControl): Promise<number> {
    const images = new Map<string, PdfImage>();
    const ahead: Promise<Buffer | null>[] = [];
    let next = 0;
    const fetchNext = () => {
      const row = rows[next++];
      ahead.push(row?.imageHash ? derivedPhoto(blobs, row.imageHash, PRINT_COPY, reportPhotoSlots) : Promise.resolve(null));
    };
    let placed = 0;
    const blockHeight = (pdf.bottom - pdf.top - BLOCK_GAP) / 2;
    for (let index = 0; index < rows.length; index += 1) {
      control.signal.throwIfAborted();
      while (next < rows.length && ahead.length <= PHOTOS_AHEAD) fetchNext();
      const photo = (await ahead.shift()) ?? null;
      const row = rows[index]!;
      if (index % 2 === 0) pdf.newPage();
      const top = pdf.top + (index % 2) * (blockHeight + BLOCK_GAP);
      if (writeRecord(pdf, row, index, top, blockHeight, threshold, photo, images)) placed += 1;
      control.progress(0.02 + (0.97 * (index + 1)) / rows.length);
      await pdf.drained();
    }
    return placed;
  }

  function writeRecord(
    pdf: PdfReport,
    row: InspectionRow,
    index: number,
    top: number,
    height: number,
    threshold: number,
    photo: Buffer | null,
    images: Map<string, PdfImage>,
  ): boolean {
    const { doc } = pdf;
    const { title, subtitle, high, fields } = recordTexts(row, index, threshold, deps.appTimeZone);
    doc.save().rect(pdf.left, top, pdf.width, BLOCK_TITLE).fill(high ? '#fbe9e7' : COLORS.band).restore();
    const half = pdf.width / 2;
    pdf.text(title, pdf.left + 4, top + 4, { size: 9, weight: 'bold', width: half });
    pdf.text(subtitle, pdf.left + half, top + 4, {
      size: 9,
      weight: high ? 'bold' : 'regular',
      color: high ? COLORS.alert : COLORS.ink,
      width: half - 4,
      align: 'right',
    });
    const layout = fieldLayout(pdf, fields);
    const fieldsHeight = layout.rowHeights.reduce((sum, h) => sum + h + FIELD_ROW_GAP, 0);
    const photoTop = top + BLOCK_TITLE + 4;
    const photoHeight = height - BLOCK_TITLE - 4 - 6 - fieldsHeight;
    let placed = false;
    if (photo && row.imageHash) {
      try {
        const image = images.get(row.imageHash) ?? (doc as unknown as { openImage(src: Buffer): PdfImage }).openImage(photo);
        images.set(row.imageHash, image);
        doc.image(image as unknown as Buffer, pdf.left, photoTop, { fit: [pdf.width, photoHeight], align: 'center', valign: 'center' });
        placed = true;
      } catch {
        placed = false;
      }
    }
    if (!placed) {
      doc.save().rect(pdf.left, photoTop, pdf.width, photoHeight).lineWidth(0.5).dash(4, { space: 3 }).strokeColor(COLORS.muted).stroke().undash().restore();
      // Hindi on one line, English under it: a sentence across the photo's box.
      const why = stacked(W[row.imageHash ? 'photoMissing' : 'noPhoto']);
      pdf.text(why, pdf.left, photoTop + photoHeight / 2 - 14, { size: 10, color: COLORS.muted, width: pdf.width, align: 'center' });
    }
    // The fields under the photo, in columns, row by row.
    let y = photoTop + photoHeight + 6;
    layout.rowHeights.forEach((rowHeight, r) => {
      fields.slice(r * FIELD_COLUMNS, (r + 1) * FIELD_COLUMNS).forEach(([label, value], column) => {
        const x = pdf.left + column * (layout.columnWidth + FIELD_GAP);
        pdf.text(label, x, y, { size: FIELD_SIZE, color: COLORS.muted, width: layout.labelWidth - 4 });
        // The reading is the first field of a CoF record.
        const alert = high && r === 0 && column === 0;
        pdf.text(value, x + layout.labelWidth, y, { size: FIELD_SIZE, weight: alert ? 'bold' : 'regular', color: alert ? COLORS.alert : COLORS.ink, width: layout.columnWidth - layout.labelWidth });
      });
      y += rowHeight + FIELD_ROW_GAP;
    });
    return placed;
  }

  /** Where the fields go: labels as wide as the widest (up to 58% of a column), each row as high as its tallest cell. */
  function fieldLayout(pdf: PdfReport, fields: readonly Field[]): { columnWidth: number; labelWidth: number; rowHeights: number[] } {
    const columnWidth = (pdf.width - FIELD_GAP * (FIELD_COLUMNS - 1)) / FIELD_COLUMNS;
    const widest = Math.max(...fields.map(([label]) => pdf.widthOf(label, { size: FIELD_SIZE })));
    const labelWidth = Math.min(widest + 8, columnWidth * 0.58);
    const rowHeights: number[] = [];
    for (let i = 0; i < fields.length; i += FIELD_COLUMNS) {
      const cells = fields.slice(i, i + FIELD_COLUMNS);
      rowHeights.push(
        Math.max(...cells.map(([label, value]) => Math.max(pdf.measure(label, { size: FIELD_SIZE, width: labelWidth - 4 }), pdf.measure(value, { size: FIELD_SIZE, weight: 'bold', width: columnWidth - labelWidth })))),
      );
    }
    return { columnWidth, labelWidth, rowHeights };
  }

  deps.reports.register('inspection-pdf', render);

  /** POST /api/reports/generate. */
  function generate(actor: Actor, request: InspectionReportRequest): Promise<{ done: boolean; body: ReportJobResponse }> {
    const division = reportDivision(actor, request.division);
    return deps.records.queueAndAnswer(actor, {
      kind: 'inspection-pdf',
      params: { type: request.type, division: division ?? 'all', fromDate: request.fromDate, toDate: request.toDate, technicianId: request.technicianId, format: request.format, order: request.order },
      filter: { division, type: request.type, from: request.fromDate, to: request.toDate, technicianId: request.technicianId },
      maxRecords: PDF_PHOTO_REPORT_MAX_RECORDS,
      noun: request.type === 'CoF' ? 'CoF records' : 'Service records',
    });
  }

  return { generate };
}

export type InspectionPdfReport = ReturnType<typeof createInspectionPdfReport>;
