/**
 * The three PDF reports (issue 12; docs/functional-requirements.md, 'PDF Reports'), read back with poppler's
 * tools as an officer's viewer would show them: POST /api/reports/generate (the inspections
 * with their photos, two to a page), /sse-table (an SSE's CoF measurements) and
 * /service-table (the Service visits, answered as the PDF itself), their status and download
 * (GET /api/reports/{id}, /api/reports/download/{id} with HTTP Range), who may ask for and see
 * which report, the refused requests, a report reused while the data stands still, and the
 * records fixed at the moment of asking.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MISSING_REPORT_FIELDS,
  PDF_PHOTO_REPORT_MAX_RECORDS,
  type ReportJobResponse,
  reportJobResponseSchema,
  type ReportSummary,
  reportSummarySchema,
} from '../../../common/schemas/reports.js';
import { buildApp } from '../../app.js';
import { reports } from '../../db/schema.js';
import { buildTestApp, TEST_CONFIG, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_FZR, TECHNICIAN, createAndSignIn, errorOf } from '../../test/factories.js';
import { blobPathOf, insertInspectionRows, inspectionRow, type RowPhoto } from '../../test/inspections.js';
import { bi } from '../../test/bilingual.js';
import { pdfFonts, pdfImages, pdfPageCount, pdfPageTexts, pdfText, recordIdsIn } from '../../test/pdf.js';
import { makeJpeg, sha256 } from '../../test/photos.js';
import type { NewInspectionRow } from '../inspections/repository.js';

/** 12:00 in Kolkata on 2026-11-23: when the reports are asked for (and the date in their names). */
const NOW = new Date('2026-11-23T06:30:00Z');
const TODAY = '2026-11-23';
const PDF = 'application/pdf';
/**
 * A technician's name in Devanagari, with the vowel sign ि that is drawn before its consonant:
 * it reads back in its written order only through the ActualText its run carries.
 */
const HINDI_NAME = 'विजय सिंह';
/** Generous: a busy 2-core machine makes these reports, and a test may make several. */
const REPORT_TEST_MS = 120_000;
const SETUP_MS = 120_000;
const DONE_WITHIN_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// Asking for reports and reading them back
// ---------------------------------------------------------------------------------------------

const post = (app: FastifyInstance, url: string, cookie: string | undefined, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, headers: { ...(cookie ? { cookie } : {}), ...headers }, payload });

const statusOf = (app: FastifyInstance, reportId: string, cookie: string) => app.inject({ url: `/api/reports/${reportId}`, headers: { cookie } });

const downloadOf = (app: FastifyInstance, reportId: string, cookie: string, headers: Record<string, string> = {}) =>
  app.inject({ url: `/api/reports/download/${reportId}`, headers: { cookie, ...headers } });

