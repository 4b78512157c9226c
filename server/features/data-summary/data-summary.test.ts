/**
 * GET /api/data-summary: the data-management view's counts of curve records, stations and
 * inspection records, always those of the tables right now (the counts are cached per
 * instance and must follow every write, by this instance, by SQL, or by another instance).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadResponseSchema } from '../../../common/schemas/inspection.js';
import { dataSummarySchema, type DataSummary } from '../../../common/schemas/records.js';
import { buildApp } from '../../app.js';
import { consolidatedCurveDetails, inspectionLogs, stations } from '../../db/schema.js';
import { buildTestApp, TEST_CONFIG, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_NO_DIVISION, CLIENT_RTM, TECHNICIAN, createAndSignIn, createCurve } from '../../test/factories.js';
import { blobRoot, expectStorageTrue, insertInspectionRows, inspectionRow, recordIdFor } from '../../test/inspections.js';
import { makeJpeg, uploadForm } from '../../test/photos.js';

let t: TestApp;
let admin: string;
let technician: string;
let clientRtm: string;
let clientNone: string;

async function summaryOf(cookie: string, app: FastifyInstance = t.app): Promise<DataSummary> {
  const response = await app.inject({ method: 'GET', url: '/api/data-summary', headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return dataSummarySchema.parse(response.json());
}

/** The counts straight from the tables, optionally within one division. */
async function tableCounts(division?: string): Promise<DataSummary> {
  const db = t.database.db;
  const [curves] = await db
    .select({ n: count() })
    .from(consolidatedCurveDetails)
    .where(division ? eq(consolidatedCurveDetails.divisionRailway, division) : undefined);
  const [stationRows] = await db.select({ n: count() }).from(stations).where(division ? eq(stations.divisionRailway, division) : undefined);
  const [inspections] = await db
    .select({ n: count() })
    .from(inspectionLogs)
    .where(division ? eq(inspectionLogs.divisionRailway, division) : undefined);
  return { curveRecords: curves?.n ?? -1, stations: stationRows?.n ?? -1, inspectionRecords: inspections?.n ?? -1 };
}

const station = (no: number, stationCode: string, stationName: string, section: string, divisionRailway: string) => ({
  no,
  stationCode,
  stationName,
  section,
  divisionRailway,
});

async function uploadOne(app: FastifyInstance, cookie: string, seed: number): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/inspections/upload',
    headers: { cookie },
    payload: uploadForm(
      {
        date: '2026-11-20',
        type: 'CoF',
        divisionRailway: 'RTM/WR',
        section: 'RTM-NAD',
        curveNumber: '7',
        line: 'Down',
        cofValue: '0.31',
        location: 'Near End',
        clientSubmissionId: randomUUID(),
      },
      await makeJpeg(320, 240, seed),
    ),
  });
  expect(response.statusCode, response.body).toBe(201);
  return uploadResponseSchema.parse(response.json()).recordId;
}

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  ({ admin, technician, clientRtm, clientNone } = await createAndSignIn(t, {
    admin: ADMIN,
    technician: { ...TECHNICIAN, name: 'Ravi Meena' },
    clientRtm: CLIENT_RTM,
    clientNone: CLIENT_NO_DIVISION,
  }));

  for (const [divisionRailway, section, curveNumber] of [
    ['RTM/WR', 'RTM-NAD', '1'],
    ['RTM/WR', 'RTM-NAD', '2'],
    ['RTM/WR', 'RTM-DHD', '1'],
    ['FZR/NR', 'FZR-JUC', '3'],
    ['FZR/NR', 'FZR-JUC', '4'],
    ['BRC/WR', 'BRC-GDA', '9'],
  ] as const) {
    await createCurve(db, { divisionRailway, section, curveNumber });
  }
  await db.insert(stations).values([
    station(1, 'RTM', 'Ratlam Jn', 'RTM-NAD', 'RTM/WR'),
    station(2, 'BOD', 'Bangrod', 'RTM-NAD', 'RTM/WR'),
    station(3, 'RUB', 'Runkhera', 'RTM-NAD', 'RTM/WR'),
    station(4, 'NAD', 'Nagda Jn', 'RTM-NAD', 'RTM/WR'),
    station(1, 'FZR', 'Firozpur Cantt', 'FZR-JUC', 'FZR/NR'),
  ]);
  await insertInspectionRows(db, [
    ...Array.from({ length: 5 }, () => inspectionRow({ divisionRailway: 'RTM/WR' })),
    ...Array.from({ length: 3 }, () => inspectionRow({ divisionRailway: 'FZR/NR', type: 'CoF' })),
  ]);
});
afterAll(() => t.close());

