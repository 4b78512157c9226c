/**
 * The analytics figures to take away (issue 26, item 3): the dashboard as a PDF report job
 * (POST /api/reports/analytics) and each chart's data as Excel (GET /api/analytics/export).
 * The renderers are read back on a fixture dashboard with readers independent of the writers
 * (poppler, exceljs); the routes for who may ask, what they are refused, and a Client's scope.
 */
import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_CHARTS, type AnalyticsChart } from '../../../common/schemas/analytics.js';
import { reportJobResponseSchema, reportSummarySchema } from '../../../common/schemas/reports.js';
import { analyticsFixture, emptyAnalyticsFixture, FIXTURE_HINDI_TECHNICIAN, FIXTURE_SCOPE } from '../../test/analytics-fixture.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { insertInspectionRows, inspectionRow } from '../../test/inspections.js';
import { ADMIN, CLIENT_RTM, TECHNICIAN, createAndSignIn, errorOf } from '../../test/factories.js';
import { pdfInfo, pdfPageRaster, pdfPageTexts, type PdfRaster } from '../../test/pdf.js';
import { bi, sheetBi } from '../../test/bilingual.js';
import { readWorkbook, valuesOf } from '../../test/xlsx.js';
import { renderAnalyticsPdf } from './analytics-pdf.js';
import { analyticsWorkbook } from './analytics-xlsx.js';
import { madeAtText } from './report-text.js';

/** 12:00 in Kolkata on 2026-11-23. */
const NOW = new Date('2026-11-23T06:30:00Z');
const TIME_ZONE = 'Asia/Kolkata';
const REQUESTER = { userId: 7, employeeId: 'ADMPDF1', name: 'Anita Sharma' };
const MADE = { id: 'analytics-test-report', requester: REQUESTER, createdAt: NOW };
/** A page's text with its line breaks and runs of spaces as one space: a wrapped cell reads on. */
const squeezed = (text: string) => text.replace(/\s+/g, ' ');
const REPORT_TEST_MS = 120_000;

async function fixturePdf(progress: number[] = [], dashboard = analyticsFixture()): Promise<{ bytes: Buffer; fileName: string; figures: { recordCount: number; summary: Record<string, unknown> } }> {
  const output = await renderAnalyticsPdf(dashboard, MADE, TIME_ZONE, { signal: new AbortController().signal, progress: (f) => progress.push(f) });
  const [bytes, figures] = await Promise.all([buffer(output.stream), output.finished]);
  return { bytes, fileName: output.fileName, figures };
}

/** The orange of the second series (CoF, parts stolen): only charts draw it, never text. */
const isSeriesOrange = (r: number, g: number, b: number) => Math.abs(r - 0xe0) < 40 && Math.abs(g - 0x8a) < 40 && Math.abs(b - 0x1e) < 50;

function countPixels(raster: PdfRaster, match: (r: number, g: number, b: number) => boolean): number {
  let n = 0;
  for (let i = 0; i + 2 < raster.rgb.length; i += 3) if (match(raster.rgb[i]!, raster.rgb[i + 1]!, raster.rgb[i + 2]!)) n += 1;
  return n;
}

