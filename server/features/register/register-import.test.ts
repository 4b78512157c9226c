/**
 * POST /api/import-excel (docs/functional-requirements.md, 'Data management'; imports are all or nothing): a CSV or XLSX
 * sheet loaded into the curve or station register, all or nothing, idempotent by the natural
 * key, with a dry run. The answers are checked against the register as the database holds it.
 */
import { and, count, eq, gt } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { z } from 'zod';
import { curveListResponseSchema } from '../../../common/schemas/curve.js';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, importResultSchema, type ImportResult } from '../../../common/schemas/register.js';
import { auditLog, consolidatedCurveDetails as curves, stations } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_RTM, TECHNICIAN, createAndSignIn } from '../../test/factories.js';
import { registerBi } from '../../test/bilingual.js';
import { numberRows, SHEET_PART, textRows, understateSize, workbookOf } from '../../test/xlsx-bombs.js';
import { WORKBOOK_LIMITS } from './workbook-check.js';

let t: TestApp;
let admin: string;
let technician: string;
let client: string;

beforeAll(async () => {
  t = await buildTestApp();
  ({ admin, technician, client } = await createAndSignIn(t, { admin: ADMIN, technician: TECHNICIAN, client: CLIENT_RTM }));
});
afterAll(() => t.close());

// ---------------------------------------------------------------------------------------------
// Files and requests

type Cell = string | number | null | undefined;

/** One CSV cell as a spreadsheet program writes it: quoted when it holds a comma, quote or line break. */
const csvCell = (value: Cell) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** A CSV file of a header and rows (cells by header), CRLF and a UTF-8 BOM as Excel's "CSV UTF-8" writes it unless told. */
function csv(header: readonly string[], rows: ReadonlyArray<Record<string, Cell>>, { bom = true, eol = '\r\n' } = {}): Buffer {
  const lines = [header.map(csvCell).join(','), ...rows.map((row) => header.map((h) => csvCell(row[h])).join(','))];
  return Buffer.from(`${bom ? '\uFEFF' : ''}${lines.join(eol)}${eol}`, 'utf8');
}

/** The curve columns as the export writes them. */
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
] as const;
const KEY_HEADER = ['No', 'Division/Railway', 'Section', 'Curve Number', 'Line'] as const;
const STATION_HEADER = ['No', 'Station Name', 'Station Code', 'Section', 'Division/Railway'] as const;

/** A curve row of a sheet, by the export's headers. */
const curveRow = (section: string, curveNumber: string, extra: Record<string, Cell> = {}): Record<string, Cell> => ({
  No: 1,
  'Division/Railway': 'RTM/WR',
  Section: section,
  'Curve Number': curveNumber,
  Line: 'Up',
  ...extra,
});

interface Upload {
  type?: string;
  bytes?: Buffer;
  fileName?: string;
  dryRun?: boolean;
  /** `null`: an anonymous caller. */
  cookie?: string | null;
}

function importForm({ type, bytes, fileName = 'register.csv' }: Upload): FormData {
  const form = new FormData();
  if (type !== undefined) form.append('type', type);
  if (bytes) form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), fileName);
  return form;
}

const importRequest = (upload: Upload) => {
  const cookie = upload.cookie === undefined ? admin : upload.cookie;
  return t.app.inject({
    method: 'POST',
    url: `/api/import-excel${upload.dryRun ? '?dryRun=true' : ''}`,
    headers: cookie ? { cookie } : {},
    payload: importForm(upload),
  });
};

async function importOk(upload: Upload): Promise<ImportResult> {
  const response = await importRequest(upload);
  expect(response.statusCode, response.body).toBe(200);
  return importResultSchema.parse(response.json());
}

const rowErrorSchema = z.object({ row: z.number(), column: z.string(), message: z.string() });
const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  rowErrors: z.array(rowErrorSchema).optional(),
  requestId: z.string(),
});
const errorOf = (response: LightMyRequestResponse) => errorBodySchema.parse(response.json());

async function importFails(upload: Upload, status: number, code: string) {
  const response = await importRequest(upload);
  expect(response.statusCode, response.body).toBe(status);
  const error = errorOf(response);
  expect(error.code).toBe(code);
  return error;
}

// ---------------------------------------------------------------------------------------------
// The register as stored

const curveSnapshot = () => t.database.db.select().from(curves).orderBy(curves.id);
const stationSnapshot = () => t.database.db.select().from(stations).orderBy(stations.id);
const auditSnapshot = () => t.database.db.select().from(auditLog).orderBy(auditLog.id);

async function curveCount(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(curves);
  return row?.n ?? 0;
}

async function curvesOfSection(section: string) {
  return t.database.db.select().from(curves).where(eq(curves.section, section)).orderBy(curves.no, curves.id);
}

async function curveAt(section: string, curveNumber: string, line = 'Up') {
  const rows = await t.database.db
    .select()
    .from(curves)
    .where(and(eq(curves.section, section), eq(curves.curveNumber, curveNumber), eq(curves.line, line)));
  return rows[0];
}

const lastAuditId = async () => (await auditSnapshot()).at(-1)?.id ?? 0;
const auditSince = (id: number) => t.database.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(auditLog.id);

// ---------------------------------------------------------------------------------------------

