/**
 * GET /api/machine-report?den=&aen= and GET /api/download/{reportId} (issue 13): the machine
 * rollout report, one row per curve record in register order with its stage entries (an
 * Excel date where the entry is a date, else its text), the HKM code of its register entry
 * (whichever way the line is spelt in either table) and the controller mapped to that code.
 * Every row of the workbook (read back with exceljs) is compared with the rows inserted here.
 */
import { count, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageEntry } from '../../../common/rules/rollout.js';
import { type MachineReportResponse, machineReportResponseSchema, machineStatsResponseSchema, machineFiltersResponseSchema } from '../../../common/schemas/machines.js';
import { consolidatedCurveDetails, curveRecords, hkmControllerMapping, reports } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_FZR, CLIENT_NO_DIVISION, CLIENT_RTM, TECHNICIAN, createAndSignIn, errorOf } from '../../test/factories.js';
import { bi } from '../../test/bilingual.js';
import { readWorkbook, type ReadSheet, valuesOf } from '../../test/xlsx.js';

/** 01:30 on 2026-11-24 in Kolkata, still the 23rd in UTC: the file is named for the app's day. */
const NOW = new Date('2026-11-23T20:00:00Z');
const TODAY = '2026-11-24';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The spec's column titles, each written in both languages (bi). */
const HEADER = [
  'No.',
  'Division',
  'Section',
  'Curve',
  'Line',
  'Phase',
  'DEN',
  'AEN',
  'SSE',
  'Foundation',
  'Machine installed',
  'Commissioned',
  'HKM code',
  'Controller number',
];

let t: TestApp;
let admin: string;
let technician: string;
let clientRtm: string;
let clientFzr: string;
let clientNone: string;

interface Curve {
  id: number;
  no: number;
  division: string;
  section: string;
  curveNumber: string;
  line: string;
  phase: string | null;
  den: string | null;
  aen: string | null;
  sse: string | null;
  foundation: string | null;
  machine: string | null;
  commissioned: string | null;
}

/** What curve_records holds, as written here (ids from the database). */
let curves: Curve[] = [];

/** The register (consolidated_curve_details): section, curve, line as the register spells it, HKM code. */
const REGISTER: Array<[section: string, curveNumber: string, line: string, hkmCode: number | null]> = [
  ['RTM-NAD', '12', 'Up', 5012],
  ['RTM-NAD', '11', 'Down', 5011],
  // The register may spell the line as the sheet's code too.
  ['RTM-NAD', '13', 'UP', 5013],
  ['RTM-VRL', '21', 'Single', 5021],
  // Curve 22 of RTM-VRL is on the Down line in the register, the Up line in the rollout: no match.
  ['RTM-VRL', '22', 'Down', 5022],
  // The same curve and line in another section: no match either.
  ['RTM-NAD', '22', 'Up', 5099],
  ['FZR-JUC', '31', 'Single', 6031],
  ['FZR-JUC', '32', 'SL', 6032],
  // A register curve without an HKM code.
  ['FZR-JUC', '33', 'Single', null],
];

/** hkm_controller_mapping: code -> controller number (5011 has none). */
let controllers = new Map<number, number>([
  [5012, 77],
  [5013, 78],
  [5021, 79],
  [5022, 80],
  [5099, 81],
  [6031, 90],
  [6032, 91],
]);

type NewCurve = Omit<Curve, 'id'>;
const curve = (c: Partial<NewCurve> & Pick<NewCurve, 'no' | 'division' | 'section' | 'curveNumber' | 'line'>): NewCurve => ({
  phase: null,
  den: null,
  aen: null,
  sse: null,
  foundation: null,
  machine: null,
  commissioned: null,
  ...c,
});

