/**
 * The register's curve writes (docs/functional-requirements.md, 'Curve and station register'): add, edit by the
 * curve's key (URL-encoded in the path), delete; their validation, named conflicts, access,
 * audit entries; what phones notice (the list's ETag) and what stays put (inspection records).
 */
import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditListResponseSchema, type AuditEntry } from '../../../common/schemas/audit.js';
import { curveListResponseSchema, type Curve } from '../../../common/schemas/curve.js';
import { inspectionListResponseSchema, uploadResponseSchema } from '../../../common/schemas/inspection.js';
import { curveDeleteResponseSchema, curveResponseSchema } from '../../../common/schemas/register.js';
import { auditLog, consolidatedCurveDetails } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_RTM, TECHNICIAN, createAndSignIn, errorOf } from '../../test/factories.js';
import { makeJpeg, uploadForm } from '../../test/photos.js';

let t: TestApp;
let admin: string;
let technician: string;
let client: string;

beforeAll(async () => {
  t = await buildTestApp();
  ({ admin, technician, client } = await createAndSignIn(t, { admin: ADMIN, technician: { ...TECHNICIAN, name: 'Ravi Meena' }, client: CLIENT_RTM }));
});
afterAll(() => t.close());

interface Key {
  section: string;
  curveNumber: string;
  line: string;
}


/** `null`: an anonymous caller. */
const headersOf = (cookie: string | null) => (cookie ? { cookie } : {});
const pathOf = (key: Key) => [key.section, key.curveNumber, key.line].map(encodeURIComponent).join('/');
const create = (payload: object, cookie: string | null = admin) =>
  t.app.inject({ method: 'POST', url: '/api/consolidated-curves', headers: headersOf(cookie), payload });
const update = (key: Key, payload: object, cookie: string | null = admin) =>
  t.app.inject({ method: 'PUT', url: `/api/admin/curves/${pathOf(key)}`, headers: headersOf(cookie), payload });
const remove = (key: Key, cookie: string | null = admin) =>
  t.app.inject({ method: 'DELETE', url: `/api/consolidated-curves/${pathOf(key)}`, headers: headersOf(cookie) });
const list = (query: string, cookie: string = technician) =>
  t.app.inject({ method: 'GET', url: `/api/consolidated-curves${query}`, headers: { cookie } });