describe('the analytics PDF, on a fixture dashboard', () => {
  let bytes: Buffer;
  let pages: string[];
  const progress: number[] = [];

  beforeAll(async () => {
    const made = await fixturePdf(progress);
    bytes = made.bytes;
    expect(made.fileName).toBe('Analytics_RTM-WR_2026-11-23.pdf');
    expect(made.figures.recordCount).toBe(1137 + 557);
    pages = await pdfPageTexts(bytes);
  }, REPORT_TEST_MS);

  it('opens in poppler as an A4 document titled Analytics, by its requester', async () => {
    const info = await pdfInfo(bytes);
    expect(info['Title']).toBe('विश्लेषण / Analytics');
    expect(info['Author']).toBe('Anita Sharma');
    expect(info['Page size']).toMatch(/^595\.28 x 841\.89/);
    expect(Number(info['Pages'])).toBe(pages.length);
    expect(pages.length).toBeGreaterThanOrEqual(6);
    pages.forEach((page, i) => expect(page).toMatch(new RegExp(`पृष्ठ ${i + 1} \\(कुल ${pages.length}\\) /\\s*Page ${i + 1} of ${pages.length}`)));
  });

  it('names the filters, the scope, who asked and when, and the headline figures on the first page', () => {
    const first = pages[0] ?? '';
    // Every fixed text in Hindi, then English; the facts as they are.
    expect(first).toMatch(/^\s*विश्लेषण \/ Analytics\s*$/m);
    for (const heading of ['फ़िल्टर और दायरा / Filters and scope', 'मुख्य आँकड़े / Headline figures', 'समूहन / By']) expect(first, heading).toContain(heading);
    expect(first).toMatch(/सर्विस अनुपालन \/ Service\s.*\n\s*compliance\s/);
    for (const fact of ['RTM/WR', 'सभी खंड / All sections', 'सभी SSE / All SSEs', '2026-06-01 to 2026-11-23', 'माह / Month', 'Anita Sharma (ADMPDF1)', madeAtText(NOW, TIME_ZONE)]) {
      expect(first, fact).toContain(fact);
    }
    // A cell's text wraps within its column: the figures are read with the lines joined.
    const flat = squeezed(first);
    expect(madeAtText(NOW, TIME_ZONE)).toBe('23 Nov 2026, 12:00 (Asia/Kolkata)');
    // 83 of 96 and 76 of 96 within; 60 of 557 readings above 0.25.
    for (const figure of ['86.5% within 15 days', '79.2% within 30 days', '557', '0.19 / 0.27', '10.8%', '1,137 सर्विस, 557 CoF / 1,137 Service, 557 CoF', '14 / 5', '6.5', '61 / 52 actions in the range']) {
      expect(flat, figure).toContain(figure);
    }
  });

  it('prints each section with its figures as text', () => {
    const text = pages.slice(1).join('\n');
    for (const heading of ['Schedule compliance', 'Friction', 'Machines and parts', 'Grease', 'Field work']) expect(text, heading).toContain(bi(heading));
    // A period row of compliance (Nov 2026: 83 of 96, 86.5%), a section, an SSE without one.
    expect(text).toMatch(/Nov 2026\s+83 of 96\s+86\.5%/);
    expect(text).toMatch(/RTM-NAD\s+30 of 40\s+75\.0%/);
    // Its cell wraps: the Hindi and the first English word, then the rest of the English.
    expect(text).toContain('रजिस्टर में कोई SSE नहीं / No');
    expect(text).toContain('SSE in the register');
    expect(text).toContain('RTM-NAD, curve 30, UP');
    expect(text).toContain('2026-11-20: 0.33');
    expect(text).toMatch(/Pump\s+Grease cartridge\s+1\s+24\s+25\s+45\.5%/);
    expect(text).toContain('BEC Bypass, curve 5, UP');
    expect(text).toContain(FIXTURE_HINDI_TECHNICIAN);
    expect(text).toMatch(/Suresh Patel\s+TEC3\s+401\s+198\s+599/);
  });

  it('draws the charts on the section pages (pixels of the second series, which no text uses)', async () => {
    const pageOf = (heading: string) => pages.findIndex((p) => new RegExp(`^\\s*${bi(heading)}\\s*$`, 'm').test(p)) + 1;
    // Bars: compliance (CoF share), faults (parts stolen), field work (CoF visits); a line: friction's 90th percentile.
    const least = { 'Schedule compliance': 800, 'Machines and parts': 800, 'Field work': 800, Friction: 80 };
    for (const [heading, minimum] of Object.entries(least)) {
      const page = pageOf(heading);
      expect(page, heading).toBeGreaterThan(1);
      const raster = await pdfPageRaster(bytes, page, 50);
      expect(countPixels(raster, isSeriesOrange), heading).toBeGreaterThan(minimum);
    }
    // The first page has no chart: the count is not something text or tables make.
    expect(countPixels(await pdfPageRaster(bytes, 1, 50), isSeriesOrange)).toBeLessThan(20);
  });

  it('prints a scope with nothing in it as dashes and empty lists, without failing', async () => {
    const empty = await fixturePdf([], emptyAnalyticsFixture({ ...FIXTURE_SCOPE, division: null, section: 'BEC Bypass', by: 'week' }));
    expect(empty.fileName).toBe('Analytics_2026-11-23.pdf');
    expect(empty.figures.recordCount).toBe(0);
    const text = (await pdfPageTexts(empty.bytes)).join('\n');
    expect(text).toContain('सभी मंडल / All divisions');
    expect(text).toContain('BEC Bypass');
    expect(squeezed(text)).toMatch(/सर्विस अनुपालन \/ Service – \(शेड्यूल पर कोई कर्व नहीं\) \/ – \(no .*compliance curve on the schedule\)/);
    expect(text).toContain('इस अवधि में कुछ नहीं। / None in the range.');
    expect(text).toContain('इस अवधि में कोई विज़िट नहीं। / No visits in the range.');
  });

  it('tells the job how far it is, section by section', () => {
    expect(progress.length).toBe(5);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBeLessThan(1);
  });
});