describe('reading CSV files', () => {
  it('reads a UTF-8 BOM, CRLF lines, quoted commas and line breaks, and Devanagari exactly', async () => {
    const file = csv(CURVE_HEADER, [
      curveRow('CSV-1', '660/10-661/7', {
        No: 1,
        'HKM Code': 6101,
        'Km From': 660,
        'Met From': 10,
        'Km To': 661,
        'Met To': 7,
        Length: 397,
        'Station 1': 'Ratlam, Jn',
        'Station 2': 'Bangrod\nHalt',
        Degree: '2.5',
        DEN: 'Sr.DEN/Co/RTM',
        AEN: 'AEN "North"',
        SSE: 'SSE/P.Way/NAD',
        Comments: 'First line\nsecond, "quoted" line',
      }),
      curveRow('CSV-1', '12', {
        No: 2,
        'HKM Code': 6102,
        Line: 'DN',
        'Station 1': 'रतलाम जंक्शन',
        'Station 2': 'नागदा',
        SSE: 'वरिष्ठ खंड अभियंता/रेलपथ',
        Comments: 'टिप्पणी: वक्र ठीक है',
      }),
      curveRow('CSV-1', '13', { No: 3, Line: 'sl' }),
    ]);
    const result = await importOk({ type: 'curves', bytes: file, fileName: 'curves.csv' });
    expect(result).toEqual({
      type: 'curves',
      dryRun: false,
      valid: true,
      count: 3,
      added: 3,
      changed: 0,
      unchanged: 0,
      unknownColumns: [],
      rowErrors: [],
    });

    const rows = await curvesOfSection('CSV-1');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      no: 1,
      hkmCode: 6101,
      divisionRailway: 'RTM/WR',
      curveNumber: '660/10-661/7',
      line: 'Up',
      kmFrom: 660,
      metFrom: 10,
      kmTo: 661,
      metTo: 7,
      length: 397,
      station1: 'Ratlam, Jn',
      // A name is one line: the line break became a space.
      station2: 'Bangrod Halt',
      degree: '2.50',
      den: 'Sr.DEN/Co/RTM',
      aen: 'AEN "North"',
      sse: 'SSE/P.Way/NAD',
      // Comments keep their line breaks.
      comments: 'First line\nsecond, "quoted" line',
    });
    expect(rows[1]).toMatchObject({
      curveNumber: '12',
      line: 'Down',
      station1: 'रतलाम जंक्शन',
      station2: 'नागदा',
      sse: 'वरिष्ठ खंड अभियंता/रेलपथ',
      comments: 'टिप्पणी: वक्र ठीक है',
    });
    expect(rows[2]).toMatchObject({ curveNumber: '13', line: 'Single', hkmCode: null, station1: null, degree: null, comments: null });

    // What the phones download is the same text.
    const listed = await t.app.inject({ method: 'GET', url: '/api/consolidated-curves?section=CSV-1', headers: { cookie: technician } });
    const curvesListed = curveListResponseSchema.parse(listed.json()).curves;
    expect(curvesListed.map((c) => c.station1)).toEqual(['Ratlam, Jn', 'रतलाम जंक्शन', null]);
  });

  it('reads a file without a BOM, with LF lines, and blank lines between rows', async () => {
    const text = ['No,Division/Railway,Section,Curve Number,Line', '1,RTM/WR,CSV-2,1,Up', '', ',,,,', '2,RTM/WR,CSV-2,2,Up', ''].join('\n');
    const result = await importOk({ type: 'curves', bytes: Buffer.from(text) });
    expect(result).toMatchObject({ count: 2, added: 2 });
    expect((await curvesOfSection('CSV-2')).map((r) => r.curveNumber)).toEqual(['1', '2']);
  });

  it('matches headers whatever their case, spaces and punctuation', async () => {
    for (const [index, hkmHeader] of ['HKM Code', 'hkmCode', 'hkm_code', ' HKM-CODE '].entries()) {
      const header = ['no', hkmHeader, 'DIVISION / RAILWAY', 'section', 'Curve-Number', 'LINE', 'station_1', 'S.S.E.'];
      const row = { no: 1, [hkmHeader]: 6200 + index, 'DIVISION / RAILWAY': 'BRC/WR', section: 'HDR-1', 'Curve-Number': String(index), LINE: 'up', station_1: 'Vadodara', 'S.S.E.': 'SSE/BRC' };
      const result = await importOk({ type: 'curves', bytes: csv(header, [row]) });
      expect(result, hkmHeader).toMatchObject({ count: 1, added: 1, unknownColumns: [] });
      expect(await curveAt('HDR-1', String(index)), hkmHeader).toMatchObject({ hkmCode: 6200 + index, divisionRailway: 'BRC/WR', station1: 'Vadodara', sse: 'SSE/BRC' });
    }
  });

  it("reads the export's bilingual headers by their English half, and a Hindi header alone names no column", async () => {
    const header = [...KEY_HEADER, 'HKM Code', 'SSE'].map(registerBi);
    expect(header.slice(0, 2)).toEqual(['क्र. / No', 'मंडल/रेलवे / Division/Railway']);
    const row = Object.fromEntries(header.map((h, i) => [h, [1, 'RTM/WR', 'BIL-1', '7', 'Up', 6391, 'SSE/BIL'][i] ?? null]));
    const result = await importOk({ type: 'curves', bytes: csv(header, [row]) });
    expect(result).toMatchObject({ valid: true, count: 1, added: 1, unknownColumns: [] });
    expect(await curveAt('BIL-1', '7')).toMatchObject({ hkmCode: 6391, divisionRailway: 'RTM/WR', sse: 'SSE/BIL' });
    // The English half is the field name; Hindi alone is not read as one.
    const hindiOnly = await importOk({ type: 'curves', bytes: csv([...KEY_HEADER, 'कर्व नंबर'], [{ ...curveRow('BIL-1', '8'), 'कर्व नंबर': '9' }]) });
    expect(hindiOnly).toMatchObject({ valid: true, unknownColumns: ['कर्व नंबर'] });
  });

  it('names columns it does not know in unknownColumns and does not read them', async () => {
    const header = [...KEY_HEADER, 'Remarks', 'Zone', 'SSE'];
    const result = await importOk({ type: 'curves', bytes: csv(header, [curveRow('UNK-1', '1', { Remarks: 'do not store', Zone: 'WR', SSE: 'SSE/UNK' })]) });
    expect(result).toMatchObject({ valid: true, count: 1, added: 1, unknownColumns: ['Remarks', 'Zone'] });
    const stored = await curveAt('UNK-1', '1');
    expect(stored).toMatchObject({ sse: 'SSE/UNK', comments: null });
    expect(JSON.stringify(stored)).not.toContain('do not store');
  });

  it('answers 400 IMPORT_FILE_INVALID naming the required columns a file lacks, and writes nothing', async () => {
    const before = await curveSnapshot();
    const error = await importFails(
      { type: 'curves', bytes: csv(['No', 'Division/Railway', 'Curve Number', 'Station 1'], [{ No: 1, 'Division/Railway': 'RTM/WR', 'Curve Number': '1' }]) },
      400,
      'IMPORT_FILE_INVALID',
    );
    expect(error.message).toBe('The first row must name the columns Section, Line (found: No, Division/Railway, Curve Number, Station 1)');
    expect(error.fields?.file).toBe(error.message);
    expect(await curveSnapshot()).toEqual(before);
  });

  it('answers 400 for two columns naming one field', async () => {
    const error = await importFails({ type: 'curves', bytes: csv([...KEY_HEADER, 'HKM Code', 'hkm_code'], [curveRow('TWO-1', '1')]) }, 400, 'IMPORT_FILE_INVALID');
    expect(error.message).toContain('"HKM Code" and "hkm_code"');
  });
});