async function listed(query: string, cookie: string = technician): Promise<Curve[]> {
  const response = await list(query, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return curveListResponseSchema.parse(response.json()).curves;
}

/** A full, valid add-curve body (every field the form has). */
const fullCurve = (overrides: Record<string, unknown> = {}) => ({
  no: 7,
  hkmCode: 4101,
  divisionRailway: 'RTM/WR',
  section: 'RTM-NAD',
  curveNumber: '660/10-661/7',
  line: 'Up',
  kmFrom: 660,
  metFrom: 10,
  kmTo: 661,
  metTo: 7,
  length: 397,
  station1: 'Ratlam Jn',
  station2: 'Bangrod',
  degree: 2.5,
  den: 'Sr.DEN/Co/RTM',
  aen: 'AEN/NAD',
  sse: 'SSE/P.Way/NAD',
  comments: 'Check rail on the inside',
  ...overrides,
});

async function createOk(payload: object): Promise<Curve> {
  const response = await create(payload);
  expect(response.statusCode, response.body).toBe(201);
  return curveResponseSchema.parse(response.json()).curve;
}

async function curveRowsAt(key: Key) {
  return t.database.db
    .select()
    .from(consolidatedCurveDetails)
    .where(eq(consolidatedCurveDetails.section, key.section))
    .then((rows) => rows.filter((r) => r.curveNumber === key.curveNumber && r.line === key.line));
}

async function curveCount(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(consolidatedCurveDetails);
  return row?.n ?? 0;
}

async function auditCount(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(auditLog);
  return row?.n ?? 0;
}

async function auditEntries(): Promise<AuditEntry[]> {
  const response = await t.app.inject({ method: 'GET', url: '/api/audit?limit=500', headers: { cookie: admin } });
  expect(response.statusCode).toBe(200);
  return auditListResponseSchema.parse(response.json()).entries;
}

/** The whole table, for "nothing changed" checks (timestamps included). */
const snapshot = () => t.database.db.select().from(consolidatedCurveDetails).orderBy(consolidatedCurveDetails.id);

describe('POST /api/consolidated-curves', () => {
  it('adds a curve with every field as sent and answers 201 {curve}', async () => {
    const response = await create(fullCurve({ section: 'ADD-1' }));
    expect(response.statusCode, response.body).toBe(201);
    const { curve } = curveResponseSchema.parse(response.json());
    expect(curve).toMatchObject({
      no: 7,
      hkmCode: 4101,
      divisionRailway: 'RTM/WR',
      section: 'ADD-1',
      curveNumber: '660/10-661/7',
      line: 'Up',
      kmFrom: 660,
      metFrom: 10,
      kmTo: 661,
      metTo: 7,
      length: 397,
      station1: 'Ratlam Jn',
      station2: 'Bangrod',
      degree: '2.50',
      den: 'Sr.DEN/Co/RTM',
      aen: 'AEN/NAD',
      sse: 'SSE/P.Way/NAD',
      comments: 'Check rail on the inside',
    });
    const [row] = await curveRowsAt(curve);
    expect(row?.id).toBe(curve.id);
    expect(row).toMatchObject({ hkmCode: 4101, degree: '2.50', station2: 'Bangrod' });
    // The technicians' list shows it.
    expect((await listed('?section=ADD-1')).map((c) => c.id)).toEqual([curve.id]);
  });

  it('stores empty and left-out optional values as null, trims text, and reads the line codes UP, DN, SL', async () => {
    const curve = await createOk({
      no: '3',
      divisionRailway: 'FZR/NR',
      section: '  ADD-2 ',
      curveNumber: ' 15 ',
      line: 'DN',
      hkmCode: '',
      kmFrom: '',
      station1: '   ',
      degree: '',
      sse: '',
      comments: '',
    });
    expect(curve).toMatchObject({
      no: 3,
      section: 'ADD-2',
      curveNumber: '15',
      line: 'Down',
      hkmCode: null,
      kmFrom: null,
      metFrom: null,
      kmTo: null,
      metTo: null,
      length: null,
      station1: null,
      station2: null,
      degree: null,
      den: null,
      aen: null,
      sse: null,
      comments: null,
    });
    expect((await createOk({ no: 4, divisionRailway: 'FZR/NR', section: 'ADD-2', curveNumber: '16', line: 'sl' })).line).toBe('Single');
    // Comments keep their line breaks, as LF (an exported sheet cannot hold a CR).
    const multiline = await createOk({ no: 6, divisionRailway: 'FZR/NR', section: 'ADD-2', curveNumber: '18', line: 'Up', comments: 'one\r\ntwo\rthree\nfour', station1: 'Two\nlines' });
    expect(multiline).toMatchObject({ comments: 'one\ntwo\nthree\nfour', station1: 'Two lines' });
    expect((await createOk({ no: 5, divisionRailway: 'FZR/NR', section: 'ADD-2', curveNumber: '17', line: 'UP' })).line).toBe('Up');
    const [row] = await curveRowsAt({ section: 'ADD-2', curveNumber: '15', line: 'Down' });
    expect(row).toMatchObject({ hkmCode: null, station1: null, comments: null, degree: null });
  });

  it('answers 400 naming every missing required field, and writes nothing', async () => {
    const before = await curveCount();
    const response = await create({});
    expect(response.statusCode).toBe(400);
    const error = errorOf(response);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fields).toEqual({
      no: 'No. is required',
      divisionRailway: 'Division/Railway is required',
      section: 'Section is required',
      curveNumber: 'Curve number is required',
      line: 'Please select a line',
    });

    const noSection = await create(fullCurve({ section: undefined, hkmCode: null }));
    expect(noSection.statusCode).toBe(400);
    expect(errorOf(noSection)).toMatchObject({ message: 'section: Section is required', fields: { section: 'Section is required' } });

    const blankSection = await create(fullCurve({ section: '   ', hkmCode: null }));
    expect(errorOf(blankSection).fields).toEqual({ section: 'Section is required' });
    expect(await curveCount()).toBe(before);
  });

  it.each([
    ['a division outside the five', { divisionRailway: 'ABC/XY' }, 'divisionRailway', 'Division/Railway must be one of RTM/WR, FZR/NR, BRC/WR, NDLS/NR, JBP/WCR'],
    ['a line that is not Up, Down or Single', { line: 'XX' }, 'line', 'Please select a line'],
    ['a section over 100 characters', { section: 'S'.repeat(101) }, 'section', 'Section must be at most 100 characters'],
    ['a curve number over 50 characters', { curveNumber: '1'.repeat(51) }, 'curveNumber', 'Curve number must be at most 50 characters'],
    ['a No. that is not whole', { no: 1.5 }, 'no', 'No. must be a whole number'],
    ['a No. that is not a number', { no: 'seven' }, 'no', 'No. must be a whole number'],
    ['a degree with 3 decimals', { degree: 1.234 }, 'degree', 'Degree must have at most 2 decimals'],
    ['a degree over 999.99', { degree: 1000 }, 'degree', 'Degree must be at most 999.99'],
    ['a negative HKM code', { hkmCode: -4 }, 'hkmCode', 'HKM code must be at least 1'],
    ['a station name over 100 characters', { station1: 'x'.repeat(101) }, 'station1', 'Station 1 must be at most 100 characters'],
    ['a control character in a name', { sse: 'SSE\u0007' }, 'sse', 'SSE must not contain control characters'],
  ])('answers 400 for %s, naming the field and the rule', async (_, overrides, field, message) => {
    const before = await curveCount();
    const response = await create(fullCurve({ section: 'BAD-1', hkmCode: null, ...overrides }));
    expect(response.statusCode, response.body).toBe(400);
    const error = errorOf(response);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fields).toEqual({ [field]: message });
    expect(error.message).toBe(`${field}: ${message}`);
    expect(await curveCount()).toBe(before);
  });

  it('answers 409 for a curve whose section, number and line exist, naming it', async () => {
    await createOk(fullCurve({ section: 'DUP-1', curveNumber: '12', hkmCode: 4201 }));
    const before = await snapshot();
    const response = await create(fullCurve({ section: 'DUP-1', curveNumber: '12', hkmCode: 4202, no: 99 }));
    expect(response.statusCode).toBe(409);
    const error = errorOf(response);
    expect(error).toMatchObject({ code: 'CONFLICT', message: 'Curve 12 (Up) already exists in section DUP-1' });
    expect(error.fields).toEqual({ curveNumber: 'Curve 12 (Up) already exists in section DUP-1' });
    expect(await snapshot()).toEqual(before);

    // Another line of the same curve number is another curve.
    expect((await createOk(fullCurve({ section: 'DUP-1', curveNumber: '12', line: 'Down', hkmCode: 4203 }))).line).toBe('Down');
  });

  it('answers 409 for an HKM code another curve has, naming the code and that curve', async () => {
    const before = await snapshot();
    const response = await create(fullCurve({ section: 'DUP-1', curveNumber: '13', hkmCode: 4201 }));
    expect(response.statusCode).toBe(409);
    const error = errorOf(response);
    expect(error.message).toBe('HKM code 4201 is already used by curve 12 (Up) in section DUP-1');
    expect(error.fields).toEqual({ hkmCode: 'HKM code 4201 is already used by curve 12 (Up) in section DUP-1' });
    expect(await snapshot()).toEqual(before);
  });

  it('is refused to anonymous callers (401), Technicians and Clients (403), writing nothing', async () => {
    const [curvesBefore, auditsBefore] = [await curveCount(), await auditCount()];
    const body = fullCurve({ section: 'REFUSED', hkmCode: null });
    expect((await create(body, null)).statusCode).toBe(401);
    expect(errorOf(await create(body, technician)).code).toBe('FORBIDDEN');
    expect((await create(body, technician)).statusCode).toBe(403);
    expect((await create(body, client)).statusCode).toBe(403);
    expect(await curveCount()).toBe(curvesBefore);
    expect(await auditCount()).toBe(auditsBefore);
  });
});