/** Inserted out of register order, so the sheet's order is the report's doing. */
const FIXTURE: NewCurve[] = [
  curve({ no: 2, division: 'RTM/WR', section: 'RTM-NAD', curveNumber: '12', line: 'UP', phase: 'I', den: 'Sr.DEN/RTM', aen: 'AEN/NAD', sse: 'SSE/NAD', foundation: '14.03.2025', machine: '2025-04-02', commissioned: 'Pending' }),
  curve({ no: 1, division: 'RTM/WR', section: 'RTM-NAD', curveNumber: '13', line: 'Up', den: 'Sr.DEN/RTM', aen: 'AEN/RTM', sse: 'SSE/NAD', foundation: '31.02.2025', machine: '  ', commissioned: 'completed' }),
  curve({ no: 1, division: 'RTM/WR', section: 'RTM-NAD', curveNumber: '11', line: 'DN', phase: 'I', den: 'Sr.DEN/RTM', aen: 'AEN/NAD', foundation: 'Done', commissioned: '' }),
  curve({ no: 2, division: 'FZR/NR', section: 'FZR-JUC', curveNumber: '32', line: 'Single', den: 'DEN/FZR', aen: 'AEN/JUC', sse: 'SSE/FZR' }),
  curve({ no: 1, division: 'RTM/WR', section: 'RTM-VRL', curveNumber: '21', line: 'SL', phase: 'II', den: 'Sr.DEN/RTM', sse: 'SSE/VRL', foundation: '20-Mar-2025', machine: '21/03/2025', commissioned: '22-03-2025' }),
  curve({ no: 2, division: 'RTM/WR', section: 'RTM-VRL', curveNumber: '22', line: 'Up', den: 'DEN/SHARED', aen: 'AEN/S1', foundation: 'Pending', machine: 'Pending', commissioned: 'Pending' }),
  curve({ no: 1, division: 'FZR/NR', section: 'FZR-JUC', curveNumber: '31', line: 'SL', phase: 'I', den: 'DEN/FZR', aen: 'AEN/FZR', foundation: '1-Apr-2025', machine: 'YES', commissioned: null }),
  curve({ no: 3, division: 'FZR/NR', section: 'FZR-JUC', curveNumber: '33', line: 'SL', den: 'DEN/FZR', aen: 'AEN/FZR', foundation: '2025-07-01', machine: '02.07.2025', commissioned: 'Yes' }),
  curve({ no: 1, division: 'BRC/WR', section: 'BRC-GDA', curveNumber: '41', line: 'UP', den: 'DEN/SHARED', aen: 'AEN/S2', sse: 'SSE/GDA', foundation: ' 10.10.2025 ', machine: 'Done ', commissioned: 'Pending' }),
  // Text that looks like a formula stays text.
  curve({ no: 3, division: 'BRC/WR', section: 'BRC-GDA', curveNumber: '43', line: 'DN', foundation: 'In progress', machine: '0', commissioned: '=SUM(A1:A9)' }),
];

// ---------------------------------------------------------------------------------------------

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** The curves of a scope in register order: division, section, No., then id. */
function inScope(where: { division?: string; den?: string; aen?: string }): Curve[] {
  return curves
    .filter(
      (c) =>
        (where.division === undefined || c.division === where.division) &&
        (where.den === undefined || c.den?.trim() === where.den) &&
        (where.aen === undefined || c.aen?.trim() === where.aen),
    )
    .sort((a, b) => cmp(a.division, b.division) || cmp(a.section, b.section) || a.no - b.no || a.id - b.id);
}

const LINE_OF: Record<string, string> = { UP: 'Up', DN: 'Down', SL: 'Single', DOWN: 'Down', SINGLE: 'Single' };
const lineOf = (line: string) => LINE_OF[line.trim().toUpperCase()] ?? line;

function hkmOf(c: Curve): number | null {
  const entry = REGISTER.find(([section, curveNumber, line]) => section === c.section && curveNumber === c.curveNumber && lineOf(line) === lineOf(c.line));
  return entry?.[3] ?? null;
}

const text = (value: string | null) => (value === null || value === '' ? null : value);

/** A stage's cell: an Excel date (read as a UTC midnight Date) for a date entry, else the entry, blank as 'Pending'. */
function stageCell(entry: string | null): unknown {
  const on = stageEntry(entry).on;
  return on ? new Date(`${on}T00:00:00Z`) : entry?.trim() || 'Pending';
}

function expectedRow(c: Curve): unknown[] {
  const hkm = hkmOf(c);
  return [
    c.no,
    c.division,
    c.section,
    c.curveNumber,
    c.line,
    text(c.phase),
    text(c.den),
    text(c.aen),
    text(c.sse),
    stageCell(c.foundation),
    stageCell(c.machine),
    stageCell(c.commissioned),
    hkm,
    hkm === null ? null : (controllers.get(hkm) ?? null),
  ];
}

// ---------------------------------------------------------------------------------------------