/** Polls GET /api/reports/{id} (as the views do) until the report is done; fails if it failed. */
async function untilDone(app: FastifyInstance, reportId: string, cookie: string): Promise<ReportSummary> {
  const deadline = Date.now() + DONE_WITHIN_MS;
  for (;;) {
    const response = await statusOf(app, reportId, cookie);
    expect(response.statusCode, response.body).toBe(200);
    const summary = reportSummarySchema.parse(response.json());
    if (summary.status === 'done') return summary;
    if (summary.status === 'failed') throw new Error(`report ${reportId} failed: ${summary.error}`);
    if (Date.now() > deadline) throw new Error(`report ${reportId} still ${summary.status} (${summary.progress}%) after ${DONE_WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Asks for a job report (200 when made at once, else 202) and waits until it is done. */
async function makeReport(app: FastifyInstance, url: string, cookie: string, payload: object): Promise<{ job: ReportJobResponse; summary: ReportSummary }> {
  const response = await post(app, url, cookie, payload);
  expect([200, 202], response.body).toContain(response.statusCode);
  const job = reportJobResponseSchema.parse(response.json());
  expect(job.pdfUrl).toBe(`/api/reports/download/${job.reportId}`);
  const summary = await untilDone(app, job.reportId, cookie);
  return { job, summary };
}

/** The finished PDF, as GET /api/reports/download/{id} answers it. */
async function downloadPdf(app: FastifyInstance, reportId: string, cookie: string): Promise<Buffer> {
  const response = await downloadOf(app, reportId, cookie);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe(PDF);
  expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return response.rawPayload;
}

/** The inspection report's pages: the cover, then two records to a page, each under its title line. */
interface InspectionPdf {
  pages: string[];
  coverPages: string[];
  /** The record IDs of each record page, in print order. */
  idsPerRecordPage: string[][];
  /** Each record's block of text (its title line to the next record's), by record ID. */
  blocks: Map<string, string>;
}

const RECORD_TITLE = /^\s*\d+\. (INS-\d{8}-[0-9A-Z]{6})\b/m;

async function readInspectionPdf(bytes: Buffer): Promise<InspectionPdf> {
  const pages = await pdfPageTexts(bytes);
  expect(await pdfPageCount(bytes)).toBe(pages.length);
  const firstRecordPage = pages.findIndex((p) => RECORD_TITLE.test(p));
  expect(firstRecordPage, 'no page holds a record').toBeGreaterThanOrEqual(0);
  const recordPages = pages.slice(firstRecordPage);
  const blocks = new Map<string, string>();
  for (const page of recordPages) {
    const parts = page.split(new RegExp(RECORD_TITLE.source, 'm'));
    // [before the first title, id1, block1, id2, block2, ...]
    for (let i = 1; i < parts.length; i += 2) blocks.set(parts[i] ?? '', parts[i + 1] ?? '');
  }
  return { pages, coverPages: pages.slice(0, firstRecordPage), idsPerRecordPage: recordPages.map(recordIdsIn), blocks };
}

/** `ids` two to a page, as the records are printed. */
const twoToAPage = (ids: readonly string[]) => Array.from({ length: Math.ceil(ids.length / 2) }, (_, i) => ids.slice(2 * i, 2 * i + 2));

/** Every page ends with "पृष्ठ N (कुल M) / Page N of M", M being the count pdfinfo reads. */
function expectPageNumbers(pages: readonly string[]): void {
  pages.forEach((page, i) => expect(page).toContain(`पृष्ठ ${i + 1} (कुल ${pages.length}) / Page ${i + 1} of ${pages.length}`));
}

/** A page's text with its line breaks and runs of spaces as one space: a wrapped cell reads on. */
const squeezed = (text: string) => text.replace(/\s+/g, ' ');

/** Every font is embedded in the file (a viewer without it still shows the text). */
async function expectEmbeddedFonts(bytes: Buffer): Promise<void> {
  const fonts = await pdfFonts(bytes);
  expect(fonts.length).toBeGreaterThan(0);
  expect(fonts.filter((f) => !f.embedded)).toEqual([]);
}

/** The text between two headings of a page, e.g. a cover's table. */
function between(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  expect(from, `no "${start}" in the text`).toBeGreaterThanOrEqual(0);
  const to = text.indexOf(end, from + start.length);
  return text.slice(from + start.length, to < 0 ? undefined : to);
}

/** The line of a table that holds `needle`. */
function lineWith(text: string, needle: string): string {
  const lines = text.split('\n').filter((l) => l.includes(needle));
  expect(lines, `"${needle}" on exactly one line`).toHaveLength(1);
  return lines[0] ?? '';
}

async function storedPhoto(t: TestApp, seed: number): Promise<{ photo: RowPhoto; bytes: Buffer }> {
  const bytes = await makeJpeg(1920, 1080, seed);
  const stored = await t.blobs.put(bytes);
  return { photo: { hash: stored.hash, sizeBytes: stored.sizeBytes, width: 1920, height: 1080 }, bytes };
}

async function reportRowCount(t: TestApp): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(reports);
  return row?.n ?? 0;
}

const cof = (date: string, value: string, overrides: Partial<NewInspectionRow> = {}) => inspectionRow({ type: 'CoF', date, cofValue: value, ...overrides });
const service = (date: string, overrides: Partial<NewInspectionRow> = {}, photo?: RowPhoto) => inspectionRow({ type: 'Service', date, ...overrides }, photo);

// ---------------------------------------------------------------------------------------------

describe('POST /api/reports/generate: the inspections with their photos, two to an A4 page', () => {
  let t: TestApp;
  let admin: string;
  const originals: { hash: string; bytes: Buffer }[] = [];
  /**
   * RTM/WR Service visits: three with photos (oldest first), one with none, one whose photo
   * file is gone, and the oldest, whose stored file is not an image.
   */
  const visits: NewInspectionRow[] = [];
  /** RTM/WR CoF readings: 0.25 (at the threshold), 0.26 (above), 0.10 and 0.31 (above). */
  const readings: NewInspectionRow[] = [];
  /** Not in the RTM/WR reports: another division's visit, another division's reading. */
  const elsewhere: NewInspectionRow[] = [];

  beforeAll(async () => {
    t = await buildTestApp({}, { now: () => NOW });
    const db = t.database.db;
    ({ admin } = await createAndSignIn(t, { admin: { ...ADMIN, employeeId: 'ADMPDF1', name: 'Anita Sharma' } }));
    const photos = [];
    for (const seed of [11, 12, 13]) {
      const { photo, bytes } = await storedPhoto(t, seed);
      photos.push(photo);
      originals.push({ hash: photo.hash, bytes });
    }
    const gone: RowPhoto = { hash: sha256(Buffer.from('a photo that never reached storage')), sizeBytes: 250_000, width: 1920, height: 1080 };
    const garbled = await t.blobs.put(Buffer.from('not a JPEG at all '.repeat(500)));
    const unreadable: RowPhoto = { hash: garbled.hash, sizeBytes: garbled.sizeBytes, width: 1920, height: 1080 };
    visits.push(
      service('2026-11-15', { technicianId: 'TEC77', technicianName: HINDI_NAME }, photos[0]),
      service('2026-11-16', {}, photos[1]),
      service('2026-11-17', { serviceUpdate: 'part-broken', partCategory: 'Pump', partItemName: 'Motor', isMachineWorking: false }, photos[2]),
      service('2026-11-18'),
      service('2026-11-19', {}, gone),
      service('2026-11-14', {}, unreadable),
    );
    readings.push(
      cof('2026-11-10', '0.25', { section: 'RTM-NAD', curveNumber: '30' }),
      cof('2026-11-11', '0.26', { section: 'BEC Bypass', curveNumber: '5' }),
      cof('2026-11-12', '0.10', { section: 'RTM-NAD', curveNumber: '14' }),
      cof('2026-11-13', '0.31', { section: 'JAT-SVDK', curveNumber: '9' }),
    );
    elsewhere.push(
      service('2026-11-18', { divisionRailway: 'FZR/NR', section: 'FZR-JUC', line: 'Single' }),
      cof('2026-11-12', '0.40', { divisionRailway: 'FZR/NR', section: 'FZR-JUC', line: 'Single' }),
    );
    await insertInspectionRows(db, [...visits, ...readings, ...elsewhere]);
  }, SETUP_MS);
  afterAll(() => t?.close());

  const newestFirst = (rows: readonly NewInspectionRow[]) => [...rows].sort((a, b) => b.date.localeCompare(a.date)).map((r) => r.recordId);

  it(
    'prints a cover, then every Service visit once, newest first, two to a page, with one print-size photo per stored photo',
    async () => {
      const { job, summary } = await makeReport(t.app, '/api/reports/generate', admin, { type: 'Service', division: 'RTM/WR', format: 'images' });
      expect(job.recordCount).toBe(visits.length);
      expect(summary).toMatchObject({ kind: 'inspection-pdf', division: 'RTM/WR', recordCount: visits.length, fileName: `Service_Report_RTM-WR_${TODAY}.pdf` });
      const bytes = await downloadPdf(t.app, job.reportId, admin);
      const pdf = await readInspectionPdf(bytes);

      // 1 cover page (or more), then ceil(6 / 2) = 3 record pages, each record exactly once.
      expect(pdf.coverPages.length).toBeGreaterThanOrEqual(1);
      expect(pdf.pages.length).toBe(pdf.coverPages.length + Math.ceil(visits.length / 2));
      const order = newestFirst(visits);
      expect(pdf.idsPerRecordPage).toEqual(twoToAPage(order));
      expect(recordIdsIn(pdf.coverPages.join('\n'))).toEqual([]);
      expectPageNumbers(pdf.pages);
      for (const other of [...readings, ...elsewhere]) expect(pdf.pages.join('\n')).not.toContain(other.recordId);

      // The cover's fixed texts in Hindi, then English (pdftotext reads the Hindi back as written).
      const cover = pdf.coverPages.join('\n');
      expect(cover).toMatch(/^\s*सर्विस निरीक्षण रिपोर्ट \/ Service inspection report\s*$/m);
      expect(cover).toMatch(/रिकॉर्ड \/ Records\s+6\b/);
      expect(squeezed(cover)).toContain('नवीनतम पहले (विज़िट की दिनांक, फिर दर्ज करने का समय) / Newest first (visit date, then time stored)');
      expect(cover).toContain(`रिपोर्ट ID / Report ID: ${job.reportId}`);
      expect(cover).toMatch(/तैयारकर्ता \/ Made by\s+Anita Sharma \(ADMPDF1\)/);
      expect(cover).toContain('खंडवार रिकॉर्ड / Records per section');
      expect(cover).toContain('तकनीशियनवार रिकॉर्ड / Records per technician');

      // One image per stored photo, on the pages of their records, each a JPEG at most 1200 px
      // wide in the photo's proportions.
      const images = await pdfImages(bytes);
      expect(images).toHaveLength(3);
      const pageOf = (recordId: string) => pdf.coverPages.length + 1 + Math.floor(order.indexOf(recordId) / 2);
      expect(images.map((i) => i.page)).toEqual([visits[2], visits[1], visits[0]].map((v) => pageOf(v?.recordId ?? '')));
      expect(new Set(images.map((i) => i.objectId)).size).toBe(3);
      for (const image of images) {
        expect(image).toMatchObject({ type: 'image', encoding: 'jpeg' });
        expect(image.width).toBeLessThanOrEqual(1200);
        expect(image.width).toBeGreaterThanOrEqual(600);
        expect(image.height / image.width).toBeCloseTo(1080 / 1920, 2);
      }

      // A record without a photo is still printed, saying why there is none.
      const [withoutPhoto, withGonePhoto, withUnreadablePhoto] = [visits[3]?.recordId ?? '', visits[4]?.recordId ?? '', visits[5]?.recordId ?? ''];
      expect(pdf.blocks.get(withGonePhoto)).toContain('फ़ोटो उपलब्ध नहीं: इसकी फ़ाइल स्टोरेज में नहीं है या पढ़ी नहीं जा सकती');
      expect(pdf.blocks.get(withGonePhoto)).toContain('Photo not available: its file is missing or unreadable in storage');
      expect(pdf.blocks.get(withUnreadablePhoto)).toContain('Photo not available');
      expect(pdf.blocks.get(withoutPhoto)).toContain('कोई फ़ोटो दर्ज नहीं की गई');
      expect(pdf.blocks.get(withoutPhoto)).toContain('No photo was recorded');
      for (const visit of visits.slice(0, 3)) {
        expect(pdf.blocks.get(visit.recordId)).not.toMatch(/Photo not available|No photo was recorded/);
      }
      // The fields under the photo.
      const broken = pdf.blocks.get(visits[2]?.recordId ?? '') ?? '';
      // Labels in both languages; the record's values as stored.
      expect(broken).toMatch(/सर्विस अपडेट \/ Service update\s+Part broken/);
      expect(broken).toMatch(/पुर्जा \/ Part\s+Pump – Motor/);
      expect(broken).toMatch(/मशीन काम कर रही है \/ Machine working\s+No/);
      expect(broken).toMatch(/ग्रीस की गहराई \/ Grease depth\s+3\.5 cm/);

      // The stored originals are untouched: the same bytes under the same sha256.
      for (const original of originals) {
        const onDisk = await readFile(blobPathOf(t, original.hash));
        expect(sha256(onDisk)).toBe(original.hash);
        expect(onDisk.equals(original.bytes)).toBe(true);
      }
    },
    REPORT_TEST_MS,
  );

  it(
    "prints a Devanagari technician's name with embedded fonts only",
    async () => {
      const { job } = await makeReport(t.app, '/api/reports/generate', admin, { type: 'Service', division: 'RTM/WR', technicianId: 'TEC77' });
      expect(job.recordCount).toBe(1);
      const bytes = await downloadPdf(t.app, job.reportId, admin);
      const pdf = await readInspectionPdf(bytes);
      expect(pdf.idsPerRecordPage).toEqual([[visits[0]?.recordId]]);
      expect(pdf.coverPages.join('\n')).toMatch(new RegExp(`तकनीशियन / Technician\\s+${HINDI_NAME} \\(TEC77\\)`));
      expect(pdf.blocks.get(visits[0]?.recordId ?? '')).toContain(`${HINDI_NAME} (TEC77)`);
      await expectEmbeddedFonts(bytes);
    },
    REPORT_TEST_MS,
  );

  it(
    'states the CoF mean, lowest and highest on the cover and lists the readings above the threshold (0.25 is not above, 0.26 is)',
    async () => {
      const { job } = await makeReport(t.app, '/api/reports/generate', admin, { type: 'CoF', division: 'RTM/WR' });
      expect(job.recordCount).toBe(readings.length);
      const bytes = await downloadPdf(t.app, job.reportId, admin);
      const pdf = await readInspectionPdf(bytes);
      expect(pdf.idsPerRecordPage).toEqual(twoToAPage(newestFirst(readings)));
      expect(pdf.pages.length).toBe(pdf.coverPages.length + 2);
      expectPageNumbers(pdf.pages);

      const cover = pdf.coverPages.join('\n');
      expect(cover).toContain('CoF माप रिपोर्ट / CoF measurement report');
      // (0.25 + 0.26 + 0.10 + 0.31) / 4 = 0.23
      expect(cover).toMatch(/रीडिंग \/ Readings\s+4\b/);
      expect(cover).toMatch(/औसत \/ Mean\s+0\.230\b/);
      expect(cover).toMatch(/न्यूनतम \/ Lowest\s+0\.10\b/);
      expect(cover).toMatch(/अधिकतम \/ Highest\s+0\.31\b/);
      expect(cover).toMatch(/सीमा से ऊपर \/ Above threshold\s+2 \(सीमा 0\.25;/);
      expect(squeezed(cover)).toContain('/ 2 (threshold 0.25; a reading above it needs follow-up)');
      const [atThreshold, justAbove, low, high] = readings.map((r) => r.recordId);
      const aboveTable = between(cover, '0.25 से ऊपर की रीडिंग / Readings above 0.25', 'खंडवार रिकॉर्ड / Records per section');
      expect(recordIdsIn(aboveTable).sort()).toEqual([justAbove, high].sort());
      expect(lineWith(aboveTable, justAbove ?? '')).toMatch(/BEC Bypass\s+5\s+Up\s+0\.26\b/);

      // Each record's own block marks it too.
      expect(pdf.blocks.get(justAbove ?? '')).toMatch(/CoF मान \/ CoF value\s+0\.26\s+0\.25 से ऊपर \/ ABOVE 0\.25/);
      expect(pdf.blocks.get(high ?? '')).toMatch(/CoF value\s+0\.31\s+0\.25 से ऊपर \/ ABOVE 0\.25/);
      expect(pdf.blocks.get(high ?? '')).toMatch(/CoF 0\.31 0\.25 से ऊपर \/ above 0\.25/);
      expect(pdf.blocks.get(atThreshold ?? '')).toMatch(/CoF value\s+0\.25\b/);
      expect(pdf.blocks.get(atThreshold ?? '')).not.toMatch(/ABOVE|above/);
      expect(pdf.blocks.get(low ?? '')).not.toMatch(/ABOVE|above/);
      // No photos were stored: every record says so, and the file holds no image.
      for (const id of [atThreshold, justAbove, low, high]) expect(pdf.blocks.get(id ?? '')).toContain('No photo was recorded');
      expect(await pdfImages(bytes)).toEqual([]);
    },
    REPORT_TEST_MS,
  );

  it(
    'prints the records by section, curve and line when asked for the curve order, and says so',
    async () => {
      const { job } = await makeReport(t.app, '/api/reports/generate', admin, { type: 'CoF', division: 'RTM/WR', order: 'curve' });
      const pdf = await readInspectionPdf(await downloadPdf(t.app, job.reportId, admin));
      const [r0025, r0026, r0010, r0031] = readings.map((r) => r.recordId);
      // BEC Bypass 5, JAT-SVDK 9, RTM-NAD 14, RTM-NAD 30.
      expect(pdf.idsPerRecordPage).toEqual([
        [r0026, r0031],
        [r0010, r0025],
      ]);
      expect(squeezed(pdf.coverPages.join('\n'))).toContain('खंड, कर्व और लाइन के क्रम में, फिर दिनांक के अनुसार / By section, curve and line, then date');
    },
    REPORT_TEST_MS,
  );

  it(
    'downloads with its dated name, Content-Length and Accept-Ranges, and answers a Range with exactly those bytes (206)',
    async () => {
      const { job, summary } = await makeReport(t.app, '/api/reports/generate', admin, { type: 'Service', division: 'RTM/WR' });
      const full = await downloadOf(t.app, job.reportId, admin);
      expect(full.statusCode).toBe(200);
      expect(full.headers['content-disposition']).toBe(`attachment; filename="Service_Report_RTM-WR_${TODAY}.pdf"`);
      expect(full.headers['accept-ranges']).toBe('bytes');
      expect(Number(full.headers['content-length'])).toBe(full.rawPayload.length);
      expect(summary.fileSizeBytes).toBe(full.rawPayload.length);
      expect(full.rawPayload.length).toBeGreaterThan(1000);

      const part = await downloadOf(t.app, job.reportId, admin, { range: 'bytes=100-199' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-199/${full.rawPayload.length}`);
      expect(Number(part.headers['content-length'])).toBe(100);
      expect(part.rawPayload.equals(full.rawPayload.subarray(100, 200))).toBe(true);

      // The rest of a cut download: from byte 200 to the end.
      const rest = await downloadOf(t.app, job.reportId, admin, { range: 'bytes=200-' });
      expect(rest.statusCode).toBe(206);
      expect(Buffer.concat([full.rawPayload.subarray(0, 200), rest.rawPayload]).equals(full.rawPayload)).toBe(true);
    },
    REPORT_TEST_MS,
  );
});