describe('PUT /api/admin/curves/{section}/{curveNumber}/{line}', () => {
  it('keeps optional fields left out, clears those sent as null or empty, and changes those sent', async () => {
    const original = await createOk(fullCurve({ section: 'EDIT-1', curveNumber: '21', hkmCode: 4301 }));
    const response = await update(original, {
      no: 8,
      divisionRailway: 'RTM/WR',
      section: 'EDIT-1',
      curveNumber: '21',
      line: 'Up',
      station1: 'Namli',
      sse: null,
      comments: '',
      degree: '3.75',
    });
    expect(response.statusCode, response.body).toBe(200);
    const { curve } = curveResponseSchema.parse(response.json());
    expect(curve).toMatchObject({
      id: original.id,
      no: 8,
      station1: 'Namli',
      sse: null,
      comments: null,
      degree: '3.75',
      // Left out: as they were.
      hkmCode: 4301,
      kmFrom: 660,
      metFrom: 10,
      kmTo: 661,
      metTo: 7,
      length: 397,
      station2: 'Bangrod',
      den: 'Sr.DEN/Co/RTM',
      aen: 'AEN/NAD',
    });
    const [row] = await curveRowsAt(original);
    expect(row).toMatchObject({ no: 8, station1: 'Namli', sse: null, comments: null, hkmCode: 4301, station2: 'Bangrod', aen: 'AEN/NAD' });
    expect(row?.createdAt.toISOString()).toBe(original.createdAt);
  });

  it('moves a curve to a new key: the old path then answers 404, the new one works', async () => {
    const original = await createOk(fullCurve({ section: 'EDIT-2', curveNumber: '31', hkmCode: 4311 }));
    const moved = await update(original, { no: 1, divisionRailway: 'RTM/WR', section: 'EDIT-2B', curveNumber: '31A', line: 'DN' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().curve).toMatchObject({ id: original.id, section: 'EDIT-2B', curveNumber: '31A', line: 'Down', hkmCode: 4311 });

    const oldPath = await update(original, { no: 2, divisionRailway: 'RTM/WR', section: 'EDIT-2', curveNumber: '31', line: 'Up' });
    expect(oldPath.statusCode).toBe(404);
    expect(errorOf(oldPath)).toMatchObject({ code: 'NOT_FOUND', message: 'No curve 31 (Up) in section EDIT-2' });
    expect((await remove(original)).statusCode).toBe(404);

    const newKey = { section: 'EDIT-2B', curveNumber: '31A', line: 'Down' };
    const again = await update(newKey, { no: 3, divisionRailway: 'RTM/WR', ...newKey });
    expect(again.statusCode).toBe(200);
    expect(again.json().curve).toMatchObject({ id: original.id, no: 3 });
    expect(await curveRowsAt(original)).toEqual([]);
    expect((await curveRowsAt(newKey)).map((r) => r.id)).toEqual([original.id]);
  });

  it('answers 404 for a curve that does not exist, writing nothing', async () => {
    const [curvesBefore, auditsBefore] = [await curveCount(), await auditCount()];
    const key = { section: 'NOWHERE', curveNumber: '1', line: 'Up' };
    const response = await update(key, { no: 1, divisionRailway: 'RTM/WR', ...key });
    expect(response.statusCode).toBe(404);
    expect(errorOf(response)).toMatchObject({ code: 'NOT_FOUND', message: 'No curve 1 (Up) in section NOWHERE' });
    expect(await curveCount()).toBe(curvesBefore);
    expect(await auditCount()).toBe(auditsBefore);
  });

  it('answers 409 when the new key or HKM code is another curve’s, naming it, and changes nothing', async () => {
    const a = await createOk(fullCurve({ section: 'EDIT-3', curveNumber: '41', hkmCode: 4321 }));
    const b = await createOk(fullCurve({ section: 'EDIT-3', curveNumber: '42', hkmCode: 4322 }));
    const before = await snapshot();

    const ontoKey = await update(b, { no: 1, divisionRailway: 'RTM/WR', section: 'EDIT-3', curveNumber: '41', line: 'Up' });
    expect(ontoKey.statusCode).toBe(409);
    expect(errorOf(ontoKey)).toMatchObject({
      code: 'CONFLICT',
      message: 'Curve 41 (Up) already exists in section EDIT-3',
      fields: { curveNumber: 'Curve 41 (Up) already exists in section EDIT-3' },
    });

    const ontoCode = await update(b, { no: 1, divisionRailway: 'RTM/WR', section: 'EDIT-3', curveNumber: '42', line: 'Up', hkmCode: a.hkmCode });
    expect(ontoCode.statusCode).toBe(409);
    expect(errorOf(ontoCode)).toMatchObject({
      code: 'CONFLICT',
      message: 'HKM code 4321 is already used by curve 41 (Up) in section EDIT-3',
      fields: { hkmCode: 'HKM code 4321 is already used by curve 41 (Up) in section EDIT-3' },
    });
    expect(await snapshot()).toEqual(before);

    // Its own code and key again are no conflict.
    const same = await update(b, { no: 9, divisionRailway: 'RTM/WR', section: 'EDIT-3', curveNumber: '42', line: 'Up', hkmCode: 4322 });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().curve).toMatchObject({ id: b.id, no: 9, hkmCode: 4322 });
  });

  it('answers 400 naming the field when the body breaks a rule or lacks a key field', async () => {
    const curve = await createOk(fullCurve({ section: 'EDIT-4', curveNumber: '51', hkmCode: null }));
    const before = await snapshot();
    const noKey = await update(curve, { no: 1, divisionRailway: 'RTM/WR', curveNumber: '51', line: 'Up' });
    expect(noKey.statusCode).toBe(400);
    expect(errorOf(noKey)).toMatchObject({ message: 'section: Section is required', fields: { section: 'Section is required' } });

    const badLine = await update(curve, { no: 1, divisionRailway: 'RTM/WR', section: 'EDIT-4', curveNumber: '51', line: 'XX' });
    expect(errorOf(badLine).fields).toEqual({ line: 'Please select a line' });
    const badDegree = await update(curve, { no: 1, divisionRailway: 'RTM/WR', section: 'EDIT-4', curveNumber: '51', line: 'Up', degree: 0.125 });
    expect(errorOf(badDegree).fields).toEqual({ degree: 'Degree must have at most 2 decimals' });
    const badDivision = await update(curve, { no: 1, divisionRailway: 'XYZ/AB', section: 'EDIT-4', curveNumber: '51', line: 'Up' });
    expect(Object.keys(errorOf(badDivision).fields ?? {})).toEqual(['divisionRailway']);
    expect(await snapshot()).toEqual(before);
  });

  it('is refused to anonymous callers (401), Technicians and Clients (403), writing nothing', async () => {
    const curve = await createOk(fullCurve({ section: 'EDIT-5', curveNumber: '61', hkmCode: null }));
    const [before, auditsBefore] = [await snapshot(), await auditCount()];
    const body = { no: 1, divisionRailway: 'RTM/WR', section: 'EDIT-5', curveNumber: '61', line: 'Up', sse: 'SSE/Taken' };
    expect((await update(curve, body, null)).statusCode).toBe(401);
    expect((await update(curve, body, technician)).statusCode).toBe(403);
    expect((await update(curve, body, client)).statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
    expect(await auditCount()).toBe(auditsBefore);
  });
});

describe('DELETE /api/consolidated-curves/{section}/{curveNumber}/{line}', () => {
  it('deletes the curve and answers {deleted: true, curve} with what it was; a second delete is 404', async () => {
    const curve = await createOk(fullCurve({ section: 'DEL-1', curveNumber: '71', hkmCode: 4401 }));
    const response = await remove(curve);
    expect(response.statusCode, response.body).toBe(200);
    const body = curveDeleteResponseSchema.parse(response.json());
    expect(body).toEqual({ deleted: true, curve });
    expect(await curveRowsAt(curve)).toEqual([]);

    const again = await remove(curve);
    expect(again.statusCode).toBe(404);
    expect(errorOf(again)).toMatchObject({ code: 'NOT_FOUND', message: 'No curve 71 (Up) in section DEL-1' });

    // Its key and code are free again.
    expect((await createOk(fullCurve({ section: 'DEL-1', curveNumber: '71', hkmCode: 4401 }))).id).not.toBe(curve.id);
  });

  it('is refused to anonymous callers (401), Technicians and Clients (403), deleting nothing', async () => {
    const curve = await createOk(fullCurve({ section: 'DEL-2', curveNumber: '72', hkmCode: null }));
    const [before, auditsBefore] = [await snapshot(), await auditCount()];
    expect((await remove(curve, null)).statusCode).toBe(401);
    expect((await remove(curve, technician)).statusCode).toBe(403);
    expect((await remove(curve, client)).statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
    expect(await auditCount()).toBe(auditsBefore);
  });
});

describe('curve keys in the path are URL-encoded', () => {
  it.each([
    ['a section with a space', { section: 'BEC Bypass', curveNumber: '5', line: 'Up' }],
    ['a section with a slash', { section: 'A/B', curveNumber: '6', line: 'Down' }],
    ['a curve number with slashes', { section: 'RTM-NAD-ENC', curveNumber: '660/10-661/7', line: 'Single' }],
    ['names with %, ?, # and a Devanagari name', { section: 'रतलाम 50%?#', curveNumber: '7/8', line: 'Up' }],
  ])('edits and deletes %s', async (_, key) => {
    const curve = await createOk({ no: 1, divisionRailway: 'BRC/WR', ...key });
    expect(curve).toMatchObject(key);

    const edited = await update(key, { no: 2, divisionRailway: 'BRC/WR', ...key, sse: 'SSE/ENC' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().curve).toMatchObject({ id: curve.id, no: 2, sse: 'SSE/ENC', ...key });
    expect(await curveRowsAt(key)).toMatchObject([{ id: curve.id, no: 2, sse: 'SSE/ENC' }]);

    const deleted = await remove(key);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toMatchObject({ deleted: true, curve: { id: curve.id, ...key } });
    expect(await curveRowsAt(key)).toEqual([]);
  });

  it('reads the line in the path by its register code too (DN for Down)', async () => {
    const key = { section: 'RTM-NAD-CODE', curveNumber: '9', line: 'Down' };
    const curve = await createOk({ no: 1, divisionRailway: 'RTM/WR', ...key });
    const edited = await update({ ...key, line: 'DN' }, { no: 3, divisionRailway: 'RTM/WR', ...key });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().curve).toMatchObject({ id: curve.id, no: 3, line: 'Down' });
    expect((await remove({ ...key, line: 'dn' })).statusCode).toBe(200);
    expect(await curveRowsAt(key)).toEqual([]);
  });

  it('does not take a slash in a name for a path separator', async () => {
    // Curve "10" in section "A" must not be hit by curve "B/10" ... or any other split.
    const a = await createOk({ no: 1, divisionRailway: 'BRC/WR', section: 'SPLIT', curveNumber: '10', line: 'Up' });
    const response = await remove({ section: 'SPLIT/10', curveNumber: 'Up', line: 'Up' });
    expect(response.statusCode).toBe(404);
    expect(await curveRowsAt(a)).toHaveLength(1);
  });
});

describe('audit trail of curve writes', () => {
  it('records create, update and delete with before and after, named by the curve key', async () => {
    const key = { section: 'AUD-1', curveNumber: '81', line: 'Up' };
    const created = await createOk(fullCurve({ ...key, hkmCode: 4501 }));
    const updated = await update(key, { no: 2, divisionRailway: 'RTM/WR', ...key, curveNumber: '81A', sse: 'SSE/AUD' });
    expect(updated.statusCode).toBe(200);
    const after = curveResponseSchema.parse(updated.json()).curve;
    const deleted = await remove(after);
    expect(deleted.statusCode).toBe(200);

    const entries = (await auditEntries()).filter((e) => e.entity === 'curve' && e.entityId?.startsWith('AUD-1/'));
    // Newest first.
    expect(entries.map((e) => [e.action, e.entityId])).toEqual([
      ['curve.delete', 'AUD-1/81A/Up'],
      ['curve.update', 'AUD-1/81A/Up'],
      ['curve.create', 'AUD-1/81/Up'],
    ]);
    const [del, upd, cre] = entries;
    expect(cre).toMatchObject({ actorEmployeeId: 'ADM1', before: null, after: { id: created.id, curveNumber: '81', hkmCode: 4501, sse: 'SSE/P.Way/NAD' } });
    expect(upd).toMatchObject({
      actorEmployeeId: 'ADM1',
      before: { id: created.id, curveNumber: '81', no: 7, sse: 'SSE/P.Way/NAD' },
      after: { id: created.id, curveNumber: '81A', no: 2, sse: 'SSE/AUD', hkmCode: 4501 },
    });
    expect(del).toMatchObject({ actorEmployeeId: 'ADM1', before: { id: created.id, curveNumber: '81A', sse: 'SSE/AUD' }, after: null });
  });

  it('a refused write (400, 404, 409) leaves no audit entry', async () => {
    await createOk(fullCurve({ section: 'AUD-2', curveNumber: '91', hkmCode: 4601 }));
    const before = await auditCount();
    expect((await create(fullCurve({ section: 'AUD-2', curveNumber: '91', hkmCode: null }))).statusCode).toBe(409);
    expect((await create({ section: 'AUD-2' })).statusCode).toBe(400);
    expect((await remove({ section: 'AUD-2', curveNumber: '92', line: 'Up' })).statusCode).toBe(404);
    expect(await auditCount()).toBe(before);
  });
});

describe('the curve list after writes', () => {
  it('changes its ETag after each add, edit and delete, so phones download the new list', async () => {
    const etagNow = async () => {
      const response = await list('?limit=1000');
      expect(response.statusCode).toBe(200);
      return String(response.headers.etag);
    };
    const start = await etagNow();
    // Unchanged register: the same ETag, and a 304 for a phone that has it.
    expect(await etagNow()).toBe(start);
    const revalidate = await t.app.inject({ method: 'GET', url: '/api/consolidated-curves?limit=1000', headers: { cookie: technician, 'if-none-match': start } });
    expect(revalidate.statusCode).toBe(304);

    const key = { section: 'ETAG-1', curveNumber: '1', line: 'Up' };
    await createOk({ no: 1, divisionRailway: 'RTM/WR', ...key });
    const afterCreate = await etagNow();
    expect(afterCreate).not.toBe(start);
    const stale = await t.app.inject({ method: 'GET', url: '/api/consolidated-curves?limit=1000', headers: { cookie: technician, 'if-none-match': start } });
    expect(stale.statusCode).toBe(200);
    expect(curveListResponseSchema.parse(stale.json()).curves.some((c) => c.section === 'ETAG-1')).toBe(true);

    expect((await update(key, { no: 1, divisionRailway: 'RTM/WR', ...key, sse: 'SSE/ETAG' })).statusCode).toBe(200);
    const afterUpdate = await etagNow();
    expect(afterUpdate).not.toBe(afterCreate);
    expect((await listed('?limit=1000')).find((c) => c.section === 'ETAG-1')?.sse).toBe('SSE/ETAG');

    expect((await remove(key)).statusCode).toBe(200);
    const afterDelete = await etagNow();
    expect(afterDelete).not.toBe(afterUpdate);
    expect((await listed('?limit=1000')).some((c) => c.section === 'ETAG-1')).toBe(false);
  });
});

describe('inspection records keep their copy of the curve', () => {
  it('shows a record with its original section, curve number and line after its curve is edited and deleted', async () => {
    const key = { section: 'INSP-1', curveNumber: '101', line: 'Up' };
    await createOk({ no: 1, divisionRailway: 'RTM/WR', ...key, station1: 'Ratlam Jn', sse: 'SSE/P.Way/NAD' });
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/inspections/upload',
      headers: { cookie: technician },
      payload: uploadForm(
        {
          date: '2026-11-20',
          type: 'Service',
          divisionRailway: 'RTM/WR',
          ...key,
          station1: 'Ratlam Jn',
          station2: 'Bangrod',
          railwayEngineer: 'SSE/P.Way/NAD',
          serviceUpdate: 'working-fine',
          greaseDepth: '4.5',
          isMachineWorking: 'yes',
          clientSubmissionId: randomUUID(),
        },
        await makeJpeg(640, 480, 77),
      ),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const { recordId } = uploadResponseSchema.parse(upload.json());

    const edited = await update(key, { no: 1, divisionRailway: 'RTM/WR', section: 'INSP-1B', curveNumber: '101B', line: 'Down', station1: 'Namli' });
    expect(edited.statusCode).toBe(200);
    expect((await remove({ section: 'INSP-1B', curveNumber: '101B', line: 'Down' })).statusCode).toBe(200);

    const records = await t.app.inject({ method: 'GET', url: `/api/inspections?q=${encodeURIComponent(recordId)}`, headers: { cookie: admin } });
    expect(records.statusCode).toBe(200);
    const { logs } = inspectionListResponseSchema.parse(records.json());
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ recordId, divisionRailway: 'RTM/WR', section: 'INSP-1', curveNumber: '101', line: 'Up', station1: 'Ratlam Jn' });
    // Its photo is still served.
    const photo = await t.app.inject({ method: 'GET', url: `/api/inspections/${encodeURIComponent(recordId)}/image`, headers: { cookie: admin } });
    expect(photo.statusCode).toBe(200);
  });
});

