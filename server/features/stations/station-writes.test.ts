/**
 * The register's station writes (docs/functional-requirements.md, 'Curve and station register'): add, edit by id, delete,
 * the admin's paged and filtered list; validation, the named 409 of a code used twice in a
 * section, access and the audit trail.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditListResponseSchema, type AuditEntry } from '../../../common/schemas/audit.js';
import { stationListResponseSchema, type Station } from '../../../common/schemas/reference.js';
import { stationDeleteResponseSchema, stationRegisterResponseSchema, stationResponseSchema } from '../../../common/schemas/register.js';
import { auditLog, stations } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_RTM, TECHNICIAN, createAndSignIn, errorOf } from '../../test/factories.js';

let t: TestApp;
let admin: string;
let technician: string;
let client: string;

beforeAll(async () => {
  t = await buildTestApp();
  ({ admin, technician, client } = await createAndSignIn(t, { admin: ADMIN, technician: TECHNICIAN, client: CLIENT_RTM }));
});
afterAll(() => t.close());


/** `null`: an anonymous caller. */
const headersOf = (cookie: string | null) => (cookie ? { cookie } : {});
const create = (payload: object, cookie: string | null = admin) => t.app.inject({ method: 'POST', url: '/api/stations', headers: headersOf(cookie), payload });
const update = (id: number | string, payload: object, cookie: string | null = admin) =>
  t.app.inject({ method: 'PUT', url: `/api/admin/stations/${id}`, headers: headersOf(cookie), payload });
const remove = (id: number | string, cookie: string | null = admin) => t.app.inject({ method: 'DELETE', url: `/api/stations/${id}`, headers: headersOf(cookie) });
const registerList = (query: string, cookie: string | null = admin) =>
  t.app.inject({ method: 'GET', url: `/api/admin/stations${query}`, headers: headersOf(cookie) });

const station = (overrides: Record<string, unknown> = {}) => ({
  no: 1,
  stationName: 'Ratlam Jn',
  stationCode: 'RTM',
  section: 'RTM-NAD',
  divisionRailway: 'RTM/WR',
  ...overrides,
});

async function createOk(payload: object): Promise<Station> {
  const response = await create(payload);
  expect(response.statusCode, response.body).toBe(201);
  return stationResponseSchema.parse(response.json()).station;
}

const snapshot = () => t.database.db.select().from(stations).orderBy(stations.id);
const rowOf = async (id: number) => (await t.database.db.select().from(stations).where(eq(stations.id, id)))[0];

async function auditCount(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(auditLog);
  return row?.n ?? 0;
}

async function auditEntries(): Promise<AuditEntry[]> {
  const response = await t.app.inject({ method: 'GET', url: '/api/audit?limit=500', headers: { cookie: admin } });
  expect(response.statusCode).toBe(200);
  return auditListResponseSchema.parse(response.json()).entries;
}

