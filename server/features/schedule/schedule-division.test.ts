/**
 * A curve's last visit is looked up among the records of its own division (issue "Safe to put
 * on a railway's network", item 10). A record filed under FZR/NR that names the section, curve
 * number and line of an RTM/WR curve must not lend it its date, technician or CoF reading: a
 * Client of RTM/WR sees neither in the due list, the section counts or the maintenance report,
 * and the FZR/NR curve of that name keeps its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintenanceReportResponseSchema, type ScheduleEntry, scheduleResponseSchema, scheduleSummaryResponseSchema } from '../../../common/schemas/schedule.js';
import { consolidatedCurveDetails } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_RTM, createAndSignIn } from '../../test/factories.js';
import { insertInspectionRows, inspectionRow } from '../../test/inspections.js';
import { englishHeaders, sheetBi } from '../../test/bilingual.js';
import { readWorkbook, type ReadSheet, valuesOf } from '../../test/xlsx.js';

/** 12:00 in Kolkata on 2026-11-23: the schedule's today. */
const NOW = new Date('2026-11-23T06:30:00Z');
const RTM_TECHNICIAN = 'Ravi Meena';
const FZR_TECHNICIAN = 'Farid Khan';
const FZR_READING = '0.41';

let t: TestApp;
let admin: string;
let clientRtm: string;

beforeAll(async () => {
  t = await buildTestApp({}, { now: () => NOW });
  const db = t.database.db;
  ({ admin, clientRtm } = await createAndSignIn(t, { admin: { ...ADMIN, employeeId: 'ADMDIV' }, clientRtm: { ...CLIENT_RTM, employeeId: 'CLIRTM' } }));
  // Two curves the records both call RTM-NAD 12 Up: the FZR/NR register spells the line UP.
  await db.insert(consolidatedCurveDetails).values([
    { no: 1, divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '12', line: 'Up' },
    { no: 1, divisionRailway: 'FZR/NR', section: 'RTM-NAD', curveNumber: '12', line: 'UP' },
  ]);
  const named = { section: 'RTM-NAD', curveNumber: '12', line: 'Up' } as const;
  await insertInspectionRows(db, [
    // RTM/WR's own: a Service 20 days ago (overdue), no CoF ever.
    inspectionRow({ ...named, type: 'Service', date: '2026-11-03', divisionRailway: 'RTM/WR', technicianId: 'TECRTM', technicianName: RTM_TECHNICIAN }),
    // FZR/NR's, later: a Service yesterday and a high CoF reading.
    inspectionRow({ ...named, type: 'Service', date: '2026-11-22', divisionRailway: 'FZR/NR', technicianId: 'TECFZR', technicianName: FZR_TECHNICIAN }),
    inspectionRow({ ...named, type: 'CoF', date: '2026-11-21', divisionRailway: 'FZR/NR', technicianId: 'TECFZR', technicianName: FZR_TECHNICIAN, cofValue: FZR_READING }),
  ]);
});
afterAll(() => t.close());

async function scheduleOf(cookie: string, query: string) {
  const response = await t.app.inject({ url: `/api/schedule${query}`, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.body, schedule: scheduleResponseSchema.parse(response.json()) };
}

/** RTM/WR's curve as its own records make it: Service overdue by Ravi Meena, CoF never measured. */
function expectRtmCurve(entry: ScheduleEntry | undefined): void {
  expect(entry).toMatchObject({
    divisionRailway: 'RTM/WR',
    line: 'Up',
    service: { state: 'overdue', lastDate: '2026-11-03', lastTechnician: RTM_TECHNICIAN, daysOverdue: 5 },
    cof: { state: 'never', lastDate: null, lastTechnician: null, lastValue: null, high: false },
  });
}

/** A due sheet's row of curve 12, by the English half of its column titles (each checked to be the report's). */
function curveRow(sheet: ReadSheet | undefined): Record<string, unknown> {
  const [header, ...rows] = (sheet?.rows ?? []).map(valuesOf);
  const row = rows.find((r) => r[2] === '12');
  expect(row, `no row of curve 12 in ${sheet?.name}`).toBeDefined();
  return Object.fromEntries(englishHeaders(header ?? []).map((name, i) => [name, row?.[i] ?? null]));
}

describe("a curve's last visit, within its division", () => {
  it('the due list and its counts show a Client of RTM/WR no FZR/NR technician or reading', async () => {
    for (const query of ['?limit=1000', '?division=RTM/WR&section=RTM-NAD']) {
      const { body, schedule } = await scheduleOf(clientRtm, query);
      expect(schedule.curves, query).toHaveLength(1);
      expectRtmCurve(schedule.curves[0]);
      expect(body, query).not.toContain(FZR_TECHNICIAN);
      expect(body, query).not.toContain(FZR_READING);
    }
    expect((await scheduleOf(clientRtm, '?status=cof-high')).schedule.total).toBe(0);

    const summary = await t.app.inject({ url: '/api/schedule/summary', headers: { cookie: clientRtm } });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(scheduleSummaryResponseSchema.parse(summary.json()).sections).toEqual([
      {
        divisionRailway: 'RTM/WR',
        section: 'RTM-NAD',
        curves: 1,
        service: { overdue: 1, dueSoon: 0, never: 0, inTime: 0, notNeeded: 0, noMachine: 0, attention: 1 },
        cof: { overdue: 0, dueSoon: 0, never: 1, inTime: 0, high: 0, noMachine: 0, attention: 1 },
      },
    ]);
  });

  it('the FZR/NR curve of the same name keeps its own visits', async () => {
    const { schedule } = await scheduleOf(admin, '?limit=1000');
    expectRtmCurve(schedule.curves.find((c) => c.divisionRailway === 'RTM/WR'));
    expect(schedule.curves.find((c) => c.divisionRailway === 'FZR/NR')).toMatchObject({
      line: 'UP',
      service: { state: 'in-time', lastDate: '2026-11-22', lastTechnician: FZR_TECHNICIAN },
      cof: { state: 'in-time', lastDate: '2026-11-21', lastTechnician: FZR_TECHNICIAN, lastValue: 0.41, high: true },
    });
  });

  it("the maintenance report of a Client of RTM/WR holds RTM/WR's visits only", async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/reports/curve-maintenance', headers: { cookie: clientRtm }, payload: { division: 'RTM/WR', section: 'all' } });
    expect(response.statusCode, response.body).toBe(200);
    const report = maintenanceReportResponseSchema.parse(response.json());
    expect(report).toMatchObject({ serviceCount: 1, cofCount: 1 });

    const file = await t.app.inject({ url: `/api/reports/download/${report.reportId}`, headers: { cookie: clientRtm } });
    expect(file.statusCode).toBe(200);
    const sheets = await readWorkbook(file.rawPayload);
    expect(curveRow(sheets.find((s) => s.name === sheetBi('Service due')))).toMatchObject({
      Division: 'RTM/WR',
      'Last service': new Date('2026-11-03T00:00:00Z'),
      'Last technician': RTM_TECHNICIAN,
      'Days overdue': 5,
      Status: 'Service overdue 5 d',
    });
    expect(curveRow(sheets.find((s) => s.name === sheetBi('CoF due')))).toMatchObject({
      Division: 'RTM/WR',
      'Last CoF': null,
      'Last CoF value': null,
      'Last technician': null,
      Status: 'CoF never done',
    });
    const cells = sheets.flatMap((s) => s.rows.flatMap(valuesOf));
    expect(cells).not.toContain(FZR_TECHNICIAN);
    expect(cells).not.toContain(0.41);
  });
});
