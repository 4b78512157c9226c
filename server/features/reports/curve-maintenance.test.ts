/**
 * POST /api/reports/curve-maintenance and GET /api/reports/download/{reportId}: the report's
 * counts and every row of its workbook (read back with exceljs) are the schedule rule's
 * (common/rules/schedule.ts) on the same data; a report is made once per data version, kept to
 * its division for Clients, and a refused request writes nothing.
 */
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectionType } from '../../../common/constants.js';
import { rolloutHasMachine } from '../../../common/rules/rollout.js';
import { COF_HIGH_LABEL, needsAttention, scheduleLabel } from '../../../common/rules/schedule.js';
import { type MaintenanceReportResponse, maintenanceReportResponseSchema, scheduleSummaryResponseSchema } from '../../../common/schemas/schedule.js';
import { consolidatedCurveDetails, curveRecords, followUpActions, reports } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_FZR, CLIENT_NO_DIVISION, CLIENT_RTM, TECHNICIAN, createAndSignIn, errorOf } from '../../test/factories.js';
import { insertInspectionRows, inspectionRow } from '../../test/inspections.js';
import { expectedScheduleOf, lastVisitOf } from '../../test/schedule-expectations.js';
import { bi, sheetBi } from '../../test/bilingual.js';
import { readWorkbook, type ReadCell, type ReadSheet, valuesOf } from '../../test/xlsx.js';
import type { NewInspectionRow } from '../inspections/repository.js';

/** 12:00 in Kolkata on 2026-11-23: the report's today. */
const NOW = new Date('2026-11-23T06:30:00Z');
const TODAY = '2026-11-23';
const THRESHOLD = 0.25;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const OVERDUE_FILL = 'FFFFC7CE';
const FORMULA_SSE = '=HYPERLINK("x")';

// The spec's column titles; each sheet writes them in both languages, Hindi first (bi).
const SERVICE_HEADER = ['Division', 'Section', 'Curve', 'Line', 'SSE', 'Last service', 'Last technician', 'Days since', 'Due date', 'Days overdue', 'Status'];
const COF_HEADER = ['Division', 'Section', 'Curve', 'Line', 'SSE', 'Last CoF', 'Last CoF value', 'Last technician', 'Days since', 'Due date', 'Days overdue', 'Status'];
const SUMMARY_HEADER = [
  'Division',
  'Section',
  'Curves',
  'Service due (all)',
  'Service overdue',
  'Service due soon',
  'Service never done',
  'Machine uninstalled',
  'No machine',
  'CoF due (all)',
  'CoF overdue',
  'CoF due soon',
  'CoF never done',
  'CoF high',
];

let t: TestApp;
let admin: string;
let technician: string;
let clientRtm: string;
let clientFzr: string;
let clientNone: string;

interface TestCurve {
  id: number;
  no: number;
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
  recordLine: 'Up' | 'Down' | 'Single';
  sse: string | null;
  /** Its rollout record's machine entry (installed or not), or null without a record. */
  rolloutMachineEntry: string | null;
}

const curves: TestCurve[] = [];
const visits: NewInspectionRow[] = [];


const headersOf = (cookie?: string) => (cookie ? { cookie } : {});
const post = (cookie: string | undefined, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/reports/curve-maintenance', headers: headersOf(cookie), payload });
const fetchReport = (reportId: string, cookie?: string) => t.app.inject({ method: 'GET', url: `/api/reports/download/${reportId}`, headers: headersOf(cookie) });

async function generate(cookie: string, division: string, section: string): Promise<MaintenanceReportResponse> {
  const response = await post(cookie, { division, section });
  expect(response.statusCode, response.body).toBe(200);
  return maintenanceReportResponseSchema.parse(response.json());
}

async function download(reportId: string, cookie: string): Promise<{ fileName: string; sheets: ReadSheet[] }> {
  const response = await fetchReport(reportId, cookie);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe(XLSX_TYPE);
  const match = /^attachment; filename="([^"]+)"$/.exec(String(response.headers['content-disposition']));
  expect(match, String(response.headers['content-disposition'])).not.toBeNull();
  return { fileName: match?.[1] ?? '', sheets: await readWorkbook(response.rawPayload) };
}