describe("each analytics chart's data as Excel, on a fixture dashboard", () => {
  async function workbookOf(chart: AnalyticsChart) {
    const output = analyticsWorkbook(analyticsFixture(), chart, MADE, TIME_ZONE);
    const [bytes] = await Promise.all([buffer(output.stream), output.finished]);
    return { fileName: output.fileName, bytes, sheets: await readWorkbook(bytes) };
  }

  it.each(ANALYTICS_CHARTS)('%s: a dated name, its sheets, and an About sheet naming the scope and who made it', async (chart) => {
    const { fileName, sheets } = await workbookOf(chart);
    expect(fileName).toBe(`Analytics_${chart}_RTM-WR_2026-11-23.xlsx`);
    expect(sheets.at(-1)?.name).toBe('विवरण | About');
    expect(valuesOf(sheets.at(-1)?.rows[0])).toEqual(['मद / Item', 'मान / Value']);
    const about = new Map((sheets.at(-1)?.rows ?? []).slice(1).map((r) => [r[0]?.value, r[1]?.value]));
    expect(about.get(bi('Division'))).toBe('RTM/WR');
    expect(about.get(bi('Range'))).toBe('2026-06-01 से 2026-11-23 तक / 2026-06-01 to 2026-11-23');
    expect(about.get(bi('Made by'))).toBe('Anita Sharma (ADMPDF1)');
    expect(about.get(bi('Made at'))).toBe('23 Nov 2026, 12:00 (Asia/Kolkata)');
    for (const sheet of sheets.slice(0, -1)) expect(sheet.rows.length, sheet.name).toBeGreaterThan(1);
  });

  it.each(ANALYTICS_CHARTS)('%s, of a scope with nothing in it: the headers, its periods and empty cells', async (chart) => {
    const output = analyticsWorkbook(emptyAnalyticsFixture(), chart, MADE, TIME_ZONE);
    const [bytes] = await Promise.all([buffer(output.stream), output.finished]);
    const sheets = await readWorkbook(bytes);
    expect(sheets.at(-1)?.name).toBe(sheetBi('About'));
    expect(sheets[0]?.rows.length).toBeGreaterThanOrEqual(1);
  });

  it('compliance: the series per period, then by section and by SSE, shares as percentages of 0-1 numbers', async () => {
    const { bytes, sheets } = await workbookOf('compliance');
    expect(sheets.map((s) => s.name)).toEqual(['अवधिवार | By period', 'खंडवार | By section', 'SSE-वार | By SSE', 'विवरण | About']);
    const [byPeriod, bySection, bySse] = sheets;
    expect(valuesOf(byPeriod?.rows[0]).slice(0, 8)).toEqual([
      bi('Period'),
      bi('Start'),
      bi('End'),
      'सर्विस शेड्यूल पर / Service on schedule',
      'सर्विस अंतराल में / Service within',
      'सर्विस अतिदेय / Service overdue',
      'सर्विस कभी विज़िट नहीं / Service never visited',
      'सर्विस अंतराल में प्रतिशत / Service share within',
    ]);
    expect(byPeriod?.rows).toHaveLength(1 + 6);
    const november = valuesOf(byPeriod?.rows[6]);
    expect(november.slice(0, 1)).toEqual(['Nov 2026']);
    expect(november[1]).toEqual(new Date('2026-11-01T00:00:00Z'));
    expect(november[2]).toEqual(new Date('2026-11-23T00:00:00Z'));
    expect(november.slice(3, 7)).toEqual([96, 83, 11, 2]);
    expect(november[7]).toBeCloseTo(83 / 96, 10);
    expect(valuesOf(bySection?.rows[1]).slice(0, 4)).toEqual(['RTM/WR', 'RTM-NAD', 40, 30]);
    expect(valuesOf(bySse?.rows[3])[0]).toBe(bi('No SSE in the register'));
    // The share's cell keeps its number and shows it as a percentage.
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(book.getWorksheet(sheetBi('By period'))?.getCell('H7').numFmt).toBe('0.0%');
  });

  it('parts: the items then the categories, most first, with their cumulative shares', async () => {
    const { sheets } = await workbookOf('parts');
    expect(sheets.map((s) => s.name)).toEqual(['Items', 'Categories', 'About'].map(sheetBi));
    expect(valuesOf(sheets[0]?.rows[0])).toEqual([bi('Category'), 'पुर्जे का नाम / Item', ...['Broken', 'Stolen', 'Faults', 'Cumulative share'].map(bi)]);
    expect(valuesOf(sheets[0]?.rows[1]).slice(0, 5)).toEqual(['Pump', 'Grease cartridge', 1, 24, 25]);
    expect(valuesOf(sheets[1]?.rows[3])).toEqual(['Applicator', 6, 1]);
  });

  it('field work: each technician with a Service and a CoF column per period', async () => {
    const { sheets } = await workbookOf('field-work');
    const header = valuesOf(sheets[0]?.rows[0]);
    expect(header.slice(0, 7)).toEqual([...['Technician ID', 'Name', 'Service', 'CoF', 'Visits'].map(bi), 'Jun 2026 सर्विस / Jun 2026 Service', 'Jun 2026 CoF']);
    expect(header).toHaveLength(5 + 2 * 6);
    const first = valuesOf(sheets[0]?.rows[1]);
    expect(first.slice(0, 5)).toEqual(['TEC7', FIXTURE_HINDI_TECHNICIAN, 512, 240, 752]);
    const fixture = analyticsFixture().fieldWork.technicians[0]?.series ?? [];
    expect(first.slice(5)).toEqual(fixture.flatMap((s) => [s.service, s.cof]));
  });

  it('weeks: the periods are named by their Monday', async () => {
    const output = analyticsWorkbook(analyticsFixture({ ...FIXTURE_SCOPE, division: null, from: '2026-11-02', to: '2026-11-23', by: 'week' }), 'grease', MADE, TIME_ZONE);
    const [bytes] = await Promise.all([buffer(output.stream), output.finished]);
    expect(output.fileName).toBe('Analytics_grease_2026-11-23.xlsx');
    const sheets = await readWorkbook(bytes);
    expect((sheets[0]?.rows ?? []).slice(1).map((r) => r[0]?.value)).toEqual(['W 2 Nov 2026', 'W 9 Nov 2026', 'W 16 Nov 2026', 'W 23 Nov 2026']);
    const about = new Map((sheets.at(-1)?.rows ?? []).map((r) => [r[0]?.value, r[1]?.value]));
    expect(about.get(bi('Division'))).toBe('सभी मंडल / All divisions');
    expect(about.get(bi('By'))).toBe('सप्ताह / Week');
  });
});