const headersOf = (cookie?: string) => (cookie ? { cookie } : {});
const query = (params: Record<string, string | undefined>) => {
  const defined = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
  return defined.length === 0 ? '' : `?${new URLSearchParams(defined).toString()}`;
};
const ask = (cookie: string | undefined, where: { den?: string; aen?: string } = {}) =>
  t.app.inject({ method: 'GET', url: `/api/machine-report${query(where)}`, headers: headersOf(cookie) });
const fetchFile = (reportId: string, cookie?: string, prefix = '/api/download') =>
  t.app.inject({ method: 'GET', url: `${prefix}/${reportId}`, headers: headersOf(cookie) });

async function generate(cookie: string, where: { den?: string; aen?: string } = {}): Promise<MachineReportResponse> {
  const response = await ask(cookie, where);
  expect(response.statusCode, response.body).toBe(200);
  return machineReportResponseSchema.parse(response.json());
}

function fileNameOf(response: LightMyRequestResponse): string {
  const match = /^attachment; filename="([^"]+)"$/.exec(String(response.headers['content-disposition']));
  expect(match, String(response.headers['content-disposition'])).not.toBeNull();
  return match?.[1] ?? '';
}

async function download(reportId: string, cookie: string, prefix?: string): Promise<{ fileName: string; sheets: ReadSheet[]; bytes: Buffer }> {
  const response = await fetchFile(reportId, cookie, prefix);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe(XLSX_TYPE);
  return { fileName: fileNameOf(response), sheets: await readWorkbook(response.rawPayload), bytes: response.rawPayload };
}

/** The Machines sheet: the header, then every curve of the scope, cell by cell, never a formula. */
function expectMachinesSheet(sheets: ReadSheet[], expected: Curve[]) {
  expect(sheets.map((s) => s.name)).toEqual(['मशीनें | Machines', 'विवरण | About']);
  const rows = sheets[0]?.rows ?? [];
  expect(valuesOf(rows[0])).toEqual(HEADER.map(bi));
  expect(valuesOf(rows[0])[10]).toBe('मशीन स्थापित / Machine installed');
  expect(rows.length - 1, 'rows').toBe(expected.length);
  expected.forEach((c, i) => {
    const got = rows[i + 1] ?? [];
    const want = expectedRow(c);
    HEADER.forEach((column, j) => {
      expect(got[j]?.value, `row ${i + 2} (${c.section} ${c.curveNumber}) ${column}`).toEqual(want[j]);
      expect(got[j]?.formula, `row ${i + 2} ${column}`).toBe(false);
    });
  });
}

const aboutOf = (sheets: ReadSheet[]) => new Map((sheets[1]?.rows ?? []).map(valuesOf).map((r) => [r[0], r[1]]));

async function reportRows(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(reports);
  return row?.n ?? 0;
}

async function insertCurves(rows: readonly NewCurve[]): Promise<Curve[]> {
  const stored = await t.database.db
    .insert(curveRecords)
    .values(
      rows.map((c) => ({
        no: c.no,
        divisionRailway: c.division,
        section: c.section,
        curveNumber: c.curveNumber,
        line: c.line,
        phase: c.phase,
        den: c.den,
        aen: c.aen,
        sse: c.sse,
        foundationActual: c.foundation,
        machineActual: c.machine,
        commissioned: c.commissioned,
      })),
    )
    .returning({ id: curveRecords.id });
  const added = rows.map((c, i) => ({ ...c, id: stored[i]?.id ?? -1 }));
  curves = [...curves, ...added];
  return added;
}

async function removeCurves(removed: readonly Curve[]) {
  const ids = removed.map((c) => c.id);
  await t.database.db.execute(sql`delete from curve_records where id in ${sql.raw(`(${ids.join(',')})`)}`);
  curves = curves.filter((c) => !ids.includes(c.id));
}

beforeAll(async () => {
  t = await buildTestApp({}, { now: () => NOW });
  const db = t.database.db;
  ({ admin, technician, clientRtm, clientFzr, clientNone } = await createAndSignIn(t, {
    admin: { ...ADMIN, name: 'Asha Admin' },
    technician: TECHNICIAN,
    clientRtm: CLIENT_RTM,
    clientFzr: CLIENT_FZR,
    clientNone: CLIENT_NO_DIVISION,
  }));
  await db.insert(consolidatedCurveDetails).values(
    REGISTER.map(([section, curveNumber, line, hkmCode], i) => ({
      no: i + 1,
      divisionRailway: section.startsWith('FZR') ? 'FZR/NR' : 'RTM/WR',
      section,
      curveNumber,
      line,
      hkmCode,
    })),
  );
  await db.insert(hkmControllerMapping).values([...controllers].map(([hkmCode, controllerNumber]) => ({ hkmCode, controllerNumber })));
  await insertCurves(FIXTURE);
});
afterAll(() => t.close());