describe('all or nothing', () => {
  it('answers 400 IMPORT_ROWS_INVALID naming every bad row, its column and rule, and writes nothing', async () => {
    const [before, audits] = [await curveSnapshot(), await auditSnapshot()];
    const file = csv(CURVE_HEADER, [
      // Row 2 spans three lines of the file, but it is one spreadsheet row.
      curveRow('ALL-1', '1', { Comments: 'a\nb\nc' }),
      curveRow('ALL-1', '2', { Line: 'XX' }),
      curveRow('ALL-1', '3'),
      curveRow('ALL-1', '4', { 'Division/Railway': 'ABC/XY', Degree: '1.234' }),
      curveRow('ALL-1', '5', { No: 'five' }),
      curveRow('', '6'),
      curveRow('ALL-1', '7', { 'HKM Code': '0' }),
    ]);
    const error = await importFails({ type: 'curves', bytes: file }, 400, 'IMPORT_ROWS_INVALID');
    expect(error.rowErrors).toEqual([
      { row: 3, column: 'Line', message: 'Please select a line' },
      { row: 5, column: 'Division/Railway', message: 'Division/Railway must be one of RTM/WR, FZR/NR, BRC/WR, NDLS/NR, JBP/WCR' },
      { row: 5, column: 'Degree', message: 'Degree must have at most 2 decimals' },
      { row: 6, column: 'No', message: 'No. must be a whole number' },
      { row: 7, column: 'Section', message: 'Section is required' },
      { row: 8, column: 'HKM Code', message: 'HKM code must be at least 1' },
    ]);
    expect(error.message).toBe(
      '5 rows are not valid, nothing was imported: row 3, Line: Please select a line; ' +
        'row 5, Division/Railway: Division/Railway must be one of RTM/WR, FZR/NR, BRC/WR, NDLS/NR, JBP/WCR; ' +
        'row 5, Degree: Degree must have at most 2 decimals (and 3 more)',
    );
    expect(await curveSnapshot()).toEqual(before);
    expect(await auditSnapshot()).toEqual(audits);
  });

  it('names a key used twice in the file and an HKM code given twice, by row', async () => {
    const before = await curveSnapshot();
    const file = csv(CURVE_HEADER, [
      curveRow('ALL-2', '1', { 'HKM Code': 6301 }),
      curveRow('ALL-2', '2', { 'HKM Code': 6302 }),
      curveRow('ALL-2', '1', { No: 9 }),
      curveRow('ALL-2', '3', { 'HKM Code': 6302 }),
    ]);
    const error = await importFails({ type: 'curves', bytes: file }, 400, 'IMPORT_ROWS_INVALID');
    expect(error.rowErrors).toEqual([
      { row: 4, column: 'Section, Curve Number, Line', message: 'Curve 1 (Up) in section ALL-2 is also in row 2' },
      { row: 5, column: 'HKM Code', message: 'HKM code 6302 is also given to curve 2 (Up) in section ALL-2 in row 3' },
    ]);
    expect(await curveSnapshot()).toEqual(before);
  });

  it('names an HKM code that a curve outside the file holds', async () => {
    await importOk({ type: 'curves', bytes: csv(CURVE_HEADER, [curveRow('ALL-3', 'held', { 'HKM Code': 6401 })]) });
    const before = await curveSnapshot();
    const file = csv(CURVE_HEADER, [curveRow('ALL-3B', '1', { 'HKM Code': 6402 }), curveRow('ALL-3B', '2', { 'HKM Code': 6401 })]);
    const error = await importFails({ type: 'curves', bytes: file }, 400, 'IMPORT_ROWS_INVALID');
    expect(error.rowErrors).toEqual([
      { row: 3, column: 'HKM Code', message: 'HKM code 6401 is already used by curve held (Up) in section ALL-3, which this file does not change' },
    ]);
    expect(error.message).toContain('row 3, HKM Code');
    expect(await curveSnapshot()).toEqual(before);
  });
});