async function reportRows(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(reports);
  return row?.n ?? 0;
}

async function record(...rows: NewInspectionRow[]): Promise<void> {
  await insertInspectionRows(t.database.db, rows);
  visits.push(...rows);
}

function curve(section: string, curveNumber: string): TestCurve {
  const found = curves.find((c) => c.section === section && c.curveNumber === curveNumber);
  if (!found) throw new Error(`no test curve ${section} ${curveNumber}`);
  return found;
}

function visit(c: TestCurve, type: InspectionType, date: string, overrides: Partial<NewInspectionRow> = {}): NewInspectionRow {
  return inspectionRow({
    type,
    date,
    divisionRailway: c.divisionRailway,
    section: c.section,
    curveNumber: c.curveNumber,
    line: c.recordLine,
    cofValue: type === 'CoF' ? '0.20' : null,
    serviceUpdate: type === 'Service' ? 'working-fine' : null,
    ...overrides,
  });
}

const lastVisit = (c: TestCurve, type: InspectionType) => lastVisitOf(visits, c, type);
const scheduleOf = (c: TestCurve) => expectedScheduleOf(visits, c, TODAY, THRESHOLD, c.rolloutMachineEntry !== null && rolloutHasMachine({ machine: c.rolloutMachineEntry, commissioned: null }));

/** The scope's curves in register order: division, section, No., then id. */
function inScope(division: string, section: string): TestCurve[] {
  return curves
    .filter((c) => (division === 'all' || c.divisionRailway === division) && (section === 'all' || c.section === section))
    .sort(
      (a, b) =>
        (a.divisionRailway < b.divisionRailway ? -1 : a.divisionRailway > b.divisionRailway ? 1 : 0) ||
        (a.section < b.section ? -1 : a.section > b.section ? 1 : 0) ||
        a.no - b.no ||
        a.id - b.id,
    );
}

function expectedCounts(division: string, section: string): { serviceCount: number; cofCount: number } {
  const schedules = inScope(division, section).map(scheduleOf);
  return {
    serviceCount: schedules.filter((s) => needsAttention(s.service)).length,
    cofCount: schedules.filter((s) => needsAttention(s.cof)).length,
  };
}

const excelDate = (iso: string | null) => (iso === null ? null : new Date(`${iso}T00:00:00Z`));

interface ExpectedRow {
  values: unknown[];
  overdue: boolean;
}

/** The rows of a due sheet: each curve of the scope whose kind needs attention, as the rule says. */
function expectedDueRows(kind: InspectionType, division: string, section: string): ExpectedRow[] {
  return inScope(division, section).flatMap((c) => {
    const both = scheduleOf(c);
    const schedule = kind === 'Service' ? both.service : both.cof;
    if (!needsAttention(schedule)) return [];
    const last = lastVisit(c, kind);
    const high = kind === 'CoF' && both.cof.high;
    const status = scheduleLabel(kind, schedule) + (high ? `; ${COF_HIGH_LABEL} (${both.cof.lastValue?.toFixed(2)})` : '');
    const overdue = schedule.state === 'overdue';
    return [
      {
        values: [
          c.divisionRailway,
          c.section,
          c.curveNumber,
          c.line,
          c.sse === 'SSE' ? null : c.sse,
          excelDate(schedule.lastDate),
          ...(kind === 'CoF' ? [both.cof.lastValue] : []),
          last?.technicianName ?? null,
          schedule.daysSince,
          excelDate(schedule.dueDate),
          overdue ? schedule.daysOverdue : null,
          status,
        ],
        overdue,
      },
    ];
  });
}

