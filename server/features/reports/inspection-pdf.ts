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
import { cofFigures, cofText, countBy, isHighReading, readRecords, type RecordReports, reportDivision, snapshotOf } from './record-reports.js';
import { dateTimeText, joinedText, madeAtText, periodText, serviceUpdateText } from './report-text.js';
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
const BLOCK_GAP = 14;
const BLOCK_TITLE = 18;
const FIELD_SIZE = 7.5;
const FIELD_COLUMNS = 3;

export interface InspectionPdfDeps {
  db: Db;
  blobs: BlobStore;
  reports: ReportService;
  records: RecordReports;
  appTimeZone: string;
}


const yesNo = (value: boolean | null) => (value === null ? '' : value ? 'Yes' : 'No');

/** The fields printed under a record's photo, in reading order. */
function fieldsOf(row: InspectionRow, threshold: number, timeZone: string): [string, string][] {
  const common: [string, string][] = [
    ['Division', row.divisionRailway],
    ['Section', row.section],
    ['Curve / line', `${row.curveNumber} / ${row.line}`],
    ['Stations', joinedText(row.station1, row.station2)],
    ['Km', row.km ?? ''],
    ['Poles', joinedText(row.pole1, row.pole2)],
    ['SSE', row.railwayEngineer ?? ''],
    ['Technician', `${row.technicianName} (${row.technicianId})`],
    ['Stored', dateTimeText(row.submittedAt, timeZone)],
  ];
  if (row.type === 'CoF') {
    return [
      ['CoF value', `${cofText(row.cofValue)}${isHighReading(row, threshold) ? `  ABOVE ${threshold.toFixed(2)}` : ''}`],
      ['Location', row.location ?? ''],
      ...common,
    ];
  }
  return [
    ['Service update', serviceUpdateText(row.serviceUpdate)],
    ['Part', joinedText(row.partCategory, row.partItemName)],
    ['Machine working', yesNo(row.isMachineWorking)],
    ['Grease depth', row.greaseDepth === null ? '' : `${row.greaseDepth} cm`],
    ...common,
  ];
}

type PdfImage = { width: number; height: number };