describe('idempotent by the curve key', () => {
  const file = () =>
    csv(CURVE_HEADER, [
      curveRow('IDEM-1', '1', { 'HKM Code': 6501, 'Station 1': 'Namli', Degree: '1.5', Comments: 'two\nlines' }),
      curveRow('IDEM-1', '2', { No: 2, 'HKM Code': 6502, 'Station 2': 'रतलाम' }),
      curveRow('IDEM-1', '3', { No: 3, Line: 'DN' }),
    ]);

  it('loads the same file twice: the second time nothing changes and only the import itself is audited', async () => {
    const first = await importOk({ type: 'curves', bytes: file(), fileName: 'idem.csv' });
    expect(first).toMatchObject({ count: 3, added: 3, changed: 0, unchanged: 0 });
    const stored = await curveSnapshot();
    const auditMark = await lastAuditId();

    const second = await importOk({ type: 'curves', bytes: file(), fileName: 'idem.csv' });
    expect(second).toEqual({ type: 'curves', dryRun: false, valid: true, count: 3, added: 0, changed: 0, unchanged: 3, unknownColumns: [], rowErrors: [] });
    // Not a row touched: updatedAt included.
    expect(await curveSnapshot()).toEqual(stored);
    const audits = await auditSince(auditMark);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorEmployeeId: 'ADM1',
      action: 'curve.import',
      entity: 'register-import',
      entityId: 'idem.csv',
      after: { type: 'curves', fileName: 'idem.csv', count: 3, added: 0, changed: 0, unchanged: 3 },
    });
  });

  it('the first load audits each curve it adds', async () => {
    const mark = await lastAuditId();
    const bytes = csv(CURVE_HEADER, [curveRow('IDEM-A', '1'), curveRow('IDEM-A', '2')]);
    await importOk({ type: 'curves', bytes, fileName: 'audited.csv' });
    const audits = await auditSince(mark);
    expect(audits.map((a) => [a.action, a.entity, a.entityId])).toEqual([
      ['curve.import', 'curve', 'IDEM-A/1/Up'],
      ['curve.import', 'curve', 'IDEM-A/2/Up'],
      ['curve.import', 'register-import', 'audited.csv'],
    ]);
    expect(audits[0]?.before).toBeNull();
    expect(audits[0]?.after).toMatchObject({ section: 'IDEM-A', curveNumber: '1', line: 'Up' });
  });

  it('counts one changed cell as one changed curve, writes it and audits it with before and after', async () => {
    await importOk({ type: 'curves', bytes: file() });
    const before = await curveSnapshot();
    const mark = await lastAuditId();
    const changedFile = csv(CURVE_HEADER, [
      curveRow('IDEM-1', '1', { 'HKM Code': 6501, 'Station 1': 'Namli', Degree: '1.50', Comments: 'two\nlines' }),
      curveRow('IDEM-1', '2', { No: 2, 'HKM Code': 6502, 'Station 2': 'रतलाम', SSE: 'SSE/NEW' }),
      curveRow('IDEM-1', '3', { No: 3, Line: 'Down' }),
    ]);
    const result = await importOk({ type: 'curves', bytes: changedFile });
    expect(result).toMatchObject({ count: 3, added: 0, changed: 1, unchanged: 2 });
    const after = await curveSnapshot();
    const changed = after.filter((row) => JSON.stringify(row) !== JSON.stringify(before.find((b) => b.id === row.id)));
    expect(changed.map((r) => [r.curveNumber, r.sse])).toEqual([['2', 'SSE/NEW']]);
    const audits = await auditSince(mark);
    expect(audits.map((a) => [a.entity, a.entityId])).toEqual([
      ['curve', 'IDEM-1/2/Up'],
      ['register-import', 'register.csv'],
    ]);
    expect(audits[0]).toMatchObject({ action: 'curve.import', before: { sse: null, hkmCode: 6502 }, after: { sse: 'SSE/NEW', hkmCode: 6502 } });
  });

  it('keeps the stored values of columns the file does not have', async () => {
    const full = csv(CURVE_HEADER, [
      curveRow('KEEP-1', '1', { 'HKM Code': 6601, 'Km From': 12, 'Station 1': 'Khachrod', Degree: '3', SSE: 'SSE/OLD', Comments: 'keep me' }),
      curveRow('KEEP-1', '2', { No: 2, 'HKM Code': 6602, SSE: 'SSE/SAME' }),
    ]);
    await importOk({ type: 'curves', bytes: full });
    const partial = csv(
      [...KEY_HEADER, 'SSE'],
      [curveRow('KEEP-1', '1', { SSE: 'SSE/NEW' }), curveRow('KEEP-1', '2', { No: 2, SSE: 'SSE/SAME' }), curveRow('KEEP-1', '3', { No: 3, SSE: 'SSE/ADDED' })],
    );
    const result = await importOk({ type: 'curves', bytes: partial });
    expect(result).toMatchObject({ count: 3, added: 1, changed: 1, unchanged: 1 });
    expect(await curveAt('KEEP-1', '1')).toMatchObject({ hkmCode: 6601, kmFrom: 12, station1: 'Khachrod', degree: '3.00', sse: 'SSE/NEW', comments: 'keep me' });
    expect(await curveAt('KEEP-1', '2')).toMatchObject({ hkmCode: 6602, sse: 'SSE/SAME' });
    expect(await curveAt('KEEP-1', '3')).toMatchObject({ hkmCode: null, sse: 'SSE/ADDED', comments: null });
    // A column present with an empty cell clears the value.
    const clearing = csv([...KEY_HEADER, 'Comments'], [curveRow('KEEP-1', '1', { Comments: '' })]);
    expect(await importOk({ type: 'curves', bytes: clearing })).toMatchObject({ changed: 1 });
    expect(await curveAt('KEEP-1', '1')).toMatchObject({ comments: null, sse: 'SSE/NEW', hkmCode: 6601 });
  });

  it('loads a register of 3,000 curves, then the same file again unchanged, then one change', async () => {
    const rows = (sse: (i: number) => string) =>
      Array.from({ length: 3000 }, (_, i) => curveRow(`BULK-${i % 7}`, String(i), { No: i + 1, 'HKM Code': 100_000 + i, 'Station 1': `Station ${i}`, SSE: sse(i) }));
    const file = csv(CURVE_HEADER, rows(() => 'SSE/BULK'));
    const before = await curveCount();
    expect(await importOk({ type: 'curves', bytes: file, fileName: 'bulk.csv' })).toMatchObject({ valid: true, count: 3000, added: 3000, changed: 0, unchanged: 0 });
    expect(await curveCount()).toBe(before + 3000);
    expect(await importOk({ type: 'curves', bytes: file, fileName: 'bulk.csv', dryRun: true })).toMatchObject({ valid: true, added: 0, unchanged: 3000 });
    expect(await importOk({ type: 'curves', bytes: file, fileName: 'bulk.csv' })).toMatchObject({ valid: true, added: 0, changed: 0, unchanged: 3000 });
    const oneChanged = csv(CURVE_HEADER, rows((i) => (i === 2999 ? 'SSE/LAST' : 'SSE/BULK')));
    expect(await importOk({ type: 'curves', bytes: oneChanged, fileName: 'bulk.csv' })).toMatchObject({ added: 0, changed: 1, unchanged: 2999 });
    expect(await curveAt(`BULK-${2999 % 7}`, '2999')).toMatchObject({ sse: 'SSE/LAST', hkmCode: 102_999 });
    expect(await curveCount()).toBe(before + 3000);
  });

  it('swaps the HKM codes of two curves listed in one file', async () => {
    await importOk({ type: 'curves', bytes: csv(CURVE_HEADER, [curveRow('SWAP-1', 'A', { 'HKM Code': 6701 }), curveRow('SWAP-1', 'B', { 'HKM Code': 6702 })]) });
    const swapped = csv(CURVE_HEADER, [curveRow('SWAP-1', 'A', { 'HKM Code': 6702 }), curveRow('SWAP-1', 'B', { 'HKM Code': 6701 })]);
    expect(await importOk({ type: 'curves', bytes: swapped })).toMatchObject({ count: 2, added: 0, changed: 2, unchanged: 0 });
    expect((await curveAt('SWAP-1', 'A'))?.hkmCode).toBe(6702);
    expect((await curveAt('SWAP-1', 'B'))?.hkmCode).toBe(6701);
    // A code moving to a new curve of the file while its old curve gives it up.
    const moved = csv(CURVE_HEADER, [curveRow('SWAP-1', 'A', { 'HKM Code': '' }), curveRow('SWAP-1', 'C', { 'HKM Code': 6702 })]);
    expect(await importOk({ type: 'curves', bytes: moved })).toMatchObject({ added: 1, changed: 1 });
    expect((await curveAt('SWAP-1', 'A'))?.hkmCode).toBeNull();
    expect((await curveAt('SWAP-1', 'C'))?.hkmCode).toBe(6702);
  });
});

