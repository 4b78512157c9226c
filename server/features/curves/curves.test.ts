import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolidatedCurveDetails } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { CLIENT_NO_DIVISION, CLIENT_RTM, TECHNICIAN, createAndSignIn, createCurve } from '../../test/factories.js';

let t: TestApp;
let technician: string;
let client: string;
let clientWithoutDivision: string;

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  await createCurve(db, { divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '12', hkmCode: 1001 });
  await createCurve(db, { divisionRailway: 'RTM/WR', section: 'RTM-GDA', curveNumber: '7A', hkmCode: 1002, line: 'Down' });
  await createCurve(db, { divisionRailway: 'FZR/NR', section: 'FZR-JUC', curveNumber: '3', hkmCode: 2001, line: 'Single' });
  ({ technician, client, clientWithoutDivision } = await createAndSignIn(t, {
    technician: TECHNICIAN,
    client: CLIENT_RTM,
    clientWithoutDivision: { ...CLIENT_NO_DIVISION, employeeId: 'CLI2' },
  }));
});
afterAll(() => t.close());

const list = (cookie: string | undefined, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/consolidated-curves${query}`, headers: cookie ? { cookie } : {} });

describe('GET /api/consolidated-curves', () => {
  it('needs a signed-in user', async () => {
    expect((await list(undefined, '?limit=1000')).statusCode).toBe(401);
  });

  it('gives a technician every curve with the fields the entry form needs', async () => {
    const response = await list(technician, '?limit=1000');
    expect(response.statusCode).toBe(200);
    const { curves, total } = response.json();
    expect(total).toBe(3);
    expect(curves[0]).toMatchObject({
      divisionRailway: 'FZR/NR',
      section: 'FZR-JUC',
      curveNumber: '3',
      line: 'Single',
      hkmCode: 2001,
      station1: null,
      sse: null,
    });
  });

  it('filters by division and section, and pages', async () => {
    const bySection = await list(technician, '?section=RTM-GDA');
    expect(bySection.json().curves.map((c: { curveNumber: string }) => c.curveNumber)).toEqual(['7A']);
    const page = await list(technician, '?limit=1&offset=1');
    expect(page.json()).toMatchObject({ total: 3 });
    expect(page.json().curves).toHaveLength(1);
  });

  it("keeps a Client to their division whatever they ask", async () => {
    const own = await list(client, '?limit=1000');
    expect(own.json().curves.map((c: { divisionRailway: string }) => c.divisionRailway)).toEqual(['RTM/WR', 'RTM/WR']);
    const other = await list(client, '?division=FZR%2FNR');
    expect(other.json().curves.every((c: { divisionRailway: string }) => c.divisionRailway === 'RTM/WR')).toBe(true);
    const none = await list(clientWithoutDivision);
    expect(none.json()).toEqual({ curves: [], total: 0 });
  });

  it('refuses a bad limit with a message naming it', async () => {
    const tooMany = await list(technician, '?limit=100000');
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe('limit: limit must be at most 5000');
    const notNumber = await list(technician, '?limit=lots');
    expect(notNumber.statusCode).toBe(400);
    expect(notNumber.json().fields.limit).toBeDefined();
  });
});

describe('the curve list as a cached download', () => {
  it('answers 304 to a phone that already has this version, and gzip to one that accepts it', async () => {
    const first = await list(technician, '?limit=1000');
    const etag = first.headers.etag;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');

    const again = await t.app.inject({ method: 'GET', url: '/api/consolidated-curves?limit=1000', headers: { cookie: technician, 'if-none-match': String(etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const zipped = await t.app.inject({ method: 'GET', url: '/api/consolidated-curves?limit=1000', headers: { cookie: technician, 'accept-encoding': 'gzip, deflate' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(first.json());
  });

  it('serves the new list as soon as a curve is added, changed or removed', async () => {
    const before = await list(technician, '?limit=1000');
    const added = await createCurve(t.database.db, { divisionRailway: 'RTM/WR', section: 'RTM-NAD', curveNumber: '99', hkmCode: 1099 });
    const afterAdd = await list(technician, '?limit=1000');
    expect(afterAdd.headers.etag).not.toBe(before.headers.etag);
    expect(afterAdd.json().total).toBe(before.json().total + 1);

    await t.database.db.update(consolidatedCurveDetails).set({ sse: 'SSE/P.Way/NAD' }).where(eq(consolidatedCurveDetails.id, added.id));
    const afterEdit = await list(technician, '?limit=1000');
    expect(afterEdit.json().curves.find((c: { id: number }) => c.id === added.id).sse).toBe('SSE/P.Way/NAD');

    await t.database.db.delete(consolidatedCurveDetails).where(eq(consolidatedCurveDetails.id, added.id));
    const afterDelete = await list(technician, '?limit=1000');
    expect(afterDelete.json()).toEqual(before.json());
  });
});
