import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { machineParts, stations } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_RTM, TECHNICIAN, createAndSignIn, createUser } from '../../test/factories.js';

let t: TestApp;
let cookies: Record<string, string>;

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  await db.insert(stations).values([
    { no: 2, stationName: 'Bangrod', stationCode: 'BOD', section: 'RTM-NAD', divisionRailway: 'RTM/WR' },
    { no: 1, stationName: 'Ratlam Jn', stationCode: 'RTM', section: 'RTM-NAD', divisionRailway: 'RTM/WR' },
    { no: 1, stationName: 'Firozpur Cantt', stationCode: 'FZR', section: 'FZR-JUC', divisionRailway: 'FZR/NR' },
  ]);
  await db.insert(machineParts).values([
    { no: 2, category: 'Pump Assembly', itemName: 'Motor' },
    { no: 1, category: 'Pump Assembly', itemName: 'Gear pump' },
    { no: 3, category: 'Grease Tank', itemName: 'Level sensor' },
  ]);
  cookies = await createAndSignIn(t, { TEC1: { ...TECHNICIAN, name: 'Ravi Meena' }, ADM1: ADMIN, CLI1: CLIENT_RTM });
  // A second technician nobody signs in as: the technicians' list names both.
  await createUser(db, { employeeId: 'TEC2', name: 'Amit Singh' });
});
afterAll(() => t.close());

const get = (url: string, who?: string) => t.app.inject({ method: 'GET', url, headers: who ? { cookie: cookies[who] } : {} });

describe('GET /api/stations', () => {
  it("lists a section's stations in line order", async () => {
    const response = await get('/api/stations?section=RTM-NAD', 'TEC1');
    expect(response.statusCode).toBe(200);
    expect(response.json().stations.map((s: { stationCode: string }) => s.stationCode)).toEqual(['RTM', 'BOD']);
  });

  it('needs a section and a signed-in user', async () => {
    const missing = await get('/api/stations', 'TEC1');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('section: section is required');
    expect((await get('/api/stations?section=RTM-NAD')).statusCode).toBe(401);
  });

  it("keeps a Client to their division's stations", async () => {
    expect((await get('/api/stations?section=FZR-JUC', 'CLI1')).json().stations).toEqual([]);
    expect((await get('/api/stations?section=FZR-JUC', 'TEC1')).json().stations).toHaveLength(1);
  });
});

describe('machine parts', () => {
  it('lists the categories, and the items of one category in catalogue order', async () => {
    expect((await get('/api/machine-parts/categories', 'TEC1')).json()).toEqual({ categories: ['Grease Tank', 'Pump Assembly'] });
    const parts = (await get('/api/machine-parts?category=Pump%20Assembly', 'TEC1')).json().parts;
    expect(parts.map((p: { itemName: string }) => p.itemName)).toEqual(['Gear pump', 'Motor']);
    expect((await get('/api/machine-parts', 'TEC1')).statusCode).toBe(400);
  });
});

describe('GET /api/technicians', () => {
  it('lists technicians for admins, cached 5 minutes, and is closed to technicians', async () => {
    const response = await get('/api/technicians', 'ADM1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, max-age=300');
    expect(response.json().technicians).toEqual([
      { employeeId: 'TEC2', name: 'Amit Singh' },
      { employeeId: 'TEC1', name: 'Ravi Meena' },
    ]);
    expect((await get('/api/technicians', 'TEC1')).statusCode).toBe(403);
  });

  it('shows a Client only technicians who worked in their division', async () => {
    expect((await get('/api/technicians', 'CLI1')).json().technicians).toEqual([]);
  });
});
