/**
 * GET /api/reports (a user's recent reports, to download again without making them again)
 * and the retention of made reports (REPORT_RETENTION_DAYS): after it, a report is neither
 * listed nor downloadable, and asking again makes a new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportListResponseSchema } from '../../../common/schemas/reports.js';
import { maintenanceReportResponseSchema } from '../../../common/schemas/schedule.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_RTM, TECHNICIAN, createAndSignIn, createCurve } from '../../test/factories.js';

const START = new Date('2026-11-23T06:30:00Z');
const DAY_MS = 86_400_000;
let clock = START;
let t: TestApp;
let admin: string;
let otherAdmin: string;
let client: string;
let technician: string;

beforeAll(async () => {
  t = await buildTestApp({ reportRetentionDays: 3 }, { now: () => clock });
  const db = t.database.db;
  ({ admin, otherAdmin, client, technician } = await createAndSignIn(t, {
    admin: ADMIN,
    otherAdmin: { ...ADMIN, employeeId: 'ADM2' },
    client: CLIENT_RTM,
    technician: TECHNICIAN,
  }));
  await createCurve(db, { divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '12' });
  await createCurve(db, { divisionRailway: 'FZR/NR', section: 'FZR-JUC', curveNumber: '40', line: 'Single' });
});
afterAll(() => t.close());

async function generate(cookie: string, division: string) {
  const response = await t.app.inject({ method: 'POST', url: '/api/reports/curve-maintenance', headers: { cookie }, payload: { division, section: 'all' } });
  expect(response.statusCode, response.body).toBe(200);
  return maintenanceReportResponseSchema.parse(response.json());
}

async function listOf(cookie: string, query = '') {
  const response = await t.app.inject({ url: `/api/reports${query}`, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return reportListResponseSchema.parse(response.json()).reports;
}

describe('GET /api/reports', () => {
  it("lists a user's own reports, newest first, with what was asked and found", async () => {
    const all = await generate(admin, 'all');
    clock = new Date(START.getTime() + 60_000);
    const rtm = await generate(admin, 'RTM/WR');
    const byClient = await generate(client, 'all');

    const mine = await listOf(admin);
    expect(mine.map((r) => r.reportId)).toEqual([rtm.reportId, all.reportId]);
    expect(mine[0]).toMatchObject({
      kind: 'curve-maintenance',
      params: { division: 'RTM/WR', section: 'all' },
      division: 'RTM/WR',
      status: 'done',
      summary: { serviceCount: rtm.serviceCount, cofCount: rtm.cofCount },
      fileName: 'Curve_Maintenance_RTM-WR_2026-11-23.xlsx',
      expiresAt: new Date(clock.getTime() + 3 * DAY_MS).toISOString(),
    });
    expect(mine[0]?.fileSizeBytes).toBeGreaterThan(1000);
    expect((await listOf(admin, '?limit=1')).map((r) => r.reportId)).toEqual([rtm.reportId]);
    expect((await listOf(client)).map((r) => r.reportId)).toEqual([byClient.reportId]);
    expect(await listOf(otherAdmin)).toEqual([]);

    const refused = await t.app.inject({ url: '/api/reports', headers: { cookie: technician } });
    expect(refused.statusCode).toBe(403);
    const bad = await t.app.inject({ url: '/api/reports?limit=51', headers: { cookie: admin } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { limit: 'limit must be at most 50' } });
  });

  it('forgets a report after REPORT_RETENTION_DAYS: not listed, not downloadable, made again when asked', async () => {
    clock = START;
    const made = await generate(otherAdmin, 'FZR/NR');
    expect((await t.app.inject({ url: `/api/reports/download/${made.reportId}`, headers: { cookie: otherAdmin } })).statusCode).toBe(200);

    clock = new Date(START.getTime() + 3 * DAY_MS + 1000);
    expect(await listOf(otherAdmin)).toEqual([]);
    expect((await t.app.inject({ url: `/api/reports/download/${made.reportId}`, headers: { cookie: otherAdmin } })).statusCode).toBe(404);
    const again = await generate(otherAdmin, 'FZR/NR');
    expect(again.reportId).not.toBe(made.reportId);
    expect((await listOf(otherAdmin)).map((r) => r.reportId)).toEqual([again.reportId]);
  });
});