describe('GET /api/machine-report', () => {
  it('makes a workbook of every curve record in register order, each row as inserted', async () => {
    const answer = await generate(admin);
    expect(answer.recordCount).toBe(FIXTURE.length);
    const { fileName, sheets } = await download(answer.reportId, admin);
    expect(fileName).toBe(`Machine_Dashboard_${TODAY}.xlsx`);
    expectMachinesSheet(sheets, inScope({}));
    expect(aboutOf(sheets).get(bi('Curves'))).toBe(String(FIXTURE.length));

    // A few cells by hand, so the check above cannot agree with a wrong rule.
    const rows = (sheets[0]?.rows ?? []).slice(1).map(valuesOf);
    const byCurve = (section: string, curveNumber: string) => rows.find((r) => r[2] === section && r[3] === curveNumber) ?? [];
    expect(rows.map((r) => `${r[2]}/${r[3]}`)).toEqual([
      'BRC-GDA/41',
      'BRC-GDA/43',
      'FZR-JUC/31',
      'FZR-JUC/32',
      'FZR-JUC/33',
      // 11 and 13 share No. 1: the older record first.
      'RTM-NAD/13',
      'RTM-NAD/11',
      'RTM-NAD/12',
      'RTM-VRL/21',
      'RTM-VRL/22',
    ]);
    expect(byCurve('RTM-NAD', '12')).toEqual([2, 'RTM/WR', 'RTM-NAD', '12', 'UP', 'I', 'Sr.DEN/RTM', 'AEN/NAD', 'SSE/NAD', new Date('2025-03-14T00:00:00Z'), new Date('2025-04-02T00:00:00Z'), 'Pending', 5012, 77]);
    // DN in the rollout, Down in the register; no controller for 5011; a blank entry is Pending.
    expect(byCurve('RTM-NAD', '11').slice(9)).toEqual(['Done', 'Pending', 'Pending', 5011, null]);
    // An impossible date is shown as written; a blank entry as Pending.
    expect(byCurve('RTM-NAD', '13').slice(9)).toEqual(['31.02.2025', 'Pending', 'completed', 5013, 78]);
    // SL in the rollout, Single in the register.
    expect(byCurve('RTM-VRL', '21').slice(9)).toEqual([new Date('2025-03-20T00:00:00Z'), new Date('2025-03-21T00:00:00Z'), new Date('2025-03-22T00:00:00Z'), 5021, 79]);
    // The register has this curve on another line only (and on this line in another section): no code.
    expect(byCurve('RTM-VRL', '22').slice(12)).toEqual([null, null]);
    // Single in the rollout, SL in the register.
    expect(byCurve('FZR-JUC', '32').slice(12)).toEqual([6032, 91]);
    // A register entry without an HKM code.
    expect(byCurve('FZR-JUC', '33').slice(12)).toEqual([null, null]);
    expect(byCurve('BRC-GDA', '41').slice(9)).toEqual([new Date('2025-10-10T00:00:00Z'), 'Done', 'Pending', null, null]);
    expect(byCurve('BRC-GDA', '43').slice(6)).toEqual([null, null, null, 'In progress', '0', '=SUM(A1:A9)', null, null]);
  });

  it('is downloaded from /api/download/{id} and /api/reports/download/{id} alike', async () => {
    const answer = await generate(admin);
    const a = await download(answer.reportId, admin, '/api/download');
    const b = await download(answer.reportId, admin, '/api/reports/download');
    expect(a.fileName).toBe(`Machine_Dashboard_${TODAY}.xlsx`);
    expect(b.fileName).toBe(a.fileName);
    expect(b.bytes.equals(a.bytes)).toBe(true);
  });

  it('scopes the report to a DEN and an AEN, as the dashboard counts them', async () => {
    const filters = machineFiltersResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/machine-filters', headers: { cookie: admin } })).json());
    expect(filters.dens.length).toBeGreaterThan(0);
    let checked = 0;
    for (const den of filters.dens) {
      const aens = machineFiltersResponseSchema.parse(
        (await t.app.inject({ method: 'GET', url: `/api/machine-filters${query({ den })}`, headers: { cookie: admin } })).json(),
      ).aens;
      for (const where of [{ den }, ...aens.map((aen) => ({ den, aen }))]) {
        const label = JSON.stringify(where);
        const answer = await generate(admin, where);
        const expected = inScope(where);
        expect(answer.recordCount, label).toBe(expected.length);
        const stats = machineStatsResponseSchema.parse((await t.app.inject({ method: 'GET', url: `/api/machine-stats${query(where)}`, headers: { cookie: admin } })).json());
        expect(answer.recordCount, `${label} against the dashboard`).toBe(stats.totals.curveCount);
        const { fileName, sheets } = await download(answer.reportId, admin);
        expect(fileName).toBe(`Machine_Dashboard_${TODAY}.xlsx`);
        expectMachinesSheet(sheets, expected);
        const about = aboutOf(sheets);
        expect(about.get('DEN'), label).toBe(den);
        expect(about.get('AEN'), label).toBe('aen' in where ? where.aen : 'सभी / All');
        checked += 1;
      }
    }
    // 3 DENs and 6 (DEN, AEN) pairs.
    expect(checked).toBe(3 + 6);
    // An AEN without a DEN; '' and 'all' are no filter.
    expect((await generate(admin, { aen: 'AEN/FZR' })).recordCount).toBe(2);
    expect((await generate(admin, { den: 'all', aen: '' })).recordCount).toBe(FIXTURE.length);
    expect((await generate(admin, { den: ' Sr.DEN/RTM ' })).recordCount).toBe(4);
  });

  it('answers 404 NO_RECORDS when no curve matches, and makes no report', async () => {
    const before = await reportRows();
    for (const where of [{ den: 'DEN/NOWHERE' }, { den: 'Sr.DEN/RTM', aen: 'AEN/FZR' }, { aen: 'AEN/NOWHERE' }]) {
      const response = await ask(admin, where);
      expect(response.statusCode, JSON.stringify(where)).toBe(404);
      expect(errorOf(response).code).toBe('NO_RECORDS');
    }
    expect(await reportRows()).toBe(before);
  });

  it('refuses a DEN over 100 or an AEN over 150 characters with a 400 naming it', async () => {
    const before = await reportRows();
    const den = await ask(admin, { den: 'D'.repeat(101) });
    expect(den.statusCode).toBe(400);
    expect(errorOf(den).code).toBe('VALIDATION_FAILED');
    expect(errorOf(den).fields).toHaveProperty('den');
    const aen = await ask(admin, { aen: 'A'.repeat(151) });
    expect(aen.statusCode).toBe(400);
    expect(errorOf(aen).fields).toHaveProperty('aen');
    expect(await reportRows()).toBe(before);
  });

  it('answers the same report while nothing changed, and a new one after the rollout, register or controllers change', async () => {
    const db = t.database.db;
    const first = await generate(admin, { den: 'Sr.DEN/RTM' });
    const rows = await reportRows();
    expect(await generate(admin, { den: 'Sr.DEN/RTM' })).toEqual(first);
    expect(await reportRows()).toBe(rows);

    // A controller replaced on curve 12 (written straight to the table).
    await db.execute(sql`update hkm_controller_mapping set controller_number = 177 where hkm_code = 5012`);
    controllers = new Map(controllers).set(5012, 177);
    const second = await generate(admin, { den: 'Sr.DEN/RTM' });
    expect(second.reportId).not.toBe(first.reportId);
    const afterController = await download(second.reportId, admin);
    expectMachinesSheet(afterController.sheets, inScope({ den: 'Sr.DEN/RTM' }));
    expect((afterController.sheets[0]?.rows ?? []).map(valuesOf).find((r) => r[3] === '12')?.[13]).toBe(177);

    // Curve 11's machine installed.
    await db.execute(sql`update curve_records set machine_actual = '05.11.2025' where section = 'RTM-NAD' and curve_number = '11'`);
    curves = curves.map((c) => (c.section === 'RTM-NAD' && c.curveNumber === '11' ? { ...c, machine: '05.11.2025' } : c));
    const third = await generate(admin, { den: 'Sr.DEN/RTM' });
    expect(third.reportId).not.toBe(second.reportId);
    const afterRollout = await download(third.reportId, admin);
    expectMachinesSheet(afterRollout.sheets, inScope({ den: 'Sr.DEN/RTM' }));
    expect((afterRollout.sheets[0]?.rows ?? []).map(valuesOf).find((r) => r[3] === '11')?.[10]).toEqual(new Date('2025-11-05T00:00:00Z'));

    // Curve 22 put on the Up line in the register: it now has its code.
    await db.execute(sql`update consolidated_curve_details set line = 'Up' where section = 'RTM-VRL' and curve_number = '22'`);
    const entry = REGISTER.find(([section, curveNumber]) => section === 'RTM-VRL' && curveNumber === '22');
    if (entry) entry[2] = 'Up';
    const fourth = await generate(admin);
    const afterRegister = await download(fourth.reportId, admin);
    expectMachinesSheet(afterRegister.sheets, inScope({}));
    expect((afterRegister.sheets[0]?.rows ?? []).map(valuesOf).find((r) => r[2] === 'RTM-VRL' && r[3] === '22')?.slice(12)).toEqual([5022, 80]);
  });

  it('reads a DEN padded with any whitespace the dashboard trims, as the dashboard does', async () => {
    // Sheets pasted from Excel carry non-breaking spaces and tabs; the dashboard lists the trimmed name.
    const added = await insertCurves([
      curve({ no: 9, division: 'JBP/WCR', section: 'JBP-KTE', curveNumber: '91', line: 'UP', den: 'DEN/JBP\u00a0', aen: '\tAEN/KTE', foundation: 'Done' }),
      curve({ no: 8, division: 'JBP/WCR', section: 'JBP-KTE', curveNumber: '92', line: 'UP', den: 'DEN/JBP', aen: 'AEN/KTE', foundation: 'Pending' }),
    ]);
    try {
      const filters = machineFiltersResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/machine-filters?den=DEN%2FJBP', headers: { cookie: admin } })).json());
      expect(filters.dens).toContain('DEN/JBP');
      expect(filters.aens).toEqual(['AEN/KTE']);
      const stats = machineStatsResponseSchema.parse(
        (await t.app.inject({ method: 'GET', url: '/api/machine-stats?den=DEN%2FJBP&aen=AEN%2FKTE', headers: { cookie: admin } })).json(),
      );
      expect(stats.totals.curveCount).toBe(2);
      // The report of what the dashboard shows has the same two curves.
      const answer = await generate(admin, { den: 'DEN/JBP', aen: 'AEN/KTE' });
      expect(answer.recordCount).toBe(2);
      const { sheets } = await download(answer.reportId, admin);
      expect((sheets[0]?.rows ?? []).slice(1).map((r) => r[3]?.value)).toEqual(['92', '91']);
    } finally {
      await removeCurves(added);
    }
  });

  it('shows an impossible year-first date as written, never as another day', async () => {
    // The dashboard counts these as not done; the report must not show them as done on a real day.
    const added = await insertCurves([
      curve({ no: 1, division: 'NDLS/NR', section: 'NDLS-GZB', curveNumber: '71', line: 'UP', den: 'DEN/NDLS', foundation: '2025-02-30', machine: '2025-13-01', commissioned: '2025-02-29' }),
    ]);
    try {
      for (const entry of ['2025-02-30', '2025-13-01', '2025-02-29']) expect(stageEntry(entry).done, entry).toBe(false);
      const stats = machineStatsResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/machine-stats?den=DEN%2FNDLS', headers: { cookie: admin } })).json());
      expect(stats.totals).toMatchObject({ curveCount: 1, foundationCompleted: 0, machinesInstalled: 0, machinesCommissioned: 0 });
      const answer = await generate(admin, { den: 'DEN/NDLS' });
      const { sheets } = await download(answer.reportId, admin);
      expect(valuesOf(sheets[0]?.rows[1]).slice(9, 12)).toEqual(['2025-02-30', '2025-13-01', '2025-02-29']);
    } finally {
      await removeCurves(added);
    }
  });

  it("holds a Client to their division, for what they make and what they download", async () => {
    const mine = await generate(clientRtm);
    const rtm = inScope({ division: 'RTM/WR' });
    expect(mine.recordCount).toBe(rtm.length);
    expect(rtm.length).toBe(5);
    const { fileName, sheets } = await download(mine.reportId, clientRtm);
    expect(fileName).toBe(`Machine_Dashboard_${TODAY}.xlsx`);
    expectMachinesSheet(sheets, rtm);
    expect(aboutOf(sheets).get(bi('Division'))).toBe('RTM/WR');

    // A DEN of two divisions: their curve only; another division's DEN: nothing.
    const shared = await generate(clientRtm, { den: 'DEN/SHARED' });
    expect(shared.recordCount).toBe(1);
    expectMachinesSheet((await download(shared.reportId, clientRtm)).sheets, inScope({ division: 'RTM/WR', den: 'DEN/SHARED' }));
    let before = await reportRows();
    const other = await ask(clientRtm, { den: 'DEN/FZR' });
    expect(other.statusCode).toBe(404);
    expect(errorOf(other).code).toBe('NO_RECORDS');
    expect(await reportRows()).toBe(before);

    const fzr = await generate(clientFzr);
    expect(fzr.recordCount).toBe(3);
    expectMachinesSheet((await download(fzr.reportId, clientFzr)).sheets, inScope({ division: 'FZR/NR' }));

    // An Admin's report covers every division, even when its DEN is the Client's alone.
    const everyDivision = await generate(admin);
    const adminRtmDen = await generate(admin, { den: 'Sr.DEN/RTM' });
    for (const id of [everyDivision.reportId, adminRtmDen.reportId, fzr.reportId]) {
      for (const prefix of ['/api/download', '/api/reports/download']) {
        const refused = await fetchFile(id, clientRtm, prefix);
        expect(refused.statusCode, `${prefix}/${id}`).toBe(404);
        expect(errorOf(refused).code).toBe('NOT_FOUND');
        expect(refused.headers['content-disposition']).toBeUndefined();
      }
    }
    expect((await fetchFile(mine.reportId, clientFzr)).statusCode).toBe(404);
    expect((await fetchFile(mine.reportId, clientNone)).statusCode).toBe(404);
    // The Admin may download the Client's.
    expect((await fetchFile(mine.reportId, admin)).statusCode).toBe(200);

    // A Client without a division has nothing to report on.
    before = await reportRows();
    const none = await ask(clientNone);
    expect(none.statusCode).toBe(403);
    expect(errorOf(none).code).toBe('FORBIDDEN');
    expect(await reportRows()).toBe(before);
  });

  it('refuses Technicians (403) and anonymous callers (401)', async () => {
    const made = await generate(admin);
    const before = await reportRows();
    const byTechnician = await ask(technician);
    expect(byTechnician.statusCode).toBe(403);
    expect(errorOf(byTechnician).code).toBe('FORBIDDEN');
    expect((await fetchFile(made.reportId, technician)).statusCode).toBe(403);
    const anonymous = await ask(undefined);
    expect(anonymous.statusCode).toBe(401);
    expect(errorOf(anonymous).code).toBe('NOT_AUTHENTICATED');
    const anonymousDownload = await fetchFile(made.reportId);
    expect(anonymousDownload.statusCode).toBe(401);
    expect(anonymousDownload.headers['content-type']).not.toBe(XLSX_TYPE);
    expect(await reportRows()).toBe(before);
  });
});