// ---------------------------------------------------------------------------------------------

describe('the table PDFs', () => {
  let t: TestApp;
  let admin: string;
  /** SSE/P.Way/NAD's RTM/WR readings, oldest first. */
  const nad: NewInspectionRow[] = [];
  /** Not that SSE's, not CoF, or not RTM/WR. */
  const notNad: NewInspectionRow[] = [];
  /** BRC/WR Service visits, each on its own curve so every row can be told apart. */
  const visits: NewInspectionRow[] = [];
  /** Not BRC/WR Service visits. */
  const notVisits: NewInspectionRow[] = [];

  beforeAll(async () => {
    t = await buildTestApp({}, { now: () => NOW });
    ({ admin } = await createAndSignIn(t, { admin: { ...ADMIN, employeeId: 'ADMTAB1' } }));
    nad.push(
      cof('2026-11-02', '0.25', { railwayEngineer: 'SSE/P.Way/NAD', curveNumber: '12', km: '611/2' }),
      cof('2026-11-09', '0.26', { railwayEngineer: 'SSE/P.Way/NAD', curveNumber: '12', km: '611/2' }),
      cof('2026-11-16', '0.12', { railwayEngineer: 'SSE/P.Way/NAD', curveNumber: '18', km: '614/8' }),
    );
    notNad.push(
      cof('2026-11-10', '0.40', { railwayEngineer: 'SSE/P.Way/RTM' }),
      cof('2026-11-10', '0.20', { railwayEngineer: 'SSE/P.Way/NAD', divisionRailway: 'FZR/NR', section: 'FZR-JUC', line: 'Single' }),
      service('2026-11-10', { railwayEngineer: 'SSE/P.Way/NAD' }),
    );
    const atBrc = { divisionRailway: 'BRC/WR', section: 'BRC-GDA', railwayEngineer: 'SSE/P.Way/GDA' };
    visits.push(
      service('2026-11-03', { ...atBrc, curveNumber: 'C-101', technicianId: 'TEC77', technicianName: HINDI_NAME, greaseDepth: '4.5' }),
      service('2026-11-05', { ...atBrc, curveNumber: 'C-102', technicianId: 'TEC2', technicianName: 'Suresh Patel', serviceUpdate: 'part-broken', partCategory: 'Pump', partItemName: 'Motor', isMachineWorking: false, greaseDepth: '1.5' }),
      service('2026-11-07', { ...atBrc, curveNumber: 'C-103', technicianId: 'TEC2', technicianName: 'Suresh Patel', railwayEngineer: 'SSE/P.Way/VDA', greaseDepth: '2.5' }),
    );
    notVisits.push(service('2026-11-04', { curveNumber: 'C-901' }), cof('2026-11-04', '0.20', { ...atBrc, curveNumber: 'C-902' }));
    await insertInspectionRows(t.database.db, [...nad, ...notNad, ...visits, ...notVisits]);
  }, SETUP_MS);
  afterAll(() => t?.close());

  describe('POST /api/reports/sse-table: one SSE’s CoF measurements', () => {
    it(
      "holds only that SSE's readings (named in any case), marks those above 0.25 HIGH, and draws the charts after the table",
      async () => {
        const { job, summary } = await makeReport(t.app, '/api/reports/sse-table', admin, { division: 'RTM/WR', sseEngineer: 'sse/p.way/nad', fromDate: '2026-11-01', toDate: '2026-11-30' });
        expect(job.recordCount).toBe(3);
        expect(summary).toMatchObject({ kind: 'sse-cof-pdf', division: 'RTM/WR', recordCount: 3 });
        expect(summary.fileName).toMatch(new RegExp(`^SSE_CoF_Report_RTM-WR_.*${TODAY}\\.pdf$`));
        const bytes = await downloadPdf(t.app, job.reportId, admin);
        const pages = await pdfPageTexts(bytes);
        expect(await pdfPageCount(bytes)).toBe(pages.length);
        expectPageNumbers(pages);
        const text = pages.join('\n');

        // Every record once, oldest first; no one else's.
        expect(recordIdsIn(text)).toEqual(nad.map((r) => r.recordId));
        for (const other of notNad) expect(text).not.toContain(other.recordId);

        const [atThreshold, above, low] = nad.map((r) => lineWith(text, r.recordId ?? ''));
        expect(above).toMatch(/2026-11-09\s+RTM-NAD\s+12\s+Up\s+Near End\s+611\/2\s+18 – 20\s+0\.26 HIGH\s+Ravi Meena/);
        expect(atThreshold).toMatch(/\b0\.25\s+Ravi Meena/);
        expect(atThreshold).not.toContain('HIGH');
        expect(low).not.toContain('HIGH');

        // The cover: (0.25 + 0.26 + 0.12) / 3 = 0.21.
        expect(text).toMatch(/माप \/ Measurements\s+3\b/);
        expect(text).toMatch(/0\.210 \/ 0\.12 \/ 0\.26/);
        expect(text).toMatch(/सीमा से ऊपर \/ Above threshold\s+1 \(0\.25 से ऊपर/);
        expect(squeezed(text)).toContain('/ 1 (above 0.25, marked in bold red with "HIGH")');
        // The column titles, in both languages; a long one wraps within its cell.
        const header = between(text, 'माप, सबसे पुराने पहले / Measurements, oldest first', '2026-11-02');
        for (const column of ['Date', 'Section', 'Curve', 'Km', 'Poles', 'Technician', 'Record ID']) expect(header).toContain(bi(column));
        for (const column of ['लाइन /', 'Line', 'स्थान /', 'Location', 'CoF']) expect(header).toContain(column);
        // One chart per curve: RTM-NAD 12 (two readings) and RTM-NAD 18 (one).
        expect(text).toContain('समय के साथ CoF, कर्ववार (डैश रेखा: सीमा 0.25) / CoF over time, by curve (dashed line: threshold 0.25)');
        expect(text).toContain('RTM-NAD, curve 12, Up (2)');
        expect(text).toContain('RTM-NAD, curve 18, Up (1)');
        await expectEmbeddedFonts(bytes);
      },
      REPORT_TEST_MS,
    );
  });

  describe('POST /api/reports/service-table: the Service visits, answered as the PDF itself', () => {
    const serviceTable = (payload: object, headers: Record<string, string> = {}) => post(t.app, '/api/reports/service-table', admin, payload, headers);

    it(
      'answers the PDF itself with a dated attachment name and its report ID: every visit once, newest first, in the columns asked for',
      async () => {
        const response = await serviceTable({ division: 'BRC/WR', fromDate: '2026-11-01', toDate: '2026-11-30' });
        expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
        expect(response.headers['content-type']).toBe(PDF);
        expect(response.headers['content-disposition']).toBe(`attachment; filename="Service_Table_BRC-WR_${TODAY}.pdf"`);
        expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
        const reportId = String(response.headers['x-report-id']);
        expect(reportSummarySchema.parse((await statusOf(t.app, reportId, admin)).json())).toMatchObject({ kind: 'service-table-pdf', status: 'done', recordCount: 3 });

        const bytes = response.rawPayload;
        const pages = await pdfPageTexts(bytes);
        expect(await pdfPageCount(bytes)).toBe(pages.length);
        expectPageNumbers(pages);
        const text = pages.join('\n');
        expect(text).toMatch(/सर्विस विज़िट \/ Service visits\s+3\b/);

        // The columns: date, section, curve, line, service update, part, grease depth, machine working,
        // technician, each in both languages; a long title wraps within its cell.
        const header = between(text, 'सर्विस विज़िट, नवीनतम पहले / Service visits, newest first', '2026-11-07');
        for (const column of ['Date', 'Section', 'Curve', 'Technician']) expect(header).toContain(bi(column));
        for (const column of ['लाइन /', 'Line', 'सर्विस अपडेट /', 'Service update', 'पुर्जा (श्रेणी – नाम) / Part (category –', 'item)', 'ग्रीस की गहराई', 'Grease', 'depth (cm)', 'मशीन काम कर', 'Machine', 'working']) {
          expect(header).toContain(column);
        }
        // Every visit on one row, newest first; nothing of another division or type (C-901, C-902).
        const curveOrder = [...text.matchAll(/C-\d{3}/g)].map((m) => m[0]);
        expect(curveOrder).toEqual(['C-103', 'C-102', 'C-101']);
        expect(lineWith(text, 'C-102')).toMatch(/2026-11-05\s+BRC-GDA\s+C-102\s+Up\s+Part broken\s+Pump – Motor\s+1\.5\s+No\s+Suresh Patel \(TEC2\)/);
        expect(lineWith(text, 'C-103')).toMatch(/2026-11-07\s+BRC-GDA\s+C-103\s+Up\s+Working fine\s+2\.5\s+Yes\s+Suresh Patel \(TEC2\)/);
        expect(lineWith(text, 'C-101')).toMatch(new RegExp(`2026-11-03\\s+BRC-GDA\\s+C-101\\s+Up\\s+Working fine\\s+4\\.5\\s+Yes\\s+${HINDI_NAME} \\(TEC77\\)`));
        expect(text).toMatch(/कार्रवाई आवश्यक \/ Needing\s+1 \(पुर्जा टूटा/);
        expect(squeezed(text)).toContain('/ 1 (a part broken or stolen, or the machine not working: marked in bold red)');
        await expectEmbeddedFonts(bytes);
      },
      REPORT_TEST_MS,
    );

    it(
      'narrows to one technician or to one SSE',
      async () => {
        const byTechnician = await serviceTable({ division: 'BRC/WR', technician: 'TEC77' });
        expect(byTechnician.statusCode).toBe(200);
        expect(byTechnician.headers['content-disposition']).toBe(`attachment; filename="Service_Table_BRC-WR_TEC77_${TODAY}.pdf"`);
        const technicianText = await pdfText(byTechnician.rawPayload);
        expect([...technicianText.matchAll(/C-\d{3}/g)].map((m) => m[0])).toEqual(['C-101']);
        expect(technicianText).toMatch(new RegExp(`तकनीशियन / Technician\\s+${HINDI_NAME} \\(TEC77\\)`));

        const bySse = await serviceTable({ division: 'BRC/WR', sseEngineer: 'SSE/P.WAY/VDA' });
        expect(bySse.statusCode).toBe(200);
        expect([...(await pdfText(bySse.rawPayload)).matchAll(/C-\d{3}/g)].map((m) => m[0])).toEqual(['C-103']);
      },
      REPORT_TEST_MS,
    );

    it(
      'answers the job instead with Prefer: respond-async, the same report as the PDF asked without it',
      async () => {
        const payload = { division: 'BRC/WR', fromDate: '2026-11-01', toDate: '2026-11-06' };
        const direct = await serviceTable(payload);
        expect(direct.statusCode).toBe(200);
        const asJob = await serviceTable(payload, { prefer: 'respond-async' });
        expect([200, 202]).toContain(asJob.statusCode);
        expect(asJob.headers['content-type']).toMatch(/^application\/json/);
        const job = reportJobResponseSchema.parse(asJob.json());
        expect(job).toMatchObject({ reportId: String(direct.headers['x-report-id']), recordCount: 2 });
        await untilDone(t.app, job.reportId, admin);
        expect((await downloadPdf(t.app, job.reportId, admin)).equals(direct.rawPayload)).toBe(true);
      },
      REPORT_TEST_MS,
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('who may ask for and see which report', () => {
  let t: TestApp;
  let admin: string;
  let clientFzr: string;
  let technician: string;
  const rtm: NewInspectionRow[] = [];
  const fzr: NewInspectionRow[] = [];
  let adminRtmReport: string;

  beforeAll(async () => {
    t = await buildTestApp({}, { now: () => NOW });
    const db = t.database.db;
    ({ admin, clientFzr, technician } = await createAndSignIn(t, {
      admin: { ...ADMIN, employeeId: 'ADMACC1' },
      clientFzr: { ...CLIENT_FZR, employeeId: 'CLIFZR1' },
      technician: { ...TECHNICIAN, employeeId: 'TECACC1' },
    }));
    rtm.push(service('2026-11-10', { curveNumber: 'R-11' }), service('2026-11-11', { curveNumber: 'R-12' }), cof('2026-11-12', '0.22', { curveNumber: 'R-13' }));
    const atFzr = { divisionRailway: 'FZR/NR', section: 'FZR-JUC', line: 'Single' as const, railwayEngineer: 'SSE/P.Way/NAD' };
    fzr.push(service('2026-11-10', { ...atFzr, curveNumber: 'F-21' }), service('2026-11-13', { ...atFzr, curveNumber: 'F-22' }), cof('2026-11-12', '0.30', { ...atFzr, curveNumber: 'F-23' }));
    await insertInspectionRows(db, [...rtm, ...fzr]);
    adminRtmReport = (await makeReport(t.app, '/api/reports/generate', admin, { type: 'Service', division: 'RTM/WR' })).job.reportId;
  }, SETUP_MS);
  afterAll(() => t?.close());

  const ids = (rows: readonly NewInspectionRow[], type: string) => rows.filter((r) => r.type === type).map((r) => r.recordId);

  it(
    "holds a Client to their division's records whatever division they ask for",
    async () => {
      const { job, summary } = await makeReport(t.app, '/api/reports/generate', clientFzr, { type: 'Service', division: 'RTM/WR' });
      expect(job.recordCount).toBe(2);
      expect(summary.division).toBe('FZR/NR');
      expect(summary.params).toMatchObject({ division: 'FZR/NR' });
      const text = (await readInspectionPdf(await downloadPdf(t.app, job.reportId, clientFzr))).pages.join('\n');
      expect(recordIdsIn(text).sort()).toEqual(ids(fzr, 'Service').sort());
      for (const id of ids(rtm, 'Service')) expect(text).not.toContain(id);
      expect(text).not.toContain('RTM/WR');

      const sse = await makeReport(t.app, '/api/reports/sse-table', clientFzr, { division: 'RTM/WR', sseEngineer: 'SSE/P.Way/NAD' });
      expect(sse.summary.division).toBe('FZR/NR');
      const sseText = await pdfText(await downloadPdf(t.app, sse.job.reportId, clientFzr));
      expect(recordIdsIn(sseText)).toEqual(ids(fzr, 'CoF'));

      const table = await post(t.app, '/api/reports/service-table', clientFzr, { division: 'all' });
      expect(table.statusCode, table.body.slice(0, 300)).toBe(200);
      const tableText = await pdfText(table.rawPayload);
      expect([...tableText.matchAll(/[RF]-\d\d/g)].map((m) => m[0])).toEqual(['F-22', 'F-21']);
      expect(tableText).not.toContain('RTM');
    },
    REPORT_TEST_MS,
  );

  it(
    "answers a Client 404 for another division's report, its status and its file alike, and lets them download their own",
    async () => {
      for (const response of [await statusOf(t.app, adminRtmReport, clientFzr), await downloadOf(t.app, adminRtmReport, clientFzr), await downloadOf(t.app, adminRtmReport, clientFzr, { range: 'bytes=0-99' })]) {
        expect(response.statusCode).toBe(404);
        expect(errorOf(response).code).toBe('NOT_FOUND');
        expect(response.body).not.toContain('%PDF');
      }
      const everyDivision = (await makeReport(t.app, '/api/reports/generate', admin, { type: 'Service', division: 'all' })).job.reportId;
      expect((await statusOf(t.app, everyDivision, clientFzr)).statusCode).toBe(404);
      expect((await downloadOf(t.app, everyDivision, clientFzr)).statusCode).toBe(404);
      // The Admin sees both.
      expect((await downloadOf(t.app, adminRtmReport, admin)).statusCode).toBe(200);
      expect((await downloadOf(t.app, everyDivision, admin)).statusCode).toBe(200);

      const own = await makeReport(t.app, '/api/reports/generate', clientFzr, { type: 'CoF', division: 'FZR/NR' });
      expect(recordIdsIn(await pdfText(await downloadPdf(t.app, own.job.reportId, clientFzr)))).toContain(fzr[2]?.recordId);
    },
    REPORT_TEST_MS,
  );

  it(
    'refuses a Technician (403) on every report endpoint, and a signed-out caller (401)',
    async () => {
      const before = await reportRowCount(t);
      const calls = (cookie: string | undefined) => [
        post(t.app, '/api/reports/generate', cookie, { type: 'Service', division: 'RTM/WR' }),
        post(t.app, '/api/reports/sse-table', cookie, { division: 'RTM/WR' }),
        post(t.app, '/api/reports/service-table', cookie, { division: 'RTM/WR' }),
        post(t.app, '/api/reports/service-table', cookie, { division: 'RTM/WR' }, { prefer: 'respond-async' }),
        t.app.inject({ url: `/api/reports/${adminRtmReport}`, headers: cookie ? { cookie } : {} }),
        t.app.inject({ url: `/api/reports/download/${adminRtmReport}`, headers: cookie ? { cookie } : {} }),
      ];
      for (const response of await Promise.all(calls(technician))) {
        expect(response.statusCode, response.body.slice(0, 200)).toBe(403);
        expect(errorOf(response).code).toBe('FORBIDDEN');
      }
      for (const response of await Promise.all(calls(undefined))) expect(response.statusCode).toBe(401);
      expect(await reportRowCount(t)).toBe(before);
    },
    REPORT_TEST_MS,
  );
});

// ---------------------------------------------------------------------------------------------

describe('refused report requests', () => {
  let t: TestApp;
  let admin: string;
  const ENDPOINTS = ['/api/reports/generate', '/api/reports/sse-table', '/api/reports/service-table'] as const;
  /** What each endpoint needs besides dates. */
  const base = { '/api/reports/generate': { type: 'Service' }, '/api/reports/sse-table': {}, '/api/reports/service-table': {} } as const;

  beforeAll(async () => {
    t = await buildTestApp({}, { now: () => NOW });
    ({ admin } = await createAndSignIn(t, { admin: { ...ADMIN, employeeId: 'ADMREF1' } }));
    // One more Service visit (without photos) than one photo report holds.
    const many = Array.from({ length: PDF_PHOTO_REPORT_MAX_RECORDS + 1 }, (_, i) =>
      service(`2026-10-${String((i % 28) + 1).padStart(2, '0')}`, { divisionRailway: 'JBP/WCR', section: 'JBP-KTE', curveNumber: String(i) }),
    );
    await insertInspectionRows(t.database.db, [...many, cof('2026-11-10', '0.20')]);
  }, SETUP_MS);
  afterAll(() => t?.close());

  it('asks for both Division and Service Type before making an inspection report (400)', async () => {
    for (const payload of [{ division: 'RTM/WR' }, { type: 'Service' }, {}, { type: 'Service', division: '' }, { type: '', division: 'RTM/WR' }]) {
      const response = await post(t.app, '/api/reports/generate', admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const error = errorOf(response);
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.message, JSON.stringify(payload)).toContain(MISSING_REPORT_FIELDS);
    }
    expect(await reportRowCount(t)).toBe(0);
  });

  it('refuses a period that ends before it starts (naming toDate) and a date that is not one (400)', async () => {
    for (const url of ENDPOINTS) {
      const backwards = await post(t.app, url, admin, { ...base[url], division: 'RTM/WR', fromDate: '2026-11-20', toDate: '2026-11-10' });
      expect(backwards.statusCode, url).toBe(400);
      expect(errorOf(backwards).fields, url).toHaveProperty('toDate');
      expect(errorOf(backwards).message).toContain('toDate');
      for (const fromDate of ['2026-02-30', 'yesterday', '20/11/2026']) {
        const bad = await post(t.app, url, admin, { ...base[url], division: 'RTM/WR', fromDate });
        expect(bad.statusCode, `${url} ${fromDate}`).toBe(400);
        expect(errorOf(bad).fields, `${url} ${fromDate}`).toHaveProperty('fromDate');
      }
    }
    const unknownDivision = await post(t.app, '/api/reports/sse-table', admin, { division: 'XYZ/ZZ' });
    expect(unknownDivision.statusCode).toBe(400);
    expect(await reportRowCount(t)).toBe(0);
  });

  it('answers 404 NO_RECORDS when nothing matches, on each kind', async () => {
    for (const url of ENDPOINTS) {
      const response = await post(t.app, url, admin, { ...base[url], division: 'NDLS/NR' });
      expect(response.statusCode, url).toBe(404);
      expect(errorOf(response).code).toBe('NO_RECORDS');
    }
    // Records exist, but none in the period.
    const outside = await post(t.app, '/api/reports/sse-table', admin, { division: 'RTM/WR', fromDate: '2026-11-11' });
    expect(outside.statusCode).toBe(404);
    expect(errorOf(outside).code).toBe('NO_RECORDS');
    expect(await reportRowCount(t)).toBe(0);
  });

  it(`refuses an inspection report of more than ${PDF_PHOTO_REPORT_MAX_RECORDS} records (422), naming how many matched`, async () => {
    const response = await post(t.app, '/api/reports/generate', admin, { type: 'Service', division: 'JBP/WCR' });
    expect(response.statusCode).toBe(422);
    const error = errorOf(response);
    expect(error.code).toBe('REPORT_TOO_LARGE');
    expect(error.message).toMatch(/2,?001/);
    expect(await reportRowCount(t)).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------

describe('a report is fixed when asked for, and reused while the data stands still', () => {
  let clock = NOW;
  let t: TestApp;
  /** A second instance on the same database and blob store: the one whose worker makes the reports. */
  let worker: FastifyInstance | undefined;
  let admin: string;

  beforeAll(async () => {
    // This instance makes no reports itself: what it queues waits for the second instance.
    t = await buildTestApp({ reportWorkers: 0 }, { now: () => clock });
    ({ admin } = await createAndSignIn(t, { admin: { ...ADMIN, employeeId: 'ADMFIX1' } }));
  }, SETUP_MS);
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });

  async function startWorkerInstance(): Promise<FastifyInstance> {
    if (!worker) {
      worker = await buildApp({ config: { ...TEST_CONFIG, reportWorkers: 1 }, database: t.database, blobs: t.blobs, webRoot: path.join(os.tmpdir(), 'hkmi-no-web'), now: () => clock });
      await worker.ready();
    }
    return worker;
  }

  it(
    'leaves out records stored after the report was asked for, even when it is made later',
    async () => {
      const before = [service('2026-11-20', { technicianId: 'TECFIX1' }), service('2026-11-21', { technicianId: 'TECFIX1' })];
      await insertInspectionRows(t.database.db, before);
      const asked = await post(t.app, '/api/reports/generate', admin, { type: 'Service', division: 'RTM/WR', technicianId: 'TECFIX1' });
      expect(asked.statusCode, asked.body).toBe(202);
      const job = reportJobResponseSchema.parse(asked.json());
      expect(job).toMatchObject({ status: 'queued', recordCount: 2 });

      // A phone syncs a visit of the same day a minute later, before any worker made the report.
      const late = service('2026-11-21', { technicianId: 'TECFIX1', submittedAt: new Date(clock.getTime() + 60_000) });
      await insertInspectionRows(t.database.db, [late]);
      clock = new Date(clock.getTime() + 5 * 60_000);

      const other = await startWorkerInstance();
      const summary = await untilDone(t.app, job.reportId, admin);
      expect(summary.recordCount).toBe(2);
      const pdf = await readInspectionPdf(await downloadPdf(other, job.reportId, admin));
      expect(pdf.idsPerRecordPage).toEqual([[before[1]?.recordId, before[0]?.recordId]]);
      expect(pdf.pages.join('\n')).not.toContain(late.recordId);
      expect(pdf.coverPages.join('\n')).toMatch(/रिकॉर्ड \/ Records\s+2\b/);
    },
    REPORT_TEST_MS,
  );

  it(
    'queues one report when the same request arrives several times at once (a double tap)',
    async () => {
      await insertInspectionRows(t.database.db, [service('2026-11-20', { technicianId: 'TECFIX3' })]);
      const rowsBefore = await reportRowCount(t);
      // This instance makes no reports, so all four see the job unfinished: only the unique
      // index on unfinished jobs keeps them from queuing four.
      const answers = await Promise.all(Array.from({ length: 4 }, () => post(t.app, '/api/reports/generate', admin, { type: 'Service', division: 'RTM/WR', technicianId: 'TECFIX3' })));
      const ids = answers.map((answer) => reportJobResponseSchema.parse(answer.json()).reportId);
      expect(new Set(ids).size).toBe(1);
      expect(await reportRowCount(t)).toBe(rowsBefore + 1);
    },
    REPORT_TEST_MS,
  );

  it(
    'answers the same report for the same request on the same data, and a new one once a record is added',
    async () => {
      const app = await startWorkerInstance();
      await insertInspectionRows(t.database.db, [cof('2026-11-20', '0.21', { technicianId: 'TECFIX2' }), cof('2026-11-21', '0.22', { technicianId: 'TECFIX2' })]);
      const request = { type: 'CoF', division: 'RTM/WR', technicianId: 'TECFIX2' };
      const first = await makeReport(app, '/api/reports/generate', admin, request);
      const rowsAfterFirst = await reportRowCount(t);

      const again = await post(app, '/api/reports/generate', admin, request);
      expect(again.statusCode).toBe(200);
      expect(reportJobResponseSchema.parse(again.json())).toMatchObject({ reportId: first.job.reportId, status: 'done', recordCount: 2 });
      expect(await reportRowCount(t)).toBe(rowsAfterFirst);
      const summaryAgain = reportSummarySchema.parse((await statusOf(app, first.job.reportId, admin)).json());
      expect(summaryAgain.createdAt).toBe(first.summary.createdAt);

      const added = cof('2026-11-22', '0.27', { technicianId: 'TECFIX2', submittedAt: new Date(clock.getTime() - 60_000) });
      await insertInspectionRows(t.database.db, [added]);
      const second = await makeReport(app, '/api/reports/generate', admin, request);
      expect(second.job.reportId).not.toBe(first.job.reportId);
      expect(second.job.recordCount).toBe(3);
      expect(recordIdsIn((await readInspectionPdf(await downloadPdf(app, second.job.reportId, admin))).idsPerRecordPage.flat().join(' '))).toContain(added.recordId);
      // The first report is still the file it was.
      expect((await readInspectionPdf(await downloadPdf(app, first.job.reportId, admin))).pages.join('\n')).not.toContain(added.recordId);
    },
    REPORT_TEST_MS,
  );
});