describe('dry run', () => {
  it('reports what an import would do and writes nothing; the real import then does exactly that', async () => {
    await importOk({ type: 'curves', bytes: csv(CURVE_HEADER, [curveRow('DRY-1', '1', { 'HKM Code': 6801 }), curveRow('DRY-1', '2')]) });
    const file = csv([...CURVE_HEADER, 'Notes'], [
      curveRow('DRY-1', '1', { 'HKM Code': 6801 }),
      curveRow('DRY-1', '2', { SSE: 'SSE/DRY' }),
      curveRow('DRY-1', '3'),
    ]);
    const [before, audits] = [await curveSnapshot(), await auditSnapshot()];
    const dry = await importOk({ type: 'curves', bytes: file, dryRun: true });
    expect(dry).toEqual({ type: 'curves', dryRun: true, valid: true, count: 3, added: 1, changed: 1, unchanged: 1, unknownColumns: ['Notes'], rowErrors: [] });
    expect(await curveSnapshot()).toEqual(before);
    expect(await auditSnapshot()).toEqual(audits);

    const real = await importOk({ type: 'curves', bytes: file });
    expect(real).toEqual({ ...dry, dryRun: false });
    expect(await curveAt('DRY-1', '3')).toBeDefined();
  });

  it('answers 200 with valid false and the same row errors a real import answers 400 with', async () => {
    await importOk({ type: 'curves', bytes: csv(CURVE_HEADER, [curveRow('DRY-2', 'holder', { 'HKM Code': 6901 })]) });
    const before = await curveSnapshot();
    const rowFile = csv(CURVE_HEADER, [curveRow('DRY-2B', '1'), curveRow('DRY-2B', '2', { Line: 'Sideways' }), curveRow('DRY-2B', '1')]);
    const dry = await importOk({ type: 'curves', bytes: rowFile, dryRun: true });
    const real = await importFails({ type: 'curves', bytes: rowFile }, 400, 'IMPORT_ROWS_INVALID');
    expect(dry).toMatchObject({ dryRun: true, valid: false, count: 1, added: 1 });
    expect(dry.rowErrors).toEqual([
      { row: 3, column: 'Line', message: 'Please select a line' },
      { row: 4, column: 'Section, Curve Number, Line', message: 'Curve 1 (Up) in section DRY-2B is also in row 2' },
    ]);
    expect(real.rowErrors).toEqual(dry.rowErrors);

    // Errors against the register (an HKM code held by another curve) too.
    const codeFile = csv(CURVE_HEADER, [curveRow('DRY-2C', '1', { 'HKM Code': 6901 })]);
    const dryCode = await importOk({ type: 'curves', bytes: codeFile, dryRun: true });
    const realCode = await importFails({ type: 'curves', bytes: codeFile }, 400, 'IMPORT_ROWS_INVALID');
    expect(dryCode).toMatchObject({ valid: false, count: 1, added: 1 });
    expect(dryCode.rowErrors).toEqual([
      { row: 2, column: 'HKM Code', message: 'HKM code 6901 is already used by curve holder (Up) in section DRY-2, which this file does not change' },
    ]);
    expect(realCode.rowErrors).toEqual(dryCode.rowErrors);
    expect(await curveSnapshot()).toEqual(before);
  });

  it('refuses a dryRun that is not true or false', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/import-excel?dryRun=maybe',
      headers: { cookie: admin },
      payload: importForm({ type: 'curves', bytes: csv(KEY_HEADER, [curveRow('DRY-3', '1')]) }),
    });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).fields).toEqual({ dryRun: 'dryRun must be true or false' });
    expect(await curveAt('DRY-3', '1')).toBeUndefined();
  });
});

describe('XLSX files', () => {
  it('imports the export of the register back unchanged', async () => {
    // Values that could drift on the way: nulls, decimals, leading zeros, line breaks, formulas-looking text, Devanagari.
    const file = csv(CURVE_HEADER, [
      curveRow('XLSX-1', '0012', { 'HKM Code': 7001, Degree: '0.5', 'Station 1': '=HYPERLINK("http://x","y")', 'Station 2': '+91 Halt', Comments: 'line one\nline two' }),
      curveRow('XLSX-1', '660/10-661/7', { No: 2, Line: 'Single', 'Km From': 0, 'Met From': 0, DEN: '-DEN-', AEN: '@aen', SSE: 'रेलपथ' }),
      curveRow('XLSX-1', '1E3', { No: 3, Degree: '999.99', Comments: '  spaced  ' }),
      // A Windows line break inside a cell: stored as LF, the only break an XLSX cell keeps.
      curveRow('XLSX-1', '4', { No: 4, Comments: 'windows\r\nbreak\rold mac' }),
    ]);
    await importOk({ type: 'curves', bytes: file });
    expect(await curveAt('XLSX-1', '4')).toMatchObject({ comments: 'windows\nbreak\nold mac' });
    const before = await curveSnapshot();
    const total = before.length;

    const exported = await t.app.inject({ method: 'GET', url: '/api/export/curves', headers: { cookie: admin } });
    expect(exported.statusCode).toBe(200);
    const mark = await lastAuditId();
    const result = await importOk({ type: 'curves', bytes: exported.rawPayload, fileName: 'Curve_Details.xlsx' });
    expect(result).toEqual({ type: 'curves', dryRun: false, valid: true, count: total, added: 0, changed: 0, unchanged: total, unknownColumns: [], rowErrors: [] });
    expect(await curveSnapshot()).toEqual(before);
    expect((await auditSince(mark)).map((a) => a.entity)).toEqual(['register-import']);
  });

  it('imports the station export back unchanged', async () => {
    await importOk({
      type: 'stations',
      bytes: csv(STATION_HEADER, [
        { No: 1, 'Station Name': '=SUM(1,2)', 'Station Code': '001', Section: 'XLSX-S', 'Division/Railway': 'RTM/WR' },
        { No: 2, 'Station Name': 'रतलाम', 'Station Code': 'RTM', Section: 'XLSX-S', 'Division/Railway': 'RTM/WR' },
      ]),
    });
    const before = await stationSnapshot();
    const exported = await t.app.inject({ method: 'GET', url: '/api/export/stations', headers: { cookie: admin } });
    expect(exported.statusCode).toBe(200);
    const result = await importOk({ type: 'stations', bytes: exported.rawPayload, fileName: 'Station_Details.xlsx' });
    expect(result).toMatchObject({ valid: true, count: before.length, added: 0, changed: 0, unchanged: before.length });
    expect(await stationSnapshot()).toEqual(before);
  });

  it("reads an officer's workbook: numbers, a formula's value, and names an error cell's row", async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['No.', 'HKM', 'Division', 'Section', 'Curve No', 'Line', 'Station 1'],
      [1, 7101, 'NDLS/NR', 'XLSX-2', '1', 'UP', 'New Delhi'],
      [2, null, 'NDLS/NR', 'XLSX-2', 2, 'DN', 'Shahdara'],
    ]);
    // A formula with its cached value, and an error value (#N/A).
    sheet.B3 = { t: 'n', v: 7102, f: 'B2+1' };
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Curves');
    const good = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    expect(await importOk({ type: 'curves', bytes: good, fileName: 'officer.xlsx' })).toMatchObject({ valid: true, count: 2, added: 2 });
    expect(await curveAt('XLSX-2', '1')).toMatchObject({ hkmCode: 7101, divisionRailway: 'NDLS/NR', station1: 'New Delhi' });
    expect(await curveAt('XLSX-2', '2', 'Down')).toMatchObject({ hkmCode: 7102, station1: 'Shahdara' });

    sheet.G3 = { t: 'e', v: 0x2a };
    const broken = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    const before = await curveSnapshot();
    const error = await importFails({ type: 'curves', bytes: broken, fileName: 'officer.xlsx' }, 400, 'IMPORT_ROWS_INVALID');
    expect(error.rowErrors).toEqual([{ row: 3, column: 'Station 1', message: 'The cell holds the error value #N/A' }]);
    expect(await curveSnapshot()).toEqual(before);
  });

  it('answers 400 for a damaged XLSX', async () => {
    const bytes = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    const error = await importFails({ type: 'curves', bytes, fileName: 'broken.xlsx' }, 400, 'IMPORT_FILE_INVALID');
    expect(error.fields?.file).toBeDefined();
  });
});