describe('POST /api/stations', () => {
  it('adds a station, answers 201 {station}, and the technicians’ station list shows it', async () => {
    const response = await create(station({ no: '4', stationName: '  Bangrod ', stationCode: 'BOD', section: 'ADD-S1' }));
    expect(response.statusCode, response.body).toBe(201);
    const created = stationResponseSchema.parse(response.json()).station;
    expect(created).toEqual({ id: expect.any(Number), no: 4, stationName: 'Bangrod', stationCode: 'BOD', section: 'ADD-S1', divisionRailway: 'RTM/WR' });
    expect(await rowOf(created.id)).toEqual(created);

    const forPhones = await t.app.inject({ method: 'GET', url: '/api/stations?section=ADD-S1', headers: { cookie: technician } });
    expect(stationListResponseSchema.parse(forPhones.json()).stations).toEqual([created]);
  });

  it('keeps a name in one line: a line break becomes a space', async () => {
    const created = await createOk(station({ stationName: 'Sihora\nRoad', stationCode: 'SHR', section: 'ADD-S1' }));
    expect(created.stationName).toBe('Sihora Road');
  });

  it('answers 400 naming every missing field, and writes nothing', async () => {
    const before = await snapshot();
    const response = await create({});
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'no: No. is required',
      fields: {
        no: 'No. is required',
        stationName: 'Station name is required',
        stationCode: 'Station code is required',
        section: 'Section is required',
        divisionRailway: 'Division/Railway is required',
      },
    });
    const noSection = await create(station({ section: '' }));
    expect(errorOf(noSection)).toMatchObject({ message: 'section: Section is required', fields: { section: 'Section is required' } });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['a division outside the five', { divisionRailway: 'WR' }, 'divisionRailway', 'Division/Railway must be one of RTM/WR, FZR/NR, BRC/WR, NDLS/NR, JBP/WCR'],
    ['a station code over 20 characters', { stationCode: 'C'.repeat(21) }, 'stationCode', 'Station code must be at most 20 characters'],
    ['a station name over 100 characters', { stationName: 'N'.repeat(101) }, 'stationName', 'Station name must be at most 100 characters'],
    ['a section over 100 characters', { section: 'S'.repeat(101) }, 'section', 'Section must be at most 100 characters'],
    ['a No. that is not whole', { no: 2.5 }, 'no', 'No. must be a whole number'],
    ['a negative No.', { no: -1 }, 'no', 'No. must be at least 0'],
  ])('answers 400 for %s, naming the field and the rule', async (_, overrides, field, message) => {
    const before = await snapshot();
    const response = await create(station({ section: 'BAD-S', ...overrides }));
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response)).toMatchObject({ code: 'VALIDATION_FAILED', message: `${field}: ${message}`, fields: { [field]: message } });
    expect(Object.keys(errorOf(response).fields ?? {})).toEqual([field]);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 409 for a station code that exists in the section, naming it; the code may repeat in another section', async () => {
    await createOk(station({ section: 'DUP-S', stationCode: 'NAD', stationName: 'Nagda Jn' }));
    const before = await snapshot();
    const response = await create(station({ section: 'DUP-S', stationCode: 'NAD', stationName: 'Another name', no: 9 }));
    expect(response.statusCode).toBe(409);
    expect(errorOf(response)).toMatchObject({
      code: 'CONFLICT',
      message: 'Station code NAD already exists in section DUP-S',
      fields: { stationCode: 'Station code NAD already exists in section DUP-S' },
    });
    expect(await snapshot()).toEqual(before);
    expect((await createOk(station({ section: 'DUP-S2', stationCode: 'NAD', stationName: 'Nagda Jn' }))).section).toBe('DUP-S2');
  });

  it('is refused to anonymous callers (401), Technicians and Clients (403), writing nothing', async () => {
    const [before, audits] = [await snapshot(), await auditCount()];
    const body = station({ section: 'REFUSED-S' });
    expect((await create(body, null)).statusCode).toBe(401);
    const forbidden = await create(body, technician);
    expect(forbidden.statusCode).toBe(403);
    expect(errorOf(forbidden).code).toBe('FORBIDDEN');
    expect((await create(body, client)).statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });
});