describe('POST /api/reports/analytics and GET /api/analytics/export', () => {
  let t: TestApp;
  let cookies: Record<'admin' | 'client' | 'technician', string>;

  beforeAll(async () => {
    t = await buildTestApp({}, { now: () => NOW });
    cookies = await createAndSignIn(t, { admin: { ...ADMIN, name: 'Anita Sharma' }, client: { ...CLIENT_RTM, name: 'Rakesh Verma' }, technician: TECHNICIAN });
    // Three Service visits in RTM/WR, five in FZR/NR: a count tells whose figures a file holds.
    await insertInspectionRows(t.database.db, [
      ...['2026-11-03', '2026-11-10', '2026-11-17'].map((date) => inspectionRow({ type: 'Service', date })),
      ...['2026-11-04', '2026-11-05', '2026-11-06', '2026-11-07', '2026-11-08'].map((date) => inspectionRow({ type: 'Service', date, divisionRailway: 'FZR/NR', section: 'FZR-BTI' })),
    ]);
  }, REPORT_TEST_MS);
  afterAll(async () => t?.close());

  const report = (app: FastifyInstance, cookie: string, payload: object) => app.inject({ method: 'POST', url: '/api/reports/analytics', headers: { cookie }, payload });
  const exportOf = (app: FastifyInstance, cookie: string, query: string) => app.inject({ url: `/api/analytics/export?${query}`, headers: { cookie } });

  it('refuses a Technician both', async () => {
    expect((await report(t.app, cookies.technician, {})).statusCode).toBe(403);
    expect((await exportOf(t.app, cookies.technician, 'chart=compliance')).statusCode).toBe(403);
  });

  it('refuses an unknown chart, naming the field', async () => {
    const response = await exportOf(t.app, cookies.admin, 'chart=weather');
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).fields?.['chart']).toMatch(/chart must be one of compliance, friction/);
    expect((await exportOf(t.app, cookies.admin, 'from=2026-11-01')).statusCode).toBe(400);
  });

  it('refuses a range that ends before it starts, naming the field', async () => {
    const exported = await exportOf(t.app, cookies.admin, 'chart=parts&from=2026-11-20&to=2026-11-01');
    expect(exported.statusCode).toBe(400);
    expect(errorOf(exported).fields?.['from']).toBe('from must not be after to');
    const asked = await report(t.app, cookies.client, { from: '2026-11-20', to: '2026-11-01' });
    expect(asked.statusCode).toBe(400);
    expect(errorOf(asked).fields?.['from']).toBe('from must not be after to');
  });

  // Read from the database by the analytics SQL: the Client's own division whatever they ask.
  describe('a Client asking for another division gets their own', () => {
    it('in the Excel file', async () => {
      const response = await exportOf(t.app, cookies.client, 'chart=faults&division=FZR/NR&from=2026-11-01&to=2026-11-23');
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      expect(response.headers['content-disposition']).toBe('attachment; filename="Analytics_faults_RTM-WR_2026-11-23.xlsx"');
      const sheets = await readWorkbook(response.rawPayload);
      // Nov 2026: RTM/WR's three Service visits, none of FZR/NR's five.
      expect(valuesOf(sheets[0]?.rows[0])[3]).toBe('सर्विस विज़िट / Service visits');
      expect(valuesOf(sheets[0]?.rows[1])[3]).toBe(3);
      const about = new Map((sheets.at(-1)?.rows ?? []).map((r) => [r[0]?.value, r[1]?.value]));
      expect(about.get(bi('Division'))).toBe('RTM/WR');
      expect(about.get(bi('Made by'))).toBe(`Rakesh Verma (${CLIENT_RTM.employeeId})`);
      // The Admin asking for every division counts all eight.
      const all = await readWorkbook((await exportOf(t.app, cookies.admin, 'chart=faults&from=2026-11-01&to=2026-11-23')).rawPayload);
      expect(valuesOf(all[0]?.rows[1])[3]).toBe(8);
    });

    it('in the PDF, made as a job', async () => {
      const response = await report(t.app, cookies.client, { division: 'FZR/NR', from: '2026-11-01', to: '2026-11-23' });
      expect([200, 202], response.body).toContain(response.statusCode);
      const job = reportJobResponseSchema.parse(response.json());
      const deadline = Date.now() + 60_000;
      for (;;) {
        const summary = reportSummarySchema.parse((await t.app.inject({ url: `/api/reports/${job.reportId}`, headers: { cookie: cookies.client } })).json());
        if (summary.status === 'done') {
          expect(summary.division).toBe('RTM/WR');
          expect(summary.fileName).toBe('Analytics_RTM-WR_2026-11-23.pdf');
          break;
        }
        if (summary.status === 'failed') throw new Error(`the report failed: ${summary.error}`);
        if (Date.now() > deadline) throw new Error('the report is not done after 60 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const download = await t.app.inject({ url: job.pdfUrl, headers: { cookie: cookies.client } });
      expect(download.statusCode).toBe(200);
      const first = (await pdfPageTexts(download.rawPayload))[0] ?? '';
      expect(first).toContain('RTM/WR');
      expect(first).not.toContain('FZR/NR');
      expect(first).toContain(`Rakesh Verma (${CLIENT_RTM.employeeId})`);
      expect(squeezed(first)).toContain('3 सर्विस, 0 CoF / 3 Service, 0 CoF');
    }, REPORT_TEST_MS);
  });
});