describe('the machine report at scale', () => {
  it('keeps register order and every curve across batches of 1000', async () => {
    const bulk = Array.from({ length: 2105 }, (_, i) =>
      curve({
        // Many curves share a No.: the order falls back on the record's id.
        no: (i * 7) % 13,
        division: 'JBP/WCR',
        section: i % 2 === 0 ? 'JBP-A' : 'JBP-B',
        curveNumber: `B${i}`,
        line: 'UP',
        den: 'DEN/BULK',
        aen: `AEN/BULK${i % 3}`,
        foundation: i % 5 === 0 ? '01.02.2025' : 'Pending',
      }),
    );
    const added: Curve[] = [];
    for (let i = 0; i < bulk.length; i += 500) added.push(...(await insertCurves(bulk.slice(i, i + 500))));
    try {
      const answer = await generate(admin, { den: 'DEN/BULK' });
      expect(answer.recordCount).toBe(bulk.length);
      const { sheets } = await download(answer.reportId, admin);
      const expected = inScope({ den: 'DEN/BULK' });
      const rows = (sheets[0]?.rows ?? []).slice(1).map(valuesOf);
      expect(rows.length).toBe(bulk.length);
      expect(rows.map((r) => `${r[2]}/${r[3]}`)).toEqual(expected.map((c) => `${c.section}/${c.curveNumber}`));
      expect(new Set(rows.map((r) => r[3])).size).toBe(bulk.length);
      expectMachinesSheet(sheets, expected);
    } finally {
      await removeCurves(added);
    }
  });
});
