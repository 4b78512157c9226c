/**
 * GET /api/export/curves and /api/export/stations: the register as an XLSX workbook, read back
 * with SheetJS (a reader independent of the exceljs writer) and compared, row by row, with the
 * database in the register's order (division, section, No., id).
 */
import { count } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { DIVISIONS } from '../../../common/constants.js';
import { consolidatedCurveDetails as curves, stations, type CurveRow, type StationRow } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_RTM, TECHNICIAN, createAndSignIn } from '../../test/factories.js';
import { registerBi } from '../../test/bilingual.js';
import { readZip } from '../../test/inspections.js';

let t: TestApp;
let admin: string;
let technician: string;
let client: string;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The spec's field names, as the export titles them: Hindi first, then the name the import reads. */
const CURVE_HEADER = [
  'No',
  'HKM Code',
  'Division/Railway',
  'Section',
  'Curve Number',
  'Line',
  'Km From',
  'Met From',
  'Km To',
  'Met To',
  'Length',
  'Station 1',
  'Station 2',
  'Degree',
  'DEN',
  'AEN',
  'SSE',
  'Comments',
].map(registerBi);
const STATION_HEADER = ['No', 'Station Name', 'Station Code', 'Section', 'Division/Railway'].map(registerBi);
/** Names a spreadsheet would take for formulas if they were not written as text. */
const FORMULA_LIKE = ['=HYPERLINK("http://x","y")', '+91 Halt', '-5 Siding', '@SUM(A1:A2)', '=1+1'] as const;

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  ({ admin, technician, client } = await createAndSignIn(t, { admin: ADMIN, technician: TECHNICIAN, client: CLIENT_RTM }));

  // Hand-made curves with every kind of value: nulls, decimals, line breaks, Devanagari, formula-like text.
  await db.insert(curves).values([
    {
      no: 2,
      hkmCode: 1,
      divisionRailway: 'RTM/WR',
      section: 'RTM-NAD',
      curveNumber: '660/10-661/7',
      line: 'Up',
      kmFrom: 660,
      metFrom: 10,
      kmTo: 661,
      metTo: 7,
      length: 397,
      station1: FORMULA_LIKE[0],
      station2: FORMULA_LIKE[1],
      degree: '2.50',
      den: FORMULA_LIKE[2],
      aen: FORMULA_LIKE[3],
      sse: 'SSE/P.Way/NAD',
      comments: 'line one\nline two, "quoted"',
    },
    { no: 1, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '0012', line: 'Down', station1: 'रतलाम जंक्शन', sse: FORMULA_LIKE[4], degree: '0.05' },
    // Characters XML cannot hold are left out of the cell, the rest of the text kept.
    { no: 1, divisionRailway: 'FZR/NR', section: 'FZR-JUC', curveNumber: '3', line: 'Single', station1: 'bell\u0007here', comments: 'tab\tkept' },
  ]);
  await db.insert(stations).values([
    { no: 2, stationName: FORMULA_LIKE[0], stationCode: 'HYP', section: 'RTM-NAD', divisionRailway: 'RTM/WR' },
    { no: 1, stationName: 'Ratlam Jn', stationCode: 'RTM', section: 'RTM-NAD', divisionRailway: 'RTM/WR' },
    { no: 3, stationName: FORMULA_LIKE[1], stationCode: 'PLS', section: 'RTM-NAD', divisionRailway: 'RTM/WR' },
    { no: 4, stationName: FORMULA_LIKE[2], stationCode: '007', section: 'RTM-NAD', divisionRailway: 'RTM/WR' },
    { no: 5, stationName: FORMULA_LIKE[3], stationCode: 'AT', section: 'RTM-NAD', divisionRailway: 'RTM/WR' },
    { no: 1, stationName: 'फिरोजपुर', stationCode: 'FZR', section: 'FZR-JUC', divisionRailway: 'FZR/NR' },
  ]);
});
afterAll(() => t.close());