describe('files that are refused', () => {
  it('answers 413 IMPORT_FILE_TOO_LARGE for a file over 10 MB; a file of exactly 10 MB is read', async () => {
    const start = Buffer.from('No,Division/Railway,Section,Curve Number,Line,Comments\r\n1,RTM/WR,BIG-1,1,Up,x');
    // Trailing spaces of the last cell are trimmed away: the file's size is all that matters.
    const exactly = Buffer.concat([start, Buffer.alloc(IMPORT_MAX_BYTES - start.length, ' ')]);
    expect(exactly.length).toBe(IMPORT_MAX_BYTES);
    const over = Buffer.concat([exactly, Buffer.from(' ')]);

    const before = await curveCount();
    const error = await importFails({ type: 'curves', bytes: over }, 413, 'IMPORT_FILE_TOO_LARGE');
    expect(error.message).toBe('The file is larger than 10 MB; split it into smaller sheets');
    expect(await curveCount()).toBe(before);

    expect(await importOk({ type: 'curves', bytes: exactly })).toMatchObject({ count: 1, added: 1 });
    expect(await curveAt('BIG-1', '1')).toMatchObject({ comments: 'x' });
  });

  it(`answers 400 for more than ${IMPORT_MAX_ROWS} data rows; ${IMPORT_MAX_ROWS} are read`, async () => {
    const header = 'No,Division/Railway,Section,Curve Number,Line';
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1},RTM/WR,MANY-1,${i + 1},Up`);
    const before = await curveCount();
    const tooMany = Buffer.from([header, ...rows(IMPORT_MAX_ROWS + 1)].join('\n'));
    const error = await importFails({ type: 'curves', bytes: tooMany }, 400, 'VALIDATION_FAILED');
    expect(error.message).toBe(`The file has ${IMPORT_MAX_ROWS + 1} data rows; at most ${IMPORT_MAX_ROWS} are imported at once`);
    expect(await curveCount()).toBe(before);

    const enough = Buffer.from([header, ...rows(IMPORT_MAX_ROWS)].join('\n'));
    expect(await importOk({ type: 'curves', bytes: enough, dryRun: true })).toMatchObject({ valid: true, count: IMPORT_MAX_ROWS, added: IMPORT_MAX_ROWS });
    expect(await curveCount()).toBe(before);
  });

  it('answers 400 for a legacy .xls workbook, naming the formats it reads', async () => {
    const xls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
    const error = await importFails({ type: 'curves', bytes: xls, fileName: 'curves.xls' }, 400, 'IMPORT_FILE_INVALID');
    expect(error.message).toContain('.xls');
    expect(error.message).toContain('.xlsx');
  });

  it('answers 400 for text that is not UTF-8 (a CSV saved in a legacy code page)', async () => {
    const latin1 = Buffer.from('No,Division/Railway,Section,Curve Number,Line\r\n1,RTM/WR,Caf\xe9,1,Up\r\n', 'latin1');
    const before = await curveCount();
    const error = await importFails({ type: 'curves', bytes: latin1 }, 400, 'IMPORT_FILE_INVALID');
    expect(error.message).toContain('UTF-8');
    expect(await curveCount()).toBe(before);
  });

  it('answers 400 for an empty file and for a CSV with an unclosed quote', async () => {
    expect((await importFails({ type: 'curves', bytes: Buffer.alloc(0) }, 400, 'IMPORT_FILE_INVALID')).message).toBe('The file is empty');
    const unclosed = Buffer.from('No,Division/Railway,Section,Curve Number,Line\n1,RTM/WR,"QUOTE-1,1,Up\n');
    await importFails({ type: 'curves', bytes: unclosed }, 400, 'IMPORT_FILE_INVALID');
    expect(await curvesOfSection('QUOTE-1')).toEqual([]);
  });

  it('answers 400 naming type when it is missing or not curves or stations', async () => {
    const bytes = csv(KEY_HEADER, [curveRow('TYPE-1', '1')]);
    const missing = await importFails({ bytes }, 400, 'VALIDATION_FAILED');
    expect(missing).toMatchObject({ message: 'type: type is required (curves or stations)', fields: { type: 'type is required (curves or stations)' } });
    const wrong = await importFails({ type: 'inspections', bytes }, 400, 'VALIDATION_FAILED');
    expect(wrong.fields).toEqual({ type: 'type must be curves or stations, not "inspections"' });
    expect(await curvesOfSection('TYPE-1')).toEqual([]);
  });

  it('answers 400 naming file when there is none', async () => {
    const error = await importFails({ type: 'curves' }, 400, 'VALIDATION_FAILED');
    expect(error).toMatchObject({ message: 'file: file is required', fields: { file: 'file is required' } });
  });

  it('answers 415 for a body that is not multipart', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/import-excel', headers: { cookie: admin }, payload: { type: 'curves' } });
    expect(response.statusCode).toBe(415);
    expect(errorOf(response).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('is refused to anonymous callers (401), Technicians and Clients (403), writing nothing', async () => {
    const bytes = csv(KEY_HEADER, [curveRow('ROLE-1', '1')]);
    const [before, audits] = [await curveSnapshot(), await auditSnapshot()];
    expect((await importRequest({ type: 'curves', bytes, cookie: null })).statusCode).toBe(401);
    expect((await importRequest({ type: 'curves', bytes, cookie: technician })).statusCode).toBe(403);
    expect((await importRequest({ type: 'curves', bytes, cookie: client })).statusCode).toBe(403);
    expect((await importRequest({ type: 'curves', bytes, cookie: client, dryRun: true })).statusCode).toBe(403);
    expect(await curveSnapshot()).toEqual(before);
    expect(await auditSnapshot()).toEqual(audits);
  });
});

describe('files that unpack to far more than they are', () => {
  /** 600,000 rows of 25 cells: under 4 MB, 245 MB unpacked; exceljs would build all 15 million cells. */
  let bomb: Promise<Buffer> | undefined;
  const theBomb = () => (bomb ??= workbookOf({ rows: numberRows(600_000, 25) }));
  const MB = 1024 * 1024;
  const tooManyRows = `The file has more than ${IMPORT_MAX_ROWS} data rows; at most ${IMPORT_MAX_ROWS} are imported at once`;

  const listCurves = async () => {
    const listed = await t.app.inject({ method: 'GET', url: '/api/consolidated-curves', headers: { cookie: technician } });
    expect(listed.statusCode).toBe(200);
    return curveListResponseSchema.parse(listed.json()).curves;
  };

  /** The import is refused, writes nothing, and the server answers the next request as before. */
  async function refusedAndServing(upload: Upload, status: number, code: string) {
    const [before, audits, listed] = [await curveSnapshot(), await auditSnapshot(), await listCurves()];
    const error = await importFails(upload, status, code);
    expect(await curveSnapshot()).toEqual(before);
    expect(await auditSnapshot()).toEqual(audits);
    expect(await listCurves()).toEqual(listed);
    return error;
  }

  it('answers 413 naming the unpacked limit for a workbook under 10 MB that unpacks to hundreds of MB', async () => {
    const bytes = await theBomb();
    expect(bytes.length).toBeLessThan(IMPORT_MAX_BYTES);
    const error = await refusedAndServing({ type: 'curves', bytes, fileName: 'bomb.xlsx' }, 413, 'IMPORT_FILE_TOO_LARGE');
    expect(error.message).toBe(`The workbook unpacks to more than ${WORKBOOK_LIMITS.unpackedBytes / MB} MB; split it into smaller sheets`);
  });

  it('answers 400 for a workbook whose zip directory understates how large its sheet unpacks', async () => {
    const bytes = understateSize(await theBomb(), SHEET_PART, 64 * 1024);
    const error = await refusedAndServing({ type: 'curves', bytes, fileName: 'lying.xlsx' }, 400, 'IMPORT_FILE_INVALID');
    expect(error.message).toBe('The file looks like an XLSX workbook but cannot be read: a part of it unpacks to more bytes than the workbook states');
  });

  it(`answers 400 naming the row limit for a workbook of 600,000 rows that unpacks within its limit`, async () => {
    const bytes = await workbookOf({ rows: numberRows(600_000, 1) });
    const error = await refusedAndServing({ type: 'curves', bytes, fileName: 'rows.xlsx' }, 400, 'VALIDATION_FAILED');
    expect(error).toMatchObject({ message: tooManyRows, fields: { file: `at most ${IMPORT_MAX_ROWS} data rows` } });
  });

  it('answers 400 naming the row limit for a CSV of 600,000 rows', async () => {
    const bytes = Buffer.from(`${KEY_HEADER.join(',')}\n${'1,RTM/WR,B,1,Up\n'.repeat(600_000)}`);
    expect(bytes.length).toBeLessThan(IMPORT_MAX_BYTES);
    const error = await refusedAndServing({ type: 'curves', bytes, fileName: 'rows.csv' }, 400, 'VALIDATION_FAILED');
    expect(error).toMatchObject({ message: tooManyRows, fields: { file: `at most ${IMPORT_MAX_ROWS} data rows` } });
  });

  it('answers 413 for a few KB of workbook that exceljs would expand into millions of cells', async () => {
    const header = () => textRows([[...KEY_HEADER]]);
    const { cells, merges } = WORKBOOK_LIMITS;
    const spans = `The workbook spans more than ${cells} cells (rows to their last cell, merged cells, data validation and named ranges); remove data validation from whole columns, or save the sheet as CSV UTF-8`;
    const farRight = function* () {
      yield* header();
      for (let r = 2; r <= 200; r++) yield `<row r="${r}"><c r="XFD${r}"><v>1</v></c></row>`;
    };
    const manyMerges = Array.from({ length: merges + 1 }, (_, i) => `<mergeCell ref="F${i + 2}:G${i + 2}"/>`).join('');
    const cases = [
      { what: 'a merged range', xml: { rows: header(), afterRows: '<mergeCells count="1"><mergeCell ref="A2:XFD1048576"/></mergeCells>' }, message: spans },
      {
        what: 'a data validation range',
        xml: { rows: header(), afterRows: '<dataValidations count="1"><dataValidation type="list" sqref="A2:XFD1048576"><formula1>"Up,Down"</formula1></dataValidation></dataValidations>' },
        message: spans,
      },
      { what: 'a named range', xml: { rows: header(), definedNames: '<definedNames><definedName name="All">Curves!$A$1:$XFD$1048576</definedName></definedNames>' }, message: spans },
      { what: 'a column range', xml: { rows: header(), cols: '<cols><col min="1" max="2000000000" width="9"/></cols>' }, message: spans },
      { what: 'rows whose one cell is in the last column', xml: { rows: farRight() }, message: spans },
      {
        what: 'merged ranges each checked against all before it',
        xml: { rows: header(), afterRows: `<mergeCells count="${merges + 1}">${manyMerges}</mergeCells>` },
        message: `The workbook has more than ${merges} merged ranges; unmerge them, or save the sheet as CSV UTF-8`,
      },
    ];
    for (const { what, xml, message } of cases) {
      const bytes = await workbookOf(xml);
      expect(bytes.length, what).toBeLessThan(64 * 1024);
      const error = await refusedAndServing({ type: 'curves', bytes, fileName: 'small.xlsx' }, 413, 'IMPORT_FILE_TOO_LARGE');
      expect(error.message, what).toBe(message);
    }
  });

  const registerRows = (n: number) => [[...KEY_HEADER], ...Array.from({ length: n }, (_, i) => [String(i + 1), 'RTM/WR', 'WIDE-1', String(i + 1), 'Up'])];

  it(`reads a workbook of ${IMPORT_MAX_ROWS} rows, and names one of ${IMPORT_MAX_ROWS + 1} by its count`, async () => {
    const enough = await workbookOf({ rows: textRows(registerRows(IMPORT_MAX_ROWS)) });
    expect(await importOk({ type: 'curves', bytes: enough, fileName: 'enough.xlsx', dryRun: true })).toMatchObject({ valid: true, count: IMPORT_MAX_ROWS });
    const oneOver = await workbookOf({ rows: textRows(registerRows(IMPORT_MAX_ROWS + 1)) });
    const error = await importFails({ type: 'curves', bytes: oneOver, fileName: 'over.xlsx' }, 400, 'VALIDATION_FAILED');
    expect(error.message).toBe(`The file has ${IMPORT_MAX_ROWS + 1} data rows; at most ${IMPORT_MAX_ROWS} are imported at once`);
    expect(await curvesOfSection('WIDE-1')).toEqual([]);
  });

  it('reads a workbook with a list of lines down a whole column, as Excel writes one', async () => {
    const bytes = await workbookOf({
      rows: textRows(registerRows(3)),
      afterRows: '<dataValidations count="1"><dataValidation type="list" sqref="E2:E1048576"><formula1>"Up,Down,Single"</formula1></dataValidation></dataValidations>',
    });
    expect(await importOk({ type: 'curves', bytes, fileName: 'listed.xlsx' })).toMatchObject({ valid: true, count: 3, added: 3 });
    expect((await curvesOfSection('WIDE-1')).map((c) => c.curveNumber)).toEqual(['1', '2', '3']);
  });
});

describe('importing stations', () => {
  const stationRow = (section: string, code: string, extra: Record<string, Cell> = {}): Record<string, Cell> => ({
    No: 1,
    'Station Name': `Station ${code}`,
    'Station Code': code,
    Section: section,
    'Division/Railway': 'FZR/NR',
    ...extra,
  });
  const stationsOf = (section: string) => t.database.db.select().from(stations).where(eq(stations.section, section)).orderBy(stations.no, stations.id);

  it('adds stations keyed by section and code, idempotently, and counts a changed name', async () => {
    const file = csv(STATION_HEADER, [
      stationRow('ST-1', 'FZR', { 'Station Name': 'Firozpur, Cantt' }),
      stationRow('ST-1', 'FKA', { No: 2, 'Station Name': 'फाजिल्का\nJn' }),
      stationRow('ST-2', 'FZR', { 'Division/Railway': 'NDLS/NR' }),
    ]);
    expect(await importOk({ type: 'stations', bytes: file, fileName: 'stations.csv' })).toEqual({
      type: 'stations',
      dryRun: false,
      valid: true,
      count: 3,
      added: 3,
      changed: 0,
      unchanged: 0,
      unknownColumns: [],
      rowErrors: [],
    });
    expect((await stationsOf('ST-1')).map((s) => [s.no, s.stationCode, s.stationName, s.divisionRailway])).toEqual([
      [1, 'FZR', 'Firozpur, Cantt', 'FZR/NR'],
      [2, 'FKA', 'फाजिल्का Jn', 'FZR/NR'],
    ]);
    expect(await stationsOf('ST-2')).toMatchObject([{ stationCode: 'FZR', divisionRailway: 'NDLS/NR' }]);

    const stored = await stationSnapshot();
    const mark = await lastAuditId();
    expect(await importOk({ type: 'stations', bytes: file })).toMatchObject({ count: 3, added: 0, changed: 0, unchanged: 3 });
    expect(await stationSnapshot()).toEqual(stored);
    expect((await auditSince(mark)).map((a) => [a.action, a.entity])).toEqual([['station.import', 'register-import']]);

    const renamed = csv(STATION_HEADER, [stationRow('ST-1', 'FZR', { 'Station Name': 'Firozpur Cantt' })]);
    expect(await importOk({ type: 'stations', bytes: renamed })).toMatchObject({ count: 1, added: 0, changed: 1, unchanged: 0 });
    expect((await stationsOf('ST-1'))[0]).toMatchObject({ stationCode: 'FZR', stationName: 'Firozpur Cantt' });
    const audits = await auditSince(mark);
    expect(audits.filter((a) => a.entity === 'station')).toMatchObject([
      { action: 'station.import', entityId: 'ST-1/FZR', before: { stationName: 'Firozpur, Cantt' }, after: { stationName: 'Firozpur Cantt' } },
    ]);
  });

  it('names a key used twice in the file and bad cells by row, writing nothing', async () => {
    const before = await stationSnapshot();
    const file = csv(STATION_HEADER, [
      stationRow('ST-3', 'AAA'),
      stationRow('ST-3', 'BBB', { 'Division/Railway': 'Northern' }),
      stationRow('ST-3', 'AAA', { No: 3 }),
      stationRow('ST-3', 'C'.repeat(21)),
    ]);
    const error = await importFails({ type: 'stations', bytes: file }, 400, 'IMPORT_ROWS_INVALID');
    expect(error.rowErrors).toEqual([
      { row: 3, column: 'Division/Railway', message: 'Division/Railway must be one of RTM/WR, FZR/NR, BRC/WR, NDLS/NR, JBP/WCR' },
      { row: 4, column: 'Section, Station Code', message: 'Station Station AAA (AAA) in section ST-3 is also in row 2' },
      { row: 5, column: 'Station Code', message: 'Station code must be at most 20 characters' },
    ]);
    expect(await stationSnapshot()).toEqual(before);

    const dry = await importOk({ type: 'stations', bytes: file, dryRun: true });
    expect(dry).toMatchObject({ type: 'stations', dryRun: true, valid: false, count: 1, added: 1 });
    expect(dry.rowErrors).toEqual(error.rowErrors);
    expect(await stationSnapshot()).toEqual(before);
  });

  it('names the station columns a file lacks, and matches their headers loosely', async () => {
    const error = await importFails({ type: 'stations', bytes: csv(['No', 'Name', 'Section'], [{ No: 1, Name: 'X', Section: 'ST-4' }]) }, 400, 'IMPORT_FILE_INVALID');
    expect(error.message).toBe('The first row must name the columns Station Code, Division/Railway (found: No, Name, Section)');

    const loose = csv(['no', 'station_name', 'STATION CODE', 'section', 'division'], [{ no: 1, station_name: 'Abohar', 'STATION CODE': 'ABS', section: 'ST-4', division: 'FZR/NR' }]);
    expect(await importOk({ type: 'stations', bytes: loose })).toMatchObject({ added: 1, unknownColumns: [] });
    expect(await stationsOf('ST-4')).toMatchObject([{ stationName: 'Abohar', stationCode: 'ABS' }]);
  });

  it('is refused to Technicians and Clients', async () => {
    const bytes = csv(STATION_HEADER, [stationRow('ST-5', 'ZZZ')]);
    expect((await importRequest({ type: 'stations', bytes, cookie: technician })).statusCode).toBe(403);
    expect((await importRequest({ type: 'stations', bytes, cookie: client })).statusCode).toBe(403);
    expect((await importRequest({ type: 'stations', bytes, cookie: null })).statusCode).toBe(401);
    expect(await stationsOf('ST-5')).toEqual([]);
  });
});
