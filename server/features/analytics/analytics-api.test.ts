/**
 * The analytics routes through the real app: each headline figure equals a count over the rows
 * this test inserted, at the edges of its definition (common/rules/analytics.ts); a Client gets
 * their own division whatever they ask for; bad input is refused naming the field; a write
 * remakes the cached answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../common/rules/dates.js';
import { analyticsDashboardSchema, analyticsSummarySchema } from '../../../common/schemas/analytics.js';
import { followUpActions } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_NO_DIVISION, CLIENT_RTM, createAndSignIn, createCurve, errorOf, TECHNICIAN } from '../../test/factories.js';
import { inspectionRow, insertInspectionRows } from '../../test/inspections.js';

/** 01:30 on 2026-11-24 in Kolkata, still the 23rd in UTC: the business date is the 24th. */
const NOW = new Date('2026-11-23T20:00:00Z');
const TODAY = '2026-11-24';
const TO = '2026-11-23';
const FROM = '2026-10-01';
const RANGE = `from=${FROM}&to=${TO}`;
const SSE = 'SSE/P.Way/NAD';

let t: TestApp;
let cookies: Record<'admin' | 'technician' | 'client' | 'noDivision', string>;

const RTM_1 = { divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '1', line: 'Up' } as const;
const RTM_2 = { divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '2', line: 'Up' } as const;
const RTM_3 = { divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '3', line: 'Down' } as const;
const FZR_1 = { divisionRailway: 'FZR/NR', section: 'FZR-JUC', curveNumber: '1', line: 'Single' } as const;

const service = (curve: typeof RTM_1 | typeof RTM_2 | typeof FZR_1, date: string, overrides: Record<string, unknown> = {}) =>
  inspectionRow({ ...curve, date, type: 'Service', ...overrides });
const cof = (curve: typeof RTM_1 | typeof RTM_2 | typeof FZR_1, date: string, value: string) => inspectionRow({ ...curve, date, type: 'CoF', cofValue: value });

async function get(url: string, cookie = cookies.admin) {
  return t.app.inject({ method: 'GET', url, headers: { cookie } });
}