describe('PUT /api/admin/stations/{id}', () => {
  it('changes every field; the body may repeat the path’s id (as a number or as text)', async () => {
    const original = await createOk(station({ section: 'EDIT-S1', stationCode: 'KTE', stationName: 'Katni' }));
    const response = await update(original.id, { id: original.id, no: 5, stationName: 'Katni Jn', stationCode: 'KTE', section: 'EDIT-S1', divisionRailway: 'JBP/WCR' });
    expect(response.statusCode, response.body).toBe(200);
    const updated = stationResponseSchema.parse(response.json()).station;
    expect(updated).toEqual({ id: original.id, no: 5, stationName: 'Katni Jn', stationCode: 'KTE', section: 'EDIT-S1', divisionRailway: 'JBP/WCR' });
    expect(await rowOf(original.id)).toEqual(updated);

    const asText = await update(original.id, { id: String(original.id), no: 6, stationName: 'Katni Jn', stationCode: 'KTE1', section: 'EDIT-S1B', divisionRailway: 'JBP/WCR' });
    expect(asText.statusCode, asText.body).toBe(200);
    expect(asText.json().station).toMatchObject({ id: original.id, no: 6, stationCode: 'KTE1', section: 'EDIT-S1B' });
    const withoutId = await update(original.id, station({ stationCode: 'KTE1', section: 'EDIT-S1B', no: 7 }));
    expect(withoutId.statusCode).toBe(200);
    expect(await rowOf(original.id)).toMatchObject({ no: 7, stationName: 'Ratlam Jn', stationCode: 'KTE1', divisionRailway: 'RTM/WR' });
  });

  it('answers 400 naming id when the body names another station, and changes neither', async () => {
    const a = await createOk(station({ section: 'EDIT-S2', stationCode: 'AAA' }));
    const b = await createOk(station({ section: 'EDIT-S2', stationCode: 'BBB' }));
    const before = await snapshot();
    const response = await update(a.id, station({ id: b.id, section: 'EDIT-S2', stationCode: 'AAA', no: 42 }));
    expect(response.statusCode).toBe(400);
    const error = errorOf(response);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(error.fields ?? {})).toEqual(['id']);
    expect(error.message).toMatch(/^id: /);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 400 for a path id that is not a whole number above 0', async () => {
    for (const id of ['abc', '0', '1.5']) {
      const response = await update(id, station({ section: 'EDIT-S2' }));
      expect(response.statusCode, id).toBe(400);
      expect(Object.keys(errorOf(response).fields ?? {}), id).toEqual(['id']);
    }
  });

  it('answers 400 for a body that breaks a rule, naming the field', async () => {
    const s = await createOk(station({ section: 'EDIT-S3', stationCode: 'CCC' }));
    const before = await snapshot();
    const response = await update(s.id, station({ section: 'EDIT-S3', stationCode: '', divisionRailway: 'XX' }));
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).fields).toEqual({
      stationCode: 'Station code is required',
      divisionRailway: 'Division/Railway must be one of RTM/WR, FZR/NR, BRC/WR, NDLS/NR, JBP/WCR',
    });
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 for an unknown id', async () => {
    const before = await snapshot();
    const response = await update(987654, station({ section: 'EDIT-S4' }));
    expect(response.statusCode).toBe(404);
    expect(errorOf(response)).toMatchObject({ code: 'NOT_FOUND', message: 'No station with id 987654' });
    expect(await snapshot()).toEqual(before);
  });

  it('answers 409 when the new section and code are another station’s, naming them', async () => {
    await createOk(station({ section: 'EDIT-S5', stationCode: 'DDD' }));
    const e = await createOk(station({ section: 'EDIT-S5', stationCode: 'EEE' }));
    const before = await snapshot();
    const response = await update(e.id, station({ section: 'EDIT-S5', stationCode: 'DDD' }));
    expect(response.statusCode).toBe(409);
    expect(errorOf(response)).toMatchObject({
      code: 'CONFLICT',
      message: 'Station code DDD already exists in section EDIT-S5',
      fields: { stationCode: 'Station code DDD already exists in section EDIT-S5' },
    });
    expect(await snapshot()).toEqual(before);
    // Keeping its own key is no conflict.
    expect((await update(e.id, station({ section: 'EDIT-S5', stationCode: 'EEE', no: 3 }))).statusCode).toBe(200);
  });

  it('is refused to anonymous callers (401), Technicians and Clients (403), changing nothing', async () => {
    const s = await createOk(station({ section: 'EDIT-S6', stationCode: 'FFF' }));
    const [before, audits] = [await snapshot(), await auditCount()];
    const body = station({ section: 'EDIT-S6', stationCode: 'FFF', stationName: 'Taken over' });
    expect((await update(s.id, body, null)).statusCode).toBe(401);
    expect((await update(s.id, body, technician)).statusCode).toBe(403);
    expect((await update(s.id, body, client)).statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });
});