export function createInspectionPdfReport(deps: InspectionPdfDeps) {
  const { db, blobs } = deps;

  async function render(job: ReportJob, control: RenderControl): Promise<ReportOutput> {
    const { cofAlertThreshold: threshold } = snapshotOf(job);
    const params = job.params as { type: 'Service' | 'CoF'; fromDate?: string; toDate?: string; technicianId?: string; order: 'newest' | 'curve' };
    const rows = await readRecords(db, job, params.order);
    const typeName = params.type === 'CoF' ? 'CoF measurement' : 'Service inspection';
    const title = `${typeName} report`;
    const madeBy = `Made by ${job.requester.name} (${job.requester.employeeId}) on ${madeAtText(job.createdAt, deps.appTimeZone)}`;
    const pdf = new PdfReport({ title, reference: `Report ${job.id}`, madeBy, subject: `${title}, ${job.division ?? 'all divisions'}, ${periodText(params.fromDate, params.toDate)}`, author: job.requester.name });
    const finished = (async () => {
      writeCover(pdf, job, rows, { title, madeBy, threshold, params });
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
    about: { title: string; madeBy: string; threshold: number; params: { type: string; fromDate?: string; toDate?: string; technicianId?: string; order: string } },
  ): void {
    const { params } = about;
    pdf.paragraph(about.title, { size: 20, weight: 'bold' }, 2);
    pdf.paragraph(`${job.division ?? 'All divisions'}, ${periodText(params.fromDate, params.toDate)}`, { size: 12, color: COLORS.muted }, 10);
    const technician = params.technicianId ? rows.find((r) => r.technicianId === params.technicianId) : undefined;
    pdf.facts([
      ['Division', job.division ?? 'All divisions'],
      ['Service type', params.type],
      ['Period', periodText(params.fromDate, params.toDate)],
      ['Technician', params.technicianId ? (technician ? `${technician.technicianName} (${params.technicianId})` : params.technicianId) : 'All technicians'],
      ['Records', String(rows.length)],
      ['Order', params.order === 'curve' ? 'By section, curve and line, then date' : 'Newest first (visit date, then time stored)'],
      ['Made by', `${job.requester.name} (${job.requester.employeeId})`],
      ['Made at', madeAtText(job.createdAt, deps.appTimeZone)],
      ['Records up to', madeAtText(snapshotOf(job).until, deps.appTimeZone)],
    ]);
    pdf.paragraph(`Report ID: ${job.id}`, { size: 9, color: COLORS.muted }, 6);
    if (params.type === 'CoF') writeCofFigures(pdf, rows, about.threshold);
    pdf.heading('Records per section');
    const bySection = new PdfTable(pdf, [
      { header: 'Division', weight: 1 },
      { header: 'Section', weight: 2 },
      { header: 'Records', weight: 1, align: 'right' },
    ]);
    for (const [key, n] of countBy(rows, (r) => `${r.divisionRailway}\u0000${r.section}`)) {
      const [division, section] = key.split('\u0000');
      bySection.row([division ?? '', section ?? '', String(n)]);
    }
    pdf.heading('Records per technician');
    const byTechnician = new PdfTable(pdf, [
      { header: 'Technician', weight: 3 },
      { header: 'Employee ID', weight: 1 },
      { header: 'Records', weight: 1, align: 'right' },
    ]);
    for (const [key, n] of countBy(rows, (r) => `${r.technicianName}\u0000${r.technicianId}`)) {
      const [name, id] = key.split('\u0000');
      byTechnician.row([name ?? '', id ?? '', String(n)]);
    }
  }

  function writeCofFigures(pdf: PdfReport, rows: readonly InspectionRow[], threshold: number): void {
    const { readings, mean, lowest, highest, high } = cofFigures(rows, threshold);
    pdf.heading('CoF readings');
    pdf.facts([
      ['Readings', String(readings)],
      ['Mean', mean],
      ['Lowest', lowest],
      ['Highest', highest],
      ['Above threshold', `${high.length} (threshold ${threshold.toFixed(2)}; a reading above it needs follow-up)`],
    ]);
    if (high.length === 0) return;
    pdf.heading(`Readings above ${threshold.toFixed(2)}`, 11);
    const table = new PdfTable(pdf, [
      { header: 'Date', weight: 1.1 },
      { header: 'Section', weight: 1.6 },
      { header: 'Curve', weight: 1 },
      { header: 'Line', weight: 0.8 },
      { header: 'CoF', weight: 0.7, align: 'right' },
      { header: 'Technician', weight: 2 },
      { header: 'Record ID', weight: 2 },
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
    const high = row.type === 'CoF' && isHighReading(row, threshold);
    doc.save().rect(pdf.left, top, pdf.width, BLOCK_TITLE).fill(high ? '#fbe9e7' : COLORS.band).restore();
    const half = pdf.width / 2;
    pdf.text(`${index + 1}. ${row.recordId}`, pdf.left + 4, top + 4, { size: 9, weight: 'bold', width: half });
    pdf.text(`${row.date} · ${row.type}${high ? ` · CoF ${cofText(row.cofValue)} above ${threshold.toFixed(2)}` : ''}`, pdf.left + half, top + 4, {
      size: 9,
      weight: high ? 'bold' : 'regular',
      color: high ? COLORS.alert : COLORS.ink,
      width: half - 4,
      align: 'right',
    });
    const fields = fieldsOf(row, threshold, deps.appTimeZone);
    const fieldRows = Math.ceil(fields.length / FIELD_COLUMNS);
    const fieldsHeight = fieldRows * (FIELD_SIZE + 4.5);
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
      const why = row.imageHash ? 'Photo not available: its file is missing or unreadable in storage' : 'No photo was recorded';
      pdf.text(why, pdf.left, photoTop + photoHeight / 2 - 6, { size: 10, color: COLORS.muted, width: pdf.width, align: 'center' });
    }
    // The fields under the photo, in columns.
    const fieldsTop = photoTop + photoHeight + 6;
    const columnWidth = pdf.width / FIELD_COLUMNS;
    const labelWidth = 74;
    fields.forEach(([label, value], i) => {
      const x = pdf.left + (i % FIELD_COLUMNS) * columnWidth;
      const y = fieldsTop + Math.floor(i / FIELD_COLUMNS) * (FIELD_SIZE + 4.5);
      pdf.text(label, x, y, { size: FIELD_SIZE, color: COLORS.muted, width: labelWidth - 3 });
      const alert = label === 'CoF value' && high;
      pdf.text(value, x + labelWidth, y, { size: FIELD_SIZE, weight: alert ? 'bold' : 'regular', color: alert ? COLORS.alert : COLORS.ink, width: columnWidth - labelWidth - 6 });
    });
    return placed;
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