/** `null`: an anonymous caller. */
const exportOf = (path: string, cookie: string | null = admin) =>
  t.app.inject({ method: 'GET', url: `/api/export/${path}`, headers: cookie ? { cookie } : {} });

/** Today in the railway's time zone, as the file name has it. */
const todayInKolkata = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

interface Workbook {
  sheetName: string;
  sheet: XLSX.WorkSheet;
  rows: unknown[][];
}

function readWorkbook(response: LightMyRequestResponse): Workbook {
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe(XLSX_TYPE);
  const book = XLSX.read(response.rawPayload, { type: 'buffer' });
  expect(book.SheetNames).toHaveLength(1);
  const sheetName = book.SheetNames[0] ?? '';
  const sheet = book.Sheets[sheetName];
  if (!sheet) throw new Error('no sheet');
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true });
  return { sheetName, sheet, rows };
}

/** Exports as a reader sees them and checks the download's headers on the way. */
async function download(path: string, fileStem: string, scope = ''): Promise<Workbook> {
  const before = todayInKolkata();
  const response = await exportOf(path);
  const after = todayInKolkata();
  const disposition = String(response.headers['content-disposition']);
  expect([`attachment; filename="${fileStem}${scope}_${before}.xlsx"`, `attachment; filename="${fileStem}${scope}_${after}.xlsx"`]).toContain(disposition);
  expect(response.headers['cache-control']).toBe('private, no-store');
  return readWorkbook(response);
}

const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
const registerOrder = <R extends { divisionRailway: string; section: string; no: number; id: number }>(rows: R[]) =>
  [...rows].sort((a, b) => compare(a.divisionRailway, b.divisionRailway) || compare(a.section, b.section) || a.no - b.no || a.id - b.id);

const curveCells = (r: CurveRow) => [
  r.no,
  r.hkmCode,
  r.divisionRailway,
  r.section,
  r.curveNumber,
  r.line,
  r.kmFrom,
  r.metFrom,
  r.kmTo,
  r.metTo,
  r.length,
  r.station1,
  r.station2,
  r.degree,
  r.den,
  r.aen,
  r.sse,
  r.comments,
];
const stationCells = (r: StationRow) => [r.no, r.stationName, r.stationCode, r.section, r.divisionRailway];

async function storedCurves(division?: string) {
  const rows = await t.database.db.select().from(curves);
  return registerOrder(rows.filter((r) => division === undefined || r.divisionRailway === division));
}
async function storedStations(division?: string) {
  const rows = await t.database.db.select().from(stations);
  return registerOrder(rows.filter((r) => division === undefined || r.divisionRailway === division));
}

/** XML cannot hold control characters other than tab and line breaks: the export leaves them out. */
// eslint-disable-next-line no-control-regex
const xmlSafe = (value: unknown) => (typeof value === 'string' ? value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '') : value);