describe('GET /api/consolidated-curves with sse and q', () => {
  beforeAll(async () => {
    const db = t.database.db;
    const base = { divisionRailway: 'JBP/WCR', section: 'Q-SEC' };
    const rows = [
      { ...base, curveNumber: '300/4-301/2', hkmCode: 77001, station1: 'Katni Murwara', station2: 'Jhalwara', sse: 'SSE/P.Way/KTE' },
      { ...base, curveNumber: '302/1', hkmCode: 77123, station1: 'Jhalwara', station2: 'Sihora Road', sse: 'SSE/P.Way/KTE' },
      { ...base, curveNumber: '15A', hkmCode: 87700, station1: 'Deori', station2: 'Katangi', sse: 'SSE/P.Way/SRR' },
      { ...base, curveNumber: '100%_x', hkmCode: 99001, station1: null, station2: null, sse: null },
      { divisionRailway: 'RTM/WR', section: 'Q-SEC-R', curveNumber: '77', hkmCode: 77555, station1: 'Katni South', station2: null, sse: 'SSE/P.Way/KTE' },
    ];
    await db.insert(consolidatedCurveDetails).values(rows.map((row, i) => ({ no: i + 1, line: 'Up', ...row })));
  });

  const numbers = (curves: Curve[]) => curves.map((c) => c.curveNumber).sort();

  it('filters by SSE exactly', async () => {
    expect(numbers(await listed('?limit=1000&sse=SSE%2FP.Way%2FKTE'))).toEqual(['300/4-301/2', '302/1', '77']);
    expect(numbers(await listed('?limit=1000&sse=SSE%2FP.Way%2FKTE&division=JBP%2FWCR'))).toEqual(['300/4-301/2', '302/1']);
    expect(await listed('?limit=1000&sse=SSE%2FP.Way')).toEqual([]);
  });

  it('q matches part of a curve number, part of either station name (any case), or the start of an HKM code', async () => {
    const q = (text: string) => listed(`?limit=1000&division=JBP%2FWCR&q=${encodeURIComponent(text)}`);
    expect(numbers(await q('301'))).toEqual(['300/4-301/2']);
    expect(numbers(await q('/1'))).toEqual(['302/1']);
    expect(numbers(await q('katni'))).toEqual(['300/4-301/2']);
    expect(numbers(await q('JHAL'))).toEqual(['300/4-301/2', '302/1']);
    expect(numbers(await q('road'))).toEqual(['302/1']);
    // HKM codes from their start: 77001 and 77123, not 87700.
    expect(numbers(await q('77'))).toEqual(['300/4-301/2', '302/1']);
    expect(numbers(await q('771'))).toEqual(['302/1']);
    expect(numbers(await q('877'))).toEqual(['15A']);
    // % and _ are the characters themselves.
    expect(numbers(await q('0%_'))).toEqual(['100%_x']);
    expect(numbers(await q('%'))).toEqual(['100%_x']);
    expect(await q('nothing like it')).toEqual([]);
    // A blank q is no filter; the total agrees with the page.
    const all = await list('?limit=1000&division=JBP%2FWCR&q=%20');
    expect(all.json().total).toBe(4);
    const some = await list('?limit=1&division=JBP%2FWCR&q=jhal');
    expect(some.json()).toMatchObject({ total: 2 });
    expect(some.json().curves).toHaveLength(1);
  });

  it('keeps a Client to their division whatever sse, q or division they ask', async () => {
    expect(numbers(await listed('?limit=1000&sse=SSE%2FP.Way%2FKTE', client))).toEqual(['77']);
    expect(numbers(await listed('?limit=1000&q=katni', client))).toEqual(['77']);
    expect(numbers(await listed('?limit=1000&q=katni&division=JBP%2FWCR', client))).toEqual(['77']);
    expect(await listed('?limit=1000&division=JBP%2FWCR&sse=SSE%2FP.Way%2FSRR', client)).toEqual([]);
  });
});