async function summary(query: string, cookie = cookies.admin) {
  const response = await get(`/api/analytics/summary?${query}`, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return analyticsSummarySchema.parse(response.json());
}

beforeAll(async () => {
  t = await buildTestApp({}, { now: () => NOW });
  cookies = await createAndSignIn(t, { admin: ADMIN, technician: TECHNICIAN, client: CLIENT_RTM, noDivision: CLIENT_NO_DIVISION });
  const db = t.database.db;
  await createCurve(db, { ...RTM_1, sse: SSE });
  await createCurve(db, RTM_2);
  // No visit and no rollout record: no machine, so on neither schedule.
  await createCurve(db, { ...RTM_3, line: 'DN' });
  await createCurve(db, FZR_1);
  await insertInspectionRows(db, [
    // Service: 15 days before `to` is within its interval, 16 is not.
    service(RTM_1, addDays(TO, -15)),
    service(RTM_2, addDays(TO, -16), { serviceUpdate: 'part-broken', partCategory: 'Pump', partItemName: 'Motor', isMachineWorking: false }),
    // The range's first day counts; the day before does not.
    service(RTM_2, FROM, { serviceUpdate: 'part-stolen', partCategory: 'Solar & Battery', partItemName: 'Battery', isMachineWorking: false }),
    service(RTM_2, addDays(FROM, -1), { serviceUpdate: 'part-stolen', partCategory: 'Solar & Battery', partItemName: 'Battery', isMachineWorking: false }),
    service(FZR_1, addDays(TO, -3)),
    // CoF: 30 days before is within, 31 is not; a reading equal to the threshold is not above it.
    cof(RTM_1, addDays(TO, -30), '0.25'),
    cof(RTM_2, addDays(TO, -31), '0.30'),
    cof(FZR_1, addDays(TO, -5), '0.20'),
    // After `to`: no figure of the range counts it.
    service(RTM_2, TODAY),
  ]);
  const action = (values: Partial<typeof followUpActions.$inferInsert>) => ({
    kind: 'part-broken',
    severity: 'medium',
    ...RTM_2,
    reported: 'Pump – Motor',
    openedOn: FROM,
    dueDate: addDays(FROM, 7),
    lastReportedOn: FROM,
    ...values,
  });
  await db.insert(followUpActions).values([
    action({ state: 'closed', openedOn: FROM, closedOn: addDays(FROM, 4) }),
    action({ state: 'open', openedOn: addDays(TO, -16), dueDate: addDays(TO, -9), lastReportedOn: addDays(TO, -16) }),
    // Closed after `to`: still open at the end of the range.
    action({ kind: 'part-stolen', state: 'closed', openedOn: addDays(TO, -20), dueDate: addDays(TO, -13), closedOn: TODAY }),
    action({ ...FZR_1, kind: 'machine-not-working', severity: 'high', state: 'closed', openedOn: '2026-11-01', dueDate: '2026-11-03', closedOn: '2026-11-11' }),
  ]);
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/analytics/summary', () => {
  it("answers every division's figures, each the count over the rows behind it", async () => {
    const answer = await summary(RANGE);
    expect(answer.scope).toEqual({ division: null, section: null, sse: null, from: FROM, to: TO, by: 'month' });
    // On the schedule at `to`: RTM 1 and 2 and FZR 1 (visited); RTM 3 has no machine. Within: RTM 1 (day 15) and FZR 1.
    expect(answer.serviceCompliance).toBeCloseTo(2 / 3);
    // CoF: RTM 1 (day 30) within, RTM 2 (day 31) not, FZR 1 within.
    expect(answer.cofCompliance).toBeCloseTo(2 / 3);
    expect(answer.cof.count).toBe(3);
    expect(answer.cof.median).toBeCloseTo(0.25);
    expect(answer.cof.p90).toBeCloseTo(0.29);
    // 0.30 is above 0.25; 0.25 itself is within.
    expect(answer.cof.aboveThresholdShare).toBeCloseTo(1 / 3);
    expect(answer.visits).toEqual({ service: 4, cof: 3 });
    expect(answer.faults).toEqual({ partBroken: 1, partStolen: 1, machineNotWorking: 2 });
    // Open at `to`: the one still open and the one closed the day after; overdue: both were due before `to`.
    expect(answer.actions).toMatchObject({ open: 2, overdue: 2, openedInRange: 4, closedInRange: 2, medianDaysToClose: 7 });
  });

  it('narrows to a division, a section and an SSE (a record by the register curve it belongs to)', async () => {
    const rtm = await summary(`${RANGE}&division=RTM%2FWR`);
    expect(rtm.serviceCompliance).toBeCloseTo(1 / 2);
    expect(rtm.visits).toEqual({ service: 3, cof: 2 });
    expect(rtm.actions).toMatchObject({ open: 2, medianDaysToClose: 4 });
    const section = await summary(`${RANGE}&section=FZR-JUC`);
    expect(section.visits).toEqual({ service: 1, cof: 1 });
    expect(section.serviceCompliance).toBe(1);
    const sse = await summary(`${RANGE}&sse=${encodeURIComponent(SSE)}`);
    expect(sse.visits).toEqual({ service: 1, cof: 1 });
    expect(sse.serviceCompliance).toBe(1);
    expect(sse.faults).toEqual({ partBroken: 0, partStolen: 0, machineNotWorking: 0 });
  });

  it("holds a Client to their division whatever they ask for; one without a division gets nothing", async () => {
    const own = await summary(`${RANGE}&division=FZR%2FNR`, cookies.client);
    expect(own.scope.division).toBe('RTM/WR');
    expect(own.visits).toEqual({ service: 3, cof: 2 });
    expect(own.cof.median).toBeCloseTo(0.275);
    const refused = await get(`/api/analytics/summary?${RANGE}`, cookies.noDivision);
    expect(refused.statusCode).toBe(403);
  });

  it('ends the range today in the railway time zone, and starts it 4 weeks before, unless told', async () => {
    const answer = await summary('');
    expect(answer.scope.to).toBe(TODAY);
    expect(answer.scope.from).toBe(addDays(TODAY, -27));
    expect(answer.asOf).toBe(TODAY);
  });

  it('refuses a Technician, and bad filters naming the field', async () => {
    expect((await get(`/api/analytics/summary?${RANGE}`, cookies.technician)).statusCode).toBe(403);
    expect((await get(`/api/analytics/dashboard?${RANGE}`, cookies.technician)).statusCode).toBe(403);
    const backwards = await get(`/api/analytics/summary?from=${TO}&to=${FROM}`);
    expect(backwards.statusCode).toBe(400);
    expect(errorOf(backwards).fields?.from).toMatch(/after/);
    const tooLong = await get('/api/analytics/summary?from=2020-01-01&to=2026-01-01');
    expect(errorOf(tooLong).fields?.from).toMatch(/at most 731 days/);
    const defaultEnd = await get('/api/analytics/summary?from=2030-01-01');
    expect(errorOf(defaultEnd).fields?.from).toMatch(/after/);
    const grain = await get(`/api/analytics/summary?${RANGE}&by=day`);
    expect(errorOf(grain).fields?.by).toMatch(/week, month/);
    const date = await get('/api/analytics/summary?from=2026-02-30');
    expect(errorOf(date).fields?.from).toMatch(/real date/);
  });

  it('remakes a cached answer once a record is written', async () => {
    const before = await summary(`${RANGE}&division=FZR%2FNR`);
    await insertInspectionRows(t.database.db, [cof(FZR_1, addDays(TO, -1), '0.40')]);
    const after = await summary(`${RANGE}&division=FZR%2FNR`);
    expect(after.cof.count).toBe(before.cof.count + 1);
    expect(after.cof.aboveThresholdShare).toBeCloseTo(1 / 2);
  });
});

describe('GET /api/analytics/dashboard', () => {
  it('answers one entry per period, by month or week, the summary beside', async () => {
    const response = await get(`/api/analytics/dashboard?${RANGE}&division=RTM%2FWR`);
    expect(response.statusCode, response.body).toBe(200);
    const dashboard = analyticsDashboardSchema.parse(response.json());
    expect(dashboard.periods).toEqual([
      { start: FROM, end: '2026-10-31' },
      { start: '2026-11-01', end: TO },
    ]);
    // At 31 October only RTM 2 is on the schedule (its Service of 1 October, 30 days before): none within. At `to`: one of two.
    expect(dashboard.compliance.series.map((p) => p.service.share)).toEqual([0, 0.5]);
    expect(dashboard.machines.series.map((p) => p.partStolen)).toEqual([1, 0]);
    expect(dashboard.summary.visits).toEqual({ service: 3, cof: 2 });
    const weekly = analyticsDashboardSchema.parse((await get(`/api/analytics/dashboard?${RANGE}&by=week`)).json());
    // 2026-10-01 is a Thursday: its week is cut to four days; 2026-11-23 is a Monday, a week of one day.
    expect(weekly.periods[0]).toEqual({ start: FROM, end: '2026-10-04' });
    expect(weekly.periods.at(-1)).toEqual({ start: TO, end: TO });
    expect(weekly.fieldWork.technicians[0]?.series).toHaveLength(weekly.periods.length);
  });

  it("gives a Client their own division's dashboard", async () => {
    const dashboard = analyticsDashboardSchema.parse((await get(`/api/analytics/dashboard?${RANGE}`, cookies.client)).json());
    expect(dashboard.scope.division).toBe('RTM/WR');
    expect(dashboard.compliance.bySection.map((s) => s.divisionRailway)).toEqual(['RTM/WR']);
  });
});