describe('DELETE /api/stations/{id}', () => {
  it('deletes the station and answers {deleted: true, station}; a second delete is 404', async () => {
    const s = await createOk(station({ section: 'DEL-S1', stationCode: 'GGG' }));
    const response = await remove(s.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(stationDeleteResponseSchema.parse(response.json())).toEqual({ deleted: true, station: s });
    expect(await rowOf(s.id)).toBeUndefined();
    const again = await remove(s.id);
    expect(again.statusCode).toBe(404);
    expect(errorOf(again)).toMatchObject({ code: 'NOT_FOUND', message: `No station with id ${s.id}` });
    // The key is free again.
    await createOk(station({ section: 'DEL-S1', stationCode: 'GGG' }));
  });

  it('is refused to anonymous callers (401), Technicians and Clients (403), deleting nothing', async () => {
    const s = await createOk(station({ section: 'DEL-S2', stationCode: 'HHH' }));
    const [before, audits] = [await snapshot(), await auditCount()];
    expect((await remove(s.id, null)).statusCode).toBe(401);
    expect((await remove(s.id, technician)).statusCode).toBe(403);
    expect((await remove(s.id, client)).statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });
});

describe('audit trail of station writes', () => {
  it('records create, update and delete with before and after, named section/code', async () => {
    const s = await createOk(station({ section: 'AUD-S', stationCode: 'III', stationName: 'Itarsi' }));
    expect((await update(s.id, station({ section: 'AUD-S', stationCode: 'ET', stationName: 'Itarsi Jn', no: 2 }))).statusCode).toBe(200);
    expect((await remove(s.id)).statusCode).toBe(200);
    const entries = (await auditEntries()).filter((e) => e.entity === 'station' && e.entityId?.startsWith('AUD-S/'));
    expect(entries.map((e) => [e.action, e.entityId])).toEqual([
      ['station.delete', 'AUD-S/ET'],
      ['station.update', 'AUD-S/ET'],
      ['station.create', 'AUD-S/III'],
    ]);
    const [del, upd, cre] = entries;
    expect(cre).toMatchObject({ actorEmployeeId: 'ADM1', before: null, after: { id: s.id, stationCode: 'III', stationName: 'Itarsi' } });
    expect(upd).toMatchObject({
      actorEmployeeId: 'ADM1',
      before: { id: s.id, stationCode: 'III', stationName: 'Itarsi', no: 1 },
      after: { id: s.id, stationCode: 'ET', stationName: 'Itarsi Jn', no: 2 },
    });
    expect(del).toMatchObject({ actorEmployeeId: 'ADM1', before: { id: s.id, stationCode: 'ET' }, after: null });
  });

  it('a refused write leaves no audit entry', async () => {
    await createOk(station({ section: 'AUD-S2', stationCode: 'JJJ' }));
    const before = await auditCount();
    expect((await create(station({ section: 'AUD-S2', stationCode: 'JJJ' }))).statusCode).toBe(409);
    expect((await create({})).statusCode).toBe(400);
    expect((await remove(987655)).statusCode).toBe(404);
    expect(await auditCount()).toBe(before);
  });
});

describe('GET /api/admin/stations', () => {
  const LIST_DIVISION = 'NDLS/NR';
  let all: Station[];

  beforeAll(async () => {
    // Inserted out of order: the list must sort by division, section, No., id.
    const rows = [
      { no: 3, stationName: 'Ghaziabad', stationCode: 'GZB', section: 'NDLS-GZB', divisionRailway: LIST_DIVISION },
      { no: 1, stationName: 'New Delhi', stationCode: 'NDLS', section: 'NDLS-GZB', divisionRailway: LIST_DIVISION },
      { no: 2, stationName: 'Shahdara', stationCode: 'SHZ', section: 'NDLS-GZB', divisionRailway: LIST_DIVISION },
      { no: 2, stationName: 'Sonipat', stationCode: 'SNP', section: 'NDLS-AAA', divisionRailway: LIST_DIVISION },
      { no: 1, stationName: 'Delhi Sarai Rohilla', stationCode: 'DEE', section: 'NDLS-AAA', divisionRailway: LIST_DIVISION },
      { no: 2, stationName: 'Narela', stationCode: 'NUR', section: 'NDLS-AAA', divisionRailway: LIST_DIVISION },
      { no: 1, stationName: 'Delhi Cantt', stationCode: 'DEC', section: 'FZR-DLI', divisionRailway: 'FZR/NR' },
    ];
    await t.database.db.insert(stations).values(rows);
    all = (await t.database.db.select().from(stations)).sort(
      (a, b) =>
        (a.divisionRailway < b.divisionRailway ? -1 : a.divisionRailway > b.divisionRailway ? 1 : 0) ||
        (a.section < b.section ? -1 : a.section > b.section ? 1 : 0) ||
        a.no - b.no ||
        a.id - b.id,
    );
  });

  async function listOk(query: string) {
    const response = await registerList(query);
    expect(response.statusCode, response.body).toBe(200);
    return stationRegisterResponseSchema.parse(response.json());
  }
  const codes = (list: { stations: Station[] }) => list.stations.map((s) => s.stationCode);

  it('answers {stations, total} in the register order: division, section, No., id', async () => {
    const first = await listOk('?limit=500');
    expect(first.total).toBe(all.length);
    expect(first.stations).toEqual(all);
    const ndls = await listOk(`?division=${encodeURIComponent(LIST_DIVISION)}`);
    expect(codes(ndls)).toEqual(['DEE', 'SNP', 'NUR', 'NDLS', 'SHZ', 'GZB']);
    expect(ndls.total).toBe(6);
  });

  it('pages with limit and offset, the total counting every match', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 8; offset += 4) {
      const page = await listOk(`?division=${encodeURIComponent(LIST_DIVISION)}&limit=4&offset=${offset}`);
      expect(page.total).toBe(6);
      seen.push(...codes(page));
    }
    expect(seen).toEqual(['DEE', 'SNP', 'NUR', 'NDLS', 'SHZ', 'GZB']);
    // 20 by default.
    expect((await listOk('')).stations).toEqual(all.slice(0, 20));
  });

  it('filters by section and by q (part of a name or a code, any case)', async () => {
    expect(codes(await listOk('?section=NDLS-GZB'))).toEqual(['NDLS', 'SHZ', 'GZB']);
    expect(codes(await listOk('?q=delhi'))).toEqual(['DEC', 'DEE', 'NDLS']);
    expect(codes(await listOk(`?q=delhi&division=${encodeURIComponent(LIST_DIVISION)}`))).toEqual(['DEE', 'NDLS']);
    expect(codes(await listOk('?q=zb'))).toEqual(['GZB']);
    const none = await listOk('?q=nowhere');
    expect(none).toEqual({ stations: [], total: 0 });
  });

  it('answers 400 for a bad limit or offset, naming it', async () => {
    const tooMany = await registerList('?limit=501');
    expect(tooMany.statusCode).toBe(400);
    expect(errorOf(tooMany)).toMatchObject({ message: 'limit: limit must be at most 500', fields: { limit: 'limit must be at most 500' } });
    expect(Object.keys(errorOf(await registerList('?offset=-1')).fields ?? {})).toEqual(['offset']);
  });

  it('is for Admins only', async () => {
    expect((await registerList('', null)).statusCode).toBe(401);
    expect((await registerList('', technician)).statusCode).toBe(403);
    expect((await registerList('', client)).statusCode).toBe(403);
  });
});