describe('GET /api/export/curves', () => {
  it('writes the header and every curve, cell by cell, in the register order', async () => {
    const book = await download('curves', 'Curve_Details');
    expect(book.sheetName).toBe('कर्व विवरण | Curve Details');
    const [header, ...rows] = book.rows;
    expect(header).toEqual(CURVE_HEADER);
    expect(header?.slice(2, 5)).toEqual(['मंडल/रेलवे / Division/Railway', 'खंड / Section', 'कर्व नंबर / Curve Number']);
    const expected = (await storedCurves()).map((r) => curveCells(r).map(xmlSafe));
    expect(rows).toEqual(expected);
    // The hand-made values, spelled out.
    expect(rows.find((r) => r[4] === '0012')).toEqual([1, null, 'RTM/WR', 'RTM-NAD', '0012', 'Down', null, null, null, null, null, 'रतलाम जंक्शन', null, '0.05', null, null, '=1+1', null]);
    expect(rows.find((r) => r[4] === '3')?.[11]).toBe('bellhere');
    expect(rows.find((r) => r[4] === '3')?.[17]).toBe('tab\tkept');
    expect(rows.find((r) => r[4] === '660/10-661/7')?.[17]).toBe('line one\nline two, "quoted"');
  });

  it('writes numbers as numbers and every other column as text, never as a formula', async () => {
    const { sheet, rows } = await download('curves', 'Curve_Details');
    const numeric = new Set([0, 1, 6, 7, 8, 9, 10]);
    rows.forEach((row, r) => {
      if (r === 0) return;
      row.forEach((value, c) => {
        const cell = sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined;
        if (value === null) {
          expect(cell?.v ?? null).toBeNull();
          return;
        }
        expect(cell?.t, `${XLSX.utils.encode_cell({ r, c })} ${String(value)}`).toBe(numeric.has(c) ? 'n' : 's');
        expect(cell?.f).toBeUndefined();
      });
    });
    const formulaLike = rows.flat().filter((v) => typeof v === 'string' && /^[=+\-@]/.test(v));
    expect(formulaLike.sort()).toEqual([...FORMULA_LIKE].sort());
  });

  it('freezes the header row and puts an autofilter on it', async () => {
    const response = await exportOf('curves');
    expect(response.statusCode).toBe(200);
    const entries = await readZip(response.rawPayload);
    const sheetXml = entries.find((e) => e.name === 'xl/worksheets/sheet1.xml')?.bytes.toString('utf8') ?? '';
    expect(sheetXml).toMatch(/<pane\b[^>]*\bySplit="1"[^>]*\bstate="frozen"[^>]*\/>|<pane\b[^>]*\bstate="frozen"[^>]*\bySplit="1"[^>]*\/>/);
    expect(sheetXml).toMatch(/<pane\b[^>]*\btopLeftCell="A2"/);
    // The filter spans the header and every row, as Excel itself writes it.
    const [counted] = await t.database.db.select({ n: count() }).from(curves);
    expect(sheetXml).toContain(`<autoFilter ref="A1:R${(counted?.n ?? 0) + 1}"/>`);
    // No formula anywhere in the sheet.
    expect(sheetXml).not.toContain('<f>');
    expect(sheetXml).not.toContain('<f ');
  });

  it('exports one division with ?division=, named in the file name', async () => {
    const book = await download('curves?division=RTM%2FWR', 'Curve_Details', '_RTM-WR');
    const [header, ...rows] = book.rows;
    expect(header).toEqual(CURVE_HEADER);
    expect(rows).toEqual((await storedCurves('RTM/WR')).map((r) => curveCells(r).map(xmlSafe)));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r[2] === 'RTM/WR')).toBe(true);

    const empty = await download('curves?division=JBP%2FWCR', 'Curve_Details', '_JBP-WCR');
    expect(empty.rows).toEqual([CURVE_HEADER]);
  });

  it('answers 400 naming division for one that is not a railway division', async () => {
    const response = await exportOf('curves?division=XYZ');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { division: `division must be one of ${DIVISIONS.join(', ')}` },
    });
  });

  it('is for Admins only: 401 anonymous, 403 Technician and Client (even for their own division)', async () => {
    expect((await exportOf('curves', null)).statusCode).toBe(401);
    expect((await exportOf('curves', technician)).statusCode).toBe(403);
    expect((await exportOf('curves', client)).statusCode).toBe(403);
    const own = await exportOf('curves?division=RTM%2FWR', client);
    expect(own.statusCode).toBe(403);
    expect(own.headers['content-type']).not.toBe(XLSX_TYPE);
  });
});