/** The Summary sheet's section rows and total, as the rule counts them. */
function expectedSummaryRows(division: string, section: string): unknown[][] {
  const sections = new Map<string, number[]>();
  const total = Array<number>(12).fill(0);
  for (const c of inScope(division, section)) {
    const key = `${c.divisionRailway}\u0000${c.section}`;
    const counts = sections.get(key) ?? Array<number>(12).fill(0);
    const { service, cof } = scheduleOf(c);
    const add = [
      1,
      needsAttention(service),
      service.state === 'overdue',
      service.state === 'due-soon',
      service.state === 'never',
      service.state === 'not-needed',
      service.state === 'no-machine',
      needsAttention(cof),
      cof.state === 'overdue',
      cof.state === 'due-soon',
      cof.state === 'never',
      cof.high,
    ].map(Number);
    add.forEach((n, i) => {
      counts[i] = (counts[i] ?? 0) + n;
      total[i] = (total[i] ?? 0) + n;
    });
    sections.set(key, counts);
  }
  return [...[...sections.entries()].map(([key, counts]) => [...key.split('\u0000'), ...counts]), [bi('Total'), null, ...total]];
}

/** Checks a due sheet's header and every row, cell by cell, value and fill. */
function expectDueSheet(sheet: ReadSheet | undefined, kind: InspectionType, division: string, section: string) {
  const header = kind === 'Service' ? SERVICE_HEADER : COF_HEADER;
  expect(sheet?.name).toBe(kind === 'Service' ? 'सर्विस देय | Service due' : 'CoF देय | CoF due');
  const rows = sheet?.rows ?? [];
  expect(valuesOf(rows[0])).toEqual(header.map(bi));
  const expected = expectedDueRows(kind, division, section);
  expect(rows.length - 1, `${kind} rows`).toBe(expected.length);
  expected.forEach((want, i) => {
    const got: ReadCell[] = rows[i + 1] ?? [];
    expect(got).toHaveLength(header.length);
    header.forEach((column, j) => {
      const cell = got[j];
      const where = `${kind} row ${i + 2} ${column}`;
      expect(cell?.value, where).toEqual(want.values[j]);
      expect(cell?.formula, where).toBe(false);
      expect(cell?.fill ?? null, `${where} fill`).toBe(want.overdue ? OVERDUE_FILL : null);
    });
  });
}

function expectSummarySheet(sheet: ReadSheet | undefined, division: string, section: string, scopeText: string) {
  expect(sheet?.name).toBe('सारांश | Summary');
  const rows = (sheet?.rows ?? []).map(valuesOf);
  expect(rows[0]).toEqual(SUMMARY_HEADER.map(bi));
  expect(rows[0]?.[3]).toBe('सर्विस देय (सभी) / Service due (all)');
  const expected = expectedSummaryRows(division, section);
  expect(rows.slice(1, 1 + expected.length)).toEqual(expected);
  const about = new Map(rows.slice(1 + expected.length).map((r) => [r[0], r[1]]));
  expect(about.get(bi('Scope'))).toBe(scopeText);
  expect(about.get(bi('As of'))).toBe(TODAY);
  expect(about.get(bi('CoF high'))).toBe('पिछली रीडिंग 0.25 से ऊपर / last reading above 0.25');
  expect(about.get(bi('No machine'))).toMatch(/^रोलआउट शीट पर .* \/ no machine installed or commissioned/);
}

