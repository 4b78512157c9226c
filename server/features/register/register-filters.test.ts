/**
 * GET /api/register-filters: the sections (of curves and of stations) and SSE names the
 * register's filters offer, per division; a Client's are their division's only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerFiltersResponseSchema, type RegisterFilters } from '../../../common/schemas/register.js';
import { consolidatedCurveDetails as curves, stations } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_NO_DIVISION, CLIENT_RTM, TECHNICIAN, createAndSignIn } from '../../test/factories.js';

let t: TestApp;
let admin: string;
let technician: string;
let client: string;
let clientWithoutDivision: string;

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  ({ admin, technician, client, clientWithoutDivision } = await createAndSignIn(t, {
    admin: ADMIN,
    technician: TECHNICIAN,
    client: CLIENT_RTM,
    clientWithoutDivision: CLIENT_NO_DIVISION,
  }));

  let no = 0;
  const curve = (divisionRailway: string, section: string, sse: string | null) => ({
    no: ++no,
    divisionRailway,
    section,
    curveNumber: String(no),
    line: 'Up',
    sse,
  });
  await db.insert(curves).values([
    curve('RTM/WR', 'RTM-NAD', 'SSE/P.Way/NAD'),
    curve('RTM/WR', 'RTM-NAD', 'SSE/P.Way/NAD'),
    curve('RTM/WR', 'RTM-GDA', 'SSE/P.Way/GDA'),
    // Placeholders and blanks are no SSE names.
    curve('RTM/WR', 'RTM-GDA', 'SSE'),
    curve('RTM/WR', 'RTM-GDA', ' SSE '),
    curve('RTM/WR', 'RTM-GDA', ''),
    curve('RTM/WR', 'RTM-GDA', '   '),
    curve('RTM/WR', 'BEC Bypass', null),
    curve('FZR/NR', 'FZR-JUC', 'SSE/P.Way/FZR'),
    curve('FZR/NR', 'FZR-JUC', 'SSE/Bridges/FZR'),
    curve('BRC/WR', 'BRC-ANND', 'SSE/P.Way/BRC'),
  ]);
  await db.insert(stations).values([
    // A section known from its stations only.
    { no: 1, stationName: 'Ujjain Jn', stationCode: 'UJN', section: 'RTM-UJN', divisionRailway: 'RTM/WR' },
    { no: 1, stationName: 'Ratlam Jn', stationCode: 'RTM', section: 'RTM-NAD', divisionRailway: 'RTM/WR' },
    { no: 1, stationName: 'Delhi', stationCode: 'DLI', section: 'NDLS-DLI', divisionRailway: 'NDLS/NR' },
  ]);
});
afterAll(() => t.close());

/** `null`: an anonymous caller. */
const filtersRequest = (query: string, cookie: string | null) =>
  t.app.inject({ method: 'GET', url: `/api/register-filters${query}`, headers: cookie ? { cookie } : {} });