describe('GET /api/data-summary', () => {
  it("gives an Admin the tables' counts", async () => {
    const summary = await summaryOf(admin);
    expect(summary).toEqual({ curveRecords: 6, stations: 5, inspectionRecords: 8 });
    expect(summary).toEqual(await tableCounts());
  });

  it("gives a Client their division's counts, and a Client without one nothing", async () => {
    expect(await summaryOf(clientRtm)).toEqual({ curveRecords: 3, stations: 4, inspectionRecords: 5 });
    expect(await summaryOf(clientRtm)).toEqual(await tableCounts('RTM/WR'));
    expect(await summaryOf(clientNone)).toEqual({ curveRecords: 0, stations: 0, inspectionRecords: 0 });
  });

  it('refuses Technicians (403) and anonymous callers (401)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/data-summary', headers: { cookie: technician } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/data-summary' })).statusCode).toBe(401);
  });

  it('follows an upload and a deletion through the API at once', async () => {
    const before = await summaryOf(admin);
    const beforeClient = await summaryOf(clientRtm);
    const recordId = await uploadOne(t.app, admin, 11);
    expect(await summaryOf(admin)).toEqual({ ...before, inspectionRecords: before.inspectionRecords + 1 });
    expect(await summaryOf(clientRtm)).toEqual({ ...beforeClient, inspectionRecords: beforeClient.inspectionRecords + 1 });

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/inspections/${recordId}`, headers: { cookie: admin } });
    expect(deleted.statusCode).toBe(200);
    expect(await summaryOf(admin)).toEqual(before);
    expect(await summaryOf(clientRtm)).toEqual(beforeClient);
    await expectStorageTrue(t);
  });

  it('follows rows written straight to the tables with SQL', async () => {
    const db = t.database.db;
    let expected = await summaryOf(admin);
    let expectedClient = await summaryOf(clientRtm);
    const step = async (write: () => Promise<unknown>, change: Partial<Record<keyof DataSummary, number>>, changeClient: Partial<Record<keyof DataSummary, number>>) => {
      await write();
      expected = {
        curveRecords: expected.curveRecords + (change.curveRecords ?? 0),
        stations: expected.stations + (change.stations ?? 0),
        inspectionRecords: expected.inspectionRecords + (change.inspectionRecords ?? 0),
      };
      expectedClient = {
        curveRecords: expectedClient.curveRecords + (changeClient.curveRecords ?? 0),
        stations: expectedClient.stations + (changeClient.stations ?? 0),
        inspectionRecords: expectedClient.inspectionRecords + (changeClient.inspectionRecords ?? 0),
      };
      expect(await summaryOf(admin)).toEqual(expected);
      expect(await summaryOf(clientRtm)).toEqual(expectedClient);
      expect(await tableCounts()).toEqual(expected);
    };

    await step(
      () => db.execute(sql`insert into stations (no, station_name, station_code, section, division_railway) values (5, 'Khachrod', 'KUH', 'RTM-NAD', 'RTM/WR')`),
      { stations: 1 },
      { stations: 1 },
    );
    // Moving a station to another division changes the Client's count, not the Admin's.
    await step(() => db.execute(sql`update stations set division_railway = 'FZR/NR' where station_code = 'KUH'`), {}, { stations: -1 });
    await step(() => db.execute(sql`delete from stations where station_code = 'KUH'`), { stations: -1 }, {});
    await step(
      () =>
        db.execute(
          sql`insert into consolidated_curve_details (no, division_railway, section, curve_number, line) values (99, 'RTM/WR', 'RTM-NAD', '42', 'Up')`,
        ),
      { curveRecords: 1 },
      { curveRecords: 1 },
    );
    await step(() => db.execute(sql`delete from consolidated_curve_details where curve_number = '42'`), { curveRecords: -1 }, { curveRecords: -1 });
    const recordId = recordIdFor('2026-11-18');
    await step(
      () =>
        db.execute(sql`
          insert into inspection_logs (record_id, date, type, division_railway, section, curve_number, line, technician_id, technician_name)
          values (${recordId}, '2026-11-18', 'Service', 'RTM/WR', 'RTM-NAD', '1', 'Up', 'TEC1', 'Ravi Meena')`),
      { inspectionRecords: 1 },
      { inspectionRecords: 1 },
    );
    await step(() => db.execute(sql`delete from inspection_logs where record_id = ${recordId}`), { inspectionRecords: -1 }, { inspectionRecords: -1 });
  });

  it('follows writes made by another server instance on the same database', async () => {
    const other = await buildApp({ config: TEST_CONFIG, database: t.database, blobs: t.blobs, webRoot: path.join(blobRoot(t), 'no-web') });
    await other.ready();
    try {
      const before = await summaryOf(admin);
      // The session lives in the database: the same cookie works on the other instance.
      expect(await summaryOf(admin, other)).toEqual(before);
      const recordId = await uploadOne(other, admin, 12);
      expect(await summaryOf(admin)).toEqual({ ...before, inspectionRecords: before.inspectionRecords + 1 });
      const deleted = await other.inject({ method: 'POST', url: '/api/images/delete', headers: { cookie: admin }, payload: { imageIds: [recordId] } });
      expect(deleted.json()).toEqual({ deletedCount: 1, notFound: [] });
      expect(await summaryOf(admin)).toEqual(before);
      expect(await summaryOf(admin, other)).toEqual(before);
    } finally {
      await other.close();
    }
    await expectStorageTrue(t);
  });

  it('counts nothing after a table is emptied', async () => {
    const before = await summaryOf(admin);
    await t.database.db.execute(sql`truncate stations`);
    expect(await summaryOf(admin)).toEqual({ ...before, stations: 0 });
    expect(await summaryOf(clientRtm)).toMatchObject({ stations: 0 });
  });
});