describe('GET /api/export/stations', () => {
  it('writes the header and every station in the register order, names as text', async () => {
    const book = await download('stations', 'Station_Details');
    expect(book.sheetName).toBe('स्टेशन विवरण | Station Details');
    const [header, ...rows] = book.rows;
    expect(header).toEqual(STATION_HEADER);
    expect(rows).toEqual((await storedStations()).map(stationCells));
    for (const [index, name] of FORMULA_LIKE.slice(0, 4).entries()) {
      const r = rows.findIndex((row) => row[1] === name) + 1;
      expect(r, name).toBeGreaterThan(0);
      const cell = book.sheet[XLSX.utils.encode_cell({ r, c: 1 })] as XLSX.CellObject;
      expect(cell.t, `station ${index}`).toBe('s');
      expect(cell.f).toBeUndefined();
      expect(cell.v).toBe(name);
    }
    // A code of digits stays text, with its zeros.
    const code = rows.find((row) => row[2] === '007');
    expect(code).toBeDefined();
  });

  it('exports one division, freezes the header, and is for Admins only', async () => {
    const book = await download('stations?division=FZR%2FNR', 'Station_Details', '_FZR-NR');
    expect(book.rows).toEqual([STATION_HEADER, ...(await storedStations('FZR/NR')).map(stationCells)]);

    const response = await exportOf('stations');
    const sheetXml = (await readZip(response.rawPayload)).find((e) => e.name === 'xl/worksheets/sheet1.xml')?.bytes.toString('utf8') ?? '';
    expect(sheetXml).toMatch(/<pane\b[^>]*\bstate="frozen"/);
    expect(sheetXml).toMatch(/<pane\b[^>]*\bySplit="1"/);
    const [counted] = await t.database.db.select({ n: count() }).from(stations);
    expect(sheetXml).toContain(`<autoFilter ref="A1:E${(counted?.n ?? 0) + 1}"/>`);

    expect((await exportOf('stations?division=Nowhere')).statusCode).toBe(400);
    expect((await exportOf('stations', null)).statusCode).toBe(401);
    expect((await exportOf('stations', technician)).statusCode).toBe(403);
    expect((await exportOf('stations', client)).statusCode).toBe(403);
  });
});

describe('a register larger than one export batch', () => {
  beforeAll(async () => {
    // 4,500 curves over several divisions and sections, No. values out of insertion order and
    // repeated within a section (the id breaks the tie): the batches must join without a gap or a repeat.
    const rows: (typeof curves.$inferInsert)[] = [];
    for (let i = 0; i < 4500; i++) {
      // Over half in RTM/WR: one division alone spans more than one batch.
      const division = i % 2 === 0 ? 'RTM/WR' : (DIVISIONS[(i * 7) % DIVISIONS.length] ?? 'RTM/WR');
      rows.push({
        no: (i * 37) % 400,
        hkmCode: 500_000 + i,
        divisionRailway: division,
        section: `BULK-${division.slice(0, 3)}-${i % 3}`,
        curveNumber: `${i}/${i % 11}`,
        line: ['Up', 'Down', 'Single'][i % 3] ?? 'Up',
        kmFrom: i,
        metFrom: i % 1000,
        kmTo: i + 1,
        metTo: (i * 3) % 1000,
        length: 100 + (i % 900),
        station1: `Station ${i}`,
        station2: i % 5 === 0 ? null : `स्टेशन ${i}`,
        degree: ((i % 500) / 100).toFixed(2),
        den: `DEN/${i % 4}`,
        aen: `AEN/${i % 6}`,
        sse: i % 9 === 0 ? null : `SSE/${i % 13}`,
        comments: i % 50 === 0 ? `note ${i}\nsecond line` : null,
      });
    }
    for (let i = 0; i < rows.length; i += 500) await t.database.db.insert(curves).values(rows.slice(i, i + 500));
  });

  it('exports every one of them, in the register order, cell by cell', async () => {
    const stored = await storedCurves();
    expect(stored.length).toBeGreaterThan(4500);
    const book = await download('curves', 'Curve_Details');
    const [header, ...rows] = book.rows;
    expect(header).toEqual(CURVE_HEADER);
    expect(rows).toHaveLength(stored.length);
    expect(rows).toEqual(stored.map((r) => curveCells(r).map(xmlSafe)));
  });

  it('exports one division of them across batches too', async () => {
    const stored = await storedCurves('RTM/WR');
    expect(stored.length).toBeGreaterThan(2000);
    const book = await download('curves?division=RTM%2FWR', 'Curve_Details', '_RTM-WR');
    expect(book.rows.slice(1)).toEqual(stored.map((r) => curveCells(r).map(xmlSafe)));
  });
});