async function summaryAttention(cookie: string, query: string): Promise<{ serviceCount: number; cofCount: number }> {
  const response = await t.app.inject({ method: 'GET', url: `/api/schedule/summary${query}`, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  const { sections } = scheduleSummaryResponseSchema.parse(response.json());
  return {
    serviceCount: sections.reduce((n, s) => n + s.service.attention, 0),
    cofCount: sections.reduce((n, s) => n + s.cof.attention, 0),
  };
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

  // Inserted out of register order, so the sheets' order is the report's doing.
  // Curves with a Service visit need no rollout record: the visit proves the machine.
  const register = [
    { no: 2, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '12', line: 'Up', recordLine: 'Up', sse: 'SSE/P.Way/NAD', rolloutMachineEntry: null },
    { no: 1, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '11', line: 'DN', recordLine: 'Down', sse: 'SSE', rolloutMachineEntry: '05.05.2026' },
    { no: 3, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '13', line: 'Up', recordLine: 'Up', sse: FORMULA_SSE, rolloutMachineEntry: null },
    { no: 4, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '14', line: 'Up', recordLine: 'Up', sse: null, rolloutMachineEntry: 'Done' },
    { no: 5, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '15', line: 'Up', recordLine: 'Up', sse: null, rolloutMachineEntry: 'Pending' },
    { no: 1, divisionRailway: 'RTM/WR', section: 'RTM-VRL', curveNumber: '21', line: 'Up', recordLine: 'Up', sse: 'SSE/P.Way/VRL', rolloutMachineEntry: null },
    { no: 2, divisionRailway: 'FZR/NR', section: 'FZR-JUC', curveNumber: '32', line: 'Single', recordLine: 'Single', sse: null, rolloutMachineEntry: null },
    { no: 1, divisionRailway: 'FZR/NR', section: 'FZR-JUC', curveNumber: '31', line: 'Single', recordLine: 'Single', sse: 'SSE/FZR', rolloutMachineEntry: null },
  ] as const;
  const stored = await db
    .insert(consolidatedCurveDetails)
    .values(register.map(({ recordLine: _line, rolloutMachineEntry: _machine, ...c }) => c))
    .returning();
  for (const c of register) {
    const row = stored.find((s) => s.section === c.section && s.curveNumber === c.curveNumber);
    if (!row) throw new Error('curve not stored');
    curves.push({ ...c, id: row.id });
  }
  await db.insert(curveRecords).values(
    register.flatMap((c) =>
      c.rolloutMachineEntry === null
        ? []
        : [{ no: c.no, divisionRailway: c.divisionRailway, section: c.section, curveNumber: c.curveNumber, line: c.recordLine, foundationActual: 'Done', machineActual: c.rolloutMachineEntry }],
    ),
  );

  await record(
    // 12: Service 16 days ago (overdue 1); CoF in time but high (0.26).
    visit(curve('RTM-NAD', '12'), 'Service', '2026-11-07', { technicianName: 'Ravi Meena' }),
    visit(curve('RTM-NAD', '12'), 'CoF', '2026-11-13', { cofValue: '0.26', technicianName: 'Suresh Yadav' }),
    // 11: installed by the rollout sheet, never visited: never done.
    // 15: only its foundation laid, never visited: no machine, on neither sheet.
    // 13: Service 15 days ago (due today); CoF 31 days ago (overdue 1) at exactly the threshold.
    visit(curve('RTM-NAD', '13'), 'Service', '2026-11-08', { technicianName: 'Ravi Meena' }),
    visit(curve('RTM-NAD', '13'), 'CoF', '2026-10-23', { cofValue: '0.25', technicianName: 'Anil Kumar' }),
    // 14: machine uninstalled (the sheet says installed), CoF in time: on neither sheet.
    visit(curve('RTM-NAD', '14'), 'Service', '2026-10-01', { serviceUpdate: 'uninstall' }),
    visit(curve('RTM-NAD', '14'), 'CoF', '2026-11-18', { cofValue: '0.20' }),
    // 21: Service in time; CoF 29 days ago (due in 1 day).
    visit(curve('RTM-VRL', '21'), 'Service', '2026-11-21'),
    visit(curve('RTM-VRL', '21'), 'CoF', '2026-10-25', { cofValue: '0.21', technicianName: 'Deepak Singh' }),
    // 31: Service 30 days ago (overdue 15); CoF never.
    visit(curve('FZR-JUC', '31'), 'Service', '2026-10-24', { technicianName: 'Gurpreet Singh' }),
    // 32: Service in time; CoF 40 days ago, overdue and high.
    visit(curve('FZR-JUC', '32'), 'Service', '2026-11-18'),
    visit(curve('FZR-JUC', '32'), 'CoF', '2026-10-14', { cofValue: '0.40', technicianName: 'Gurpreet Singh' }),
  );
});
afterAll(() => t.close());

describe('POST /api/reports/curve-maintenance', () => {
  it('counts the curves needing a Service and a CoF as the rule does, as the summary endpoint does', async () => {
    const scopes = [
      ['all', 'all', ''],
      ['RTM/WR', 'all', '?division=RTM/WR'],
      ['RTM/WR', 'RTM-NAD', '?division=RTM/WR&section=RTM-NAD'],
      ['all', 'FZR-JUC', '?section=FZR-JUC'],
    ] as const;
    for (const [division, section, query] of scopes) {
      const expected = expectedCounts(division, section);
      const answer = await generate(admin, division, section);
      expect({ serviceCount: answer.serviceCount, cofCount: answer.cofCount }, `${division} ${section}`).toEqual(expected);
      expect(await summaryAttention(admin, query), `${division} ${section}`).toEqual(expected);
    }
    // The fixture gives every count something to count.
    expect(expectedCounts('all', 'all')).toEqual({ serviceCount: 4, cofCount: 6 });
  });

  it('makes a workbook whose every row is the rule’s, overdue rows highlighted', async () => {
    const answer = await generate(admin, 'all', 'all');
    const { fileName, sheets } = await download(answer.reportId, admin);
    expect(fileName).toBe(`Curve_Maintenance_${TODAY}.xlsx`);
    expect(sheets.map((s) => s.name)).toEqual(['Summary', 'Service due', 'CoF due', 'Actions'].map(sheetBi));
    expect(valuesOf(sheets[3]?.rows[0]).slice(0, 5)).toEqual(['Action', 'Fault', 'State', 'Severity', 'Division'].map(bi));
    expectSummarySheet(sheets[0], 'all', 'all', 'सभी मंडल, सभी खंड / All divisions, all sections');
    expectDueSheet(sheets[1], 'Service', 'all', 'all');
    expectDueSheet(sheets[2], 'CoF', 'all', 'all');
    expect((sheets[1]?.rows.length ?? 0) - 1).toBe(answer.serviceCount);
    expect((sheets[2]?.rows.length ?? 0) - 1).toBe(answer.cofCount);

    // The sheets reach what they must show: highlighted and plain rows, the SSE placeholder
    // shown empty, formula-like text kept as text.
    const service = sheets[1]?.rows ?? [];
    expect(service.slice(1).some((r) => r[0]?.fill === OVERDUE_FILL)).toBe(true);
    expect(service.slice(1).some((r) => r[0]?.fill === null)).toBe(true);
    const sseOf = (n: string) => service.find((r) => r[2]?.value === n)?.[4];
    expect(sseOf('11')?.value).toBeNull();
    expect(sseOf('13')).toEqual({ value: FORMULA_SSE, formula: false, fill: null });
    const cofStatus = (sheets[2]?.rows ?? []).find((r) => r[2]?.value === '32')?.[11]?.value;
    expect(cofStatus).toBe('CoF overdue 10 d; CoF high: follow up (0.40)');
    // The curve without a machine is counted as such in the Summary, never as "never done".
    const summary = (sheets[0]?.rows ?? []).map(valuesOf);
    const totalRow = summary.find((r) => r[0] === 'कुल / Total') ?? [];
    expect(totalRow[SUMMARY_HEADER.indexOf('No machine')]).toBe(1);
    expect(totalRow[SUMMARY_HEADER.indexOf('Machine uninstalled')]).toBe(1);
    for (const sheet of sheets.slice(1)) expect(sheet.rows.map((r) => r[2]?.value)).not.toContain('15');
  });

  it('scopes a report to its division and section, named for them', async () => {
    const answer = await generate(admin, 'RTM/WR', 'RTM-NAD');
    const { fileName, sheets } = await download(answer.reportId, admin);
    expect(fileName).toBe(`Curve_Maintenance_RTM-WR_RTM-NAD_${TODAY}.xlsx`);
    expectSummarySheet(sheets[0], 'RTM/WR', 'RTM-NAD', 'RTM/WR, RTM-NAD');
    expectDueSheet(sheets[1], 'Service', 'RTM/WR', 'RTM-NAD');
    expectDueSheet(sheets[2], 'CoF', 'RTM/WR', 'RTM-NAD');
  });

  it('answers the same report while nothing changed, and a new one after a new record', async () => {
    const first = await generate(admin, 'RTM/WR', 'all');
    const rowsAfterFirst = await reportRows();
    const second = await generate(admin, 'RTM/WR', 'all');
    expect(second).toEqual(first);
    expect(await reportRows()).toBe(rowsAfterFirst);

    // Curve 12's overdue Service is done today.
    expect(expectedDueRows('Service', 'RTM/WR', 'all').map((r) => r.values[2])).toContain('12');
    await record(visit(curve('RTM-NAD', '12'), 'Service', TODAY, { technicianName: 'Fresh Visit', submittedAt: new Date(NOW) }));
    const third = await generate(admin, 'RTM/WR', 'all');
    expect(third.reportId).not.toBe(first.reportId);
    expect(third.serviceCount).toBe(first.serviceCount - 1);
    expect({ serviceCount: third.serviceCount, cofCount: third.cofCount }).toEqual(expectedCounts('RTM/WR', 'all'));
    expect(await reportRows()).toBe(rowsAfterFirst + 1);
    const { sheets } = await download(third.reportId, admin);
    expect((sheets[1]?.rows ?? []).map((r) => r[2]?.value)).not.toContain('12');
    expectDueSheet(sheets[1], 'Service', 'RTM/WR', 'all');
  });

  it('holds a Client to their division, for what they make and what they download', async () => {
    // An open follow-up action in each division: the Actions sheet lists the Client's only.
    const action = { kind: 'cof-high', severity: 'medium', section: 'S', curveNumber: 'C1', line: 'Up', reported: 'CoF 0.31', openedOn: '2026-11-20', lastReportedOn: '2026-11-20', dueDate: '2026-11-23' };
    await t.database.db.insert(followUpActions).values([
      { ...action, divisionRailway: 'RTM/WR' },
      { ...action, divisionRailway: 'FZR/NR' },
    ]);
    const mine = await generate(clientRtm, 'FZR/NR', 'all');
    expect({ serviceCount: mine.serviceCount, cofCount: mine.cofCount }).toEqual(expectedCounts('RTM/WR', 'all'));
    const { fileName, sheets } = await download(mine.reportId, clientRtm);
    expect(fileName).toBe(`Curve_Maintenance_RTM-WR_${TODAY}.xlsx`);
    expectSummarySheet(sheets[0], 'RTM/WR', 'all', 'RTM/WR, सभी खंड / RTM/WR, all sections');
    expectDueSheet(sheets[1], 'Service', 'RTM/WR', 'all');
    expectDueSheet(sheets[2], 'CoF', 'RTM/WR', 'all');
    for (const sheet of sheets.slice(1, 3)) {
      expect(sheet.rows.length).toBeGreaterThan(1);
      for (const row of sheet.rows.slice(1)) expect(row[0]?.value).toBe('RTM/WR');
    }
    expect((sheets[3]?.rows ?? []).slice(1).map((row) => [row[4]?.value, row[1]?.value])).toEqual([['RTM/WR', 'CoF high']]);
    // 'all' is theirs too.
    expect(await generate(clientRtm, 'all', 'all')).toEqual(mine);
    await t.database.db.delete(followUpActions);

    const everyDivision = await generate(admin, 'all', 'all');
    const fzr = await generate(admin, 'FZR/NR', 'all');
    const rtmByAdmin = await generate(admin, 'RTM/WR', 'RTM-VRL');
    for (const id of [everyDivision.reportId, fzr.reportId]) {
      const refused = await fetchReport(id, clientRtm);
      expect(refused.statusCode).toBe(404);
      expect(errorOf(refused).code).toBe('NOT_FOUND');
      expect(refused.headers['content-disposition']).toBeUndefined();
    }
    expect((await fetchReport(rtmByAdmin.reportId, clientRtm)).statusCode).toBe(200);
    expect((await fetchReport(mine.reportId, clientFzr)).statusCode).toBe(404);
    expect((await fetchReport(fzr.reportId, clientFzr)).statusCode).toBe(200);
    // The Admin may download the Client's report.
    expect((await fetchReport(mine.reportId, admin)).statusCode).toBe(200);

    // A Client with no division has nothing to report on, and may download nothing.
    const before = await reportRows();
    const none = await post(clientNone, { division: 'RTM/WR', section: 'all' });
    expect(none.statusCode).toBe(403);
    expect(errorOf(none).code).toBe('FORBIDDEN');
    expect((await fetchReport(mine.reportId, clientNone)).statusCode).toBe(404);
    expect(await reportRows()).toBe(before);
  });

  it('names who made it: the same report asked by someone else is theirs, not reused', async () => {
    const byAdmin = await generate(admin, 'RTM/WR', 'all');
    const byClient = await generate(clientRtm, 'RTM/WR', 'all');
    expect(byClient.reportId).not.toBe(byAdmin.reportId);
    expect({ serviceCount: byClient.serviceCount, cofCount: byClient.cofCount }).toEqual({ serviceCount: byAdmin.serviceCount, cofCount: byAdmin.cofCount });
    const madeBy = async (reportId: string, cookie: string) => {
      const { sheets } = await download(reportId, cookie);
      return new Map((sheets[0]?.rows ?? []).map(valuesOf).map((r) => [r[0], r[1]])).get(bi('Made by'));
    };
    expect(await madeBy(byClient.reportId, clientRtm)).toMatch(/\(CLI/);
    expect(await madeBy(byAdmin.reportId, admin)).toMatch(/\(ADM/);
  });

  it('has the browser ask again before each use of a download it kept: 304 by ETag without the bytes, only for who may see it', async () => {
    const made = await generate(admin, 'all', 'all');
    for (const url of [`/api/reports/download/${made.reportId}`, `/api/download/${made.reportId}`]) {
      const whole = await t.app.inject({ method: 'GET', url, headers: { cookie: admin } });
      expect(whole.statusCode, url).toBe(200);
      expect(whole.headers['cache-control'], url).toBe('private, no-cache');
      const etag = String(whole.headers.etag);
      expect(etag, url).toMatch(/^"[0-9a-f]{64}"$/);
      const again = await t.app.inject({ method: 'GET', url, headers: { cookie: admin, 'if-none-match': etag } });
      expect(again.statusCode, url).toBe(304);
      expect(again.headers['cache-control'], url).toBe('private, no-cache');
      expect(again.rawPayload.length, url).toBe(0);
      // The next user of the phone revalidates as themselves: another division's Client is refused.
      expect((await t.app.inject({ method: 'GET', url, headers: { cookie: clientRtm, 'if-none-match': etag } })).statusCode, url).toBe(404);
    }
  });

  it('resumes a cut download: Range answers 206 with the right bytes', async () => {
    const made = await generate(admin, 'all', 'all');
    const whole = await fetchReport(made.reportId, admin);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const bytes = whole.rawPayload;
    const etag = String(whole.headers.etag);
    const ranged = (range: string, extra: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/api/reports/download/${made.reportId}`, headers: { cookie: admin, range, ...extra } });

    const head = await ranged('bytes=0-99');
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 0-99/${bytes.length}`);
    expect(head.rawPayload.equals(bytes.subarray(0, 100))).toBe(true);
    const rest = await ranged('bytes=100-', { 'if-range': etag });
    expect(rest.statusCode).toBe(206);
    expect(Buffer.concat([head.rawPayload, rest.rawPayload]).equals(bytes)).toBe(true);
    const tail = await ranged('bytes=-10');
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 10))).toBe(true);
    // Another version named in If-Range: the whole file, as it is now.
    const changed = await ranged('bytes=100-', { 'if-range': '"not-this-one"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(bytes)).toBe(true);
    const past = await ranged(`bytes=${bytes.length}-`);
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect(past.json()).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });
    // A Client of another division gets no bytes of it, range or not.
    expect((await t.app.inject({ method: 'GET', url: `/api/reports/download/${made.reportId}`, headers: { cookie: clientRtm, range: 'bytes=0-99' } })).statusCode).toBe(404);
  });

  it('refuses Technicians (403) and anonymous callers (401)', async () => {
    const made = await generate(admin, 'all', 'all');
    const before = await reportRows();
    const byTechnician = await post(technician, { division: 'all', section: 'all' });
    expect(byTechnician.statusCode).toBe(403);
    expect(errorOf(byTechnician).code).toBe('FORBIDDEN');
    const technicianDownload = await fetchReport(made.reportId, technician);
    expect(technicianDownload.statusCode).toBe(403);
    expect(technicianDownload.headers['content-type']).not.toBe(XLSX_TYPE);

    const anonymous = await post(undefined, { division: 'all', section: 'all' });
    expect(anonymous.statusCode).toBe(401);
    expect(errorOf(anonymous).code).toBe('NOT_AUTHENTICATED');
    expect((await fetchReport(made.reportId)).statusCode).toBe(401);
    expect(await reportRows()).toBe(before);
  });

  it('refuses a bad request with a 400 naming the field, and writes nothing', async () => {
    await generate(admin, 'all', 'all');
    const before = await reportRows();
    expect(before).toBeGreaterThan(0);
    const cases: Array<{ payload: object; field: string; mentions?: string }> = [
      { payload: { division: 'XYZ', section: 'all' }, field: 'division' },
      { payload: { division: 'all' }, field: 'section' },
      { payload: { division: 'all', section: '' }, field: 'section' },
      { payload: { section: 'all' }, field: 'division' },
      { payload: { division: 'all', section: 'NOWHERE' }, field: 'section', mentions: 'NOWHERE' },
      // A section of another division has no curves in the one asked for.
      { payload: { division: 'RTM/WR', section: 'FZR-JUC' }, field: 'section', mentions: 'FZR-JUC' },
    ];
    for (const { payload, field, mentions } of cases) {
      const where = JSON.stringify(payload);
      const response = await post(admin, payload);
      expect(response.statusCode, where).toBe(400);
      const error = errorOf(response);
      expect(error.code, where).toBe('VALIDATION_FAILED');
      expect(Object.keys(error.fields ?? {}), where).toContain(field);
      if (mentions) expect(error.fields?.[field], where).toContain(mentions);
    }
    // A Client's section outside their division is refused the same way.
    const foreign = await post(clientRtm, { division: 'FZR/NR', section: 'FZR-JUC' });
    expect(foreign.statusCode).toBe(400);
    expect(Object.keys(errorOf(foreign).fields ?? {})).toEqual(['section']);
    expect(await reportRows()).toBe(before);
  });
});

describe('GET /api/reports/download/{reportId}', () => {
  it('answers 404 to an unknown report and 400 to a malformed ID', async () => {
    const unknown = await fetchReport('9b2f0d3e-5c1a-4f7e-8a6b-2d4c6e8f0a1b', admin);
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).code).toBe('NOT_FOUND');
    const malformed = await fetchReport('not-a-report', admin);
    expect(malformed.statusCode).toBe(400);
    const error = errorOf(malformed);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(error.fields ?? {})).toEqual(['reportId']);
  });
});