async function filters(query = '', cookie: string = admin): Promise<RegisterFilters> {
  const response = await filtersRequest(query, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return registerFiltersResponseSchema.parse(response.json());
}

const section = (divisionRailway: string, name: string) => ({ divisionRailway, section: name });

describe('GET /api/register-filters', () => {
  it('lists every section of curves and stations once, by division then section, and SSE names alphabetically', async () => {
    expect(await filters()).toEqual({
      sections: [
        section('BRC/WR', 'BRC-ANND'),
        section('FZR/NR', 'FZR-JUC'),
        section('NDLS/NR', 'NDLS-DLI'),
        section('RTM/WR', 'BEC Bypass'),
        section('RTM/WR', 'RTM-GDA'),
        section('RTM/WR', 'RTM-NAD'),
        section('RTM/WR', 'RTM-UJN'),
      ],
      sses: ['SSE/Bridges/FZR', 'SSE/P.Way/BRC', 'SSE/P.Way/FZR', 'SSE/P.Way/GDA', 'SSE/P.Way/NAD'],
    });
  });

  it('gives one division’s lists with ?division=', async () => {
    expect(await filters('?division=FZR%2FNR')).toEqual({
      sections: [section('FZR/NR', 'FZR-JUC')],
      sses: ['SSE/Bridges/FZR', 'SSE/P.Way/FZR'],
    });
    expect(await filters('?division=NDLS%2FNR')).toEqual({ sections: [section('NDLS/NR', 'NDLS-DLI')], sses: [] });
    expect(await filters('?division=Nowhere')).toEqual({ sections: [], sses: [] });
  });

  it('gives a Client their division’s lists whatever they ask, and a Client without one nothing', async () => {
    const own = {
      sections: [section('RTM/WR', 'BEC Bypass'), section('RTM/WR', 'RTM-GDA'), section('RTM/WR', 'RTM-NAD'), section('RTM/WR', 'RTM-UJN')],
      sses: ['SSE/P.Way/GDA', 'SSE/P.Way/NAD'],
    };
    expect(await filters('', client)).toEqual(own);
    expect(await filters('?division=FZR%2FNR', client)).toEqual(own);
    expect(await filters('?division=FZR%2FNR', clientWithoutDivision)).toEqual({ sections: [], sses: [] });
  });

  it('is for signed-in users: a Technician reads it, an anonymous caller gets 401', async () => {
    expect((await filters('?division=BRC%2FWR', technician)).sections).toEqual([section('BRC/WR', 'BRC-ANND')]);
    expect((await filtersRequest('', null)).statusCode).toBe(401);
  });

  it('changes as soon as a curve or a station is added, edited or deleted', async () => {
    const before = await filters('?division=JBP%2FWCR');
    expect(before).toEqual({ sections: [], sses: [] });

    const add = await t.app.inject({
      method: 'POST',
      url: '/api/consolidated-curves',
      headers: { cookie: admin },
      payload: { no: 1, divisionRailway: 'JBP/WCR', section: 'JBP-KTE', curveNumber: '1', line: 'Up', sse: 'SSE/P.Way/KTE' },
    });
    expect(add.statusCode, add.body).toBe(201);
    expect(await filters('?division=JBP%2FWCR')).toEqual({ sections: [section('JBP/WCR', 'JBP-KTE')], sses: ['SSE/P.Way/KTE'] });

    const edit = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/curves/JBP-KTE/1/Up',
      headers: { cookie: admin },
      payload: { no: 1, divisionRailway: 'JBP/WCR', section: 'JBP-KTE', curveNumber: '1', line: 'Up', sse: 'SSE/P.Way/SRR' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await filters('?division=JBP%2FWCR')).sses).toEqual(['SSE/P.Way/SRR']);

    const station = await t.app.inject({
      method: 'POST',
      url: '/api/stations',
      headers: { cookie: admin },
      payload: { no: 1, stationName: 'Katni', stationCode: 'KTE', section: 'JBP-ALL', divisionRailway: 'JBP/WCR' },
    });
    expect(station.statusCode, station.body).toBe(201);
    expect((await filters('?division=JBP%2FWCR')).sections).toEqual([section('JBP/WCR', 'JBP-ALL'), section('JBP/WCR', 'JBP-KTE')]);

    const removed = await t.app.inject({ method: 'DELETE', url: '/api/consolidated-curves/JBP-KTE/1/Up', headers: { cookie: admin } });
    expect(removed.statusCode).toBe(200);
    expect(await filters('?division=JBP%2FWCR')).toEqual({ sections: [section('JBP/WCR', 'JBP-ALL')], sses: [] });

    const stationId = station.json().station.id as number;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/stations/${stationId}`, headers: { cookie: admin } })).statusCode).toBe(200);
    expect(await filters('?division=JBP%2FWCR')).toEqual({ sections: [], sses: [] });
  });

  it('changes after an import', async () => {
    const form = new FormData();
    form.append('type', 'curves');
    const file = 'No,Division/Railway,Section,Curve Number,Line,SSE\r\n1,NDLS/NR,NDLS-GZB,1,Up,SSE/P.Way/GZB\r\n';
    form.append('file', new Blob([file]), 'curves.csv');
    const response = await t.app.inject({ method: 'POST', url: '/api/import-excel', headers: { cookie: admin }, payload: form });
    expect(response.statusCode, response.body).toBe(200);
    expect(await filters('?division=NDLS%2FNR')).toEqual({
      sections: [section('NDLS/NR', 'NDLS-DLI'), section('NDLS/NR', 'NDLS-GZB')],
      sses: ['SSE/P.Way/GZB'],
    });
  });
});
