/**
 * The records endpoints of the admin's records view: the filtered, paged list, thumbnails,
 * photo downloads (one, or many as a zip) and deletions with their audit entries and files.
 */
import { access, readFile, rm } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { eq, inArray, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditListResponseSchema, type AuditEntry } from '../../../common/schemas/audit.js';
import {
  inspectionListResponseSchema,
  uploadResponseSchema,
  type InspectionListResponse,
  type UploadResponse,
} from '../../../common/schemas/inspection.js';
import { deleteImagesResponseSchema, deleteRecordResponseSchema } from '../../../common/schemas/records.js';
import { inspectionLogs, type InspectionRow } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_FZR, CLIENT_NO_DIVISION, CLIENT_RTM, TECHNICIAN, createAndSignIn, errorOf } from '../../test/factories.js';
import {
  blobPathOf,
  expectStorageTrue,
  insertInspectionRows,
  inspectionRow,
  readZip,
  recordIdFor,
  thumbnailPathOf,
  type RowPhoto,
  photoDecoded,
} from '../../test/inspections.js';
import { makeJpeg, serviceVisitMetadata, sha256, uploadForm } from '../../test/photos.js';

let t: TestApp;
let admin: string;
let tech1: string;
let tech2: string;
let clientRtm: string;
let clientFzr: string;
let clientNone: string;

/** Distinct photos: each call gets new bytes, so no two tests share a file by accident. */
let photoSeed = 1000;
const freshPhoto = (width = 640, height = 480) => makeJpeg(width, height, ++photoSeed);


const headersOf = (cookie?: string) => (cookie ? { cookie } : {});
const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...headersOf(cookie), ...headers } });
const del = (recordId: string, cookie?: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/inspections/${encodeURIComponent(recordId)}`, headers: headersOf(cookie) });
const postJson = (url: string, cookie: string | undefined, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: headersOf(cookie), payload });

async function list(cookie: string, query = ''): Promise<InspectionListResponse> {
  const response = await get(`/api/inspections${query}`, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return inspectionListResponseSchema.parse(response.json());
}

const ids = (items: ReadonlyArray<{ recordId: string }>) => items.map((i) => i.recordId);

/** Every row, in the order the list promises: submittedAt desc, then id desc. */
async function rowsNewestFirst(): Promise<InspectionRow[]> {
  const rows = await t.database.db.select().from(inspectionLogs);
  return rows.sort((a, b) => b.submittedAt.getTime() - a.submittedAt.getTime() || b.id - a.id);
}

// A visit with the machine working: no part named.
const serviceMetadata = (overrides: Record<string, unknown> = {}) =>
  serviceVisitMetadata({ serviceUpdate: 'working-fine', isMachineWorking: 'yes', partCategory: undefined, partItemName: undefined, ...overrides });

const cofOverrides = { type: 'CoF', divisionRailway: 'FZR/NR', section: 'FZR-JUC', curveNumber: '3', line: 'Single', cofValue: '0.28', location: 'Far End' };

async function uploadRecord(cookie: string, photo: Buffer, overrides: Record<string, unknown> = {}): Promise<UploadResponse> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/inspections/upload',
    headers: { cookie },
    payload: uploadForm(serviceMetadata(overrides), photo),
  });
  expect(response.statusCode, response.body).toBe(201);
  const record = uploadResponseSchema.parse(response.json());
  expect(await photoDecoded(t, record.recordId)).toBe('ready');
  return record;
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

async function rowExists(recordId: string): Promise<boolean> {
  const rows = await t.database.db.select({ id: inspectionLogs.id }).from(inspectionLogs).where(eq(inspectionLogs.recordId, recordId));
  return rows.length === 1;
}

async function auditEntriesFor(recordIds: readonly string[]): Promise<AuditEntry[]> {
  const response = await get('/api/audit?limit=500', admin);
  expect(response.statusCode).toBe(200);
  return auditListResponseSchema.parse(response.json()).entries.filter((e) => e.entityId !== null && recordIds.includes(e.entityId));
}

beforeAll(async () => {
  t = await buildTestApp();
  ({ tech1, tech2, admin, clientRtm, clientFzr, clientNone } = await createAndSignIn(t, {
    tech1: { ...TECHNICIAN, name: 'Ravi Meena' },
    tech2: { ...TECHNICIAN, employeeId: 'TEC2', name: 'Suresh Yadav' },
    admin: ADMIN,
    clientRtm: CLIENT_RTM,
    clientFzr: CLIENT_FZR,
    clientNone: CLIENT_NO_DIVISION,
  }));
});
afterAll(() => t.close());

describe('GET /api/inspections', () => {
  const DIVISIONS = ['RTM/WR', 'FZR/NR', 'BRC/WR'] as const;
  const TECHNICIANS = [
    { technicianId: 'TEC1', technicianName: 'Ravi Meena' },
    { technicianId: 'TEC2', technicianName: 'Suresh Yadav' },
    { technicianId: 'TEC3', technicianName: 'Mohan Lal' },
  ] as const;
  const dayOf = (offset: number) => new Date(Date.UTC(2026, 8, 1) + offset * 86_400_000).toISOString().slice(0, 10);
  let photo: RowPhoto;

  beforeAll(async () => {
    const bytes = await freshPhoto();
    const stored = await t.blobs.put(bytes);
    photo = { hash: stored.hash, sizeBytes: stored.sizeBytes, width: 640, height: 480 };
    const rows = Array.from({ length: 150 }, (_, i) => {
      // Submission order is a permutation of insertion order, in groups of three sharing an
      // instant, so both sort keys matter; the visit date is unrelated to the submission time.
      const slot = Math.floor(((i * 37) % 150) / 3);
      const date = dayOf(i % 40);
      return inspectionRow(
        {
          date,
          recordId: recordIdFor(date),
          type: i % 4 === 0 ? 'CoF' : 'Service',
          divisionRailway: DIVISIONS[i % 3],
          section: `SEC-${i % 4}`,
          curveNumber: String(i % 6),
          ...TECHNICIANS[(i % 5) % 3],
          submittedAt: new Date(Date.UTC(2026, 9, 1) + slot * 60_000),
        },
        photo,
      );
    });
    // Near misses for the exact section / curve number filter.
    rows.push(
      inspectionRow({ section: 'SEC-10', curveNumber: '1', submittedAt: new Date('2026-10-20T08:00:00Z') }, photo),
      inspectionRow({ section: 'SEC-1', curveNumber: '10', submittedAt: new Date('2026-10-20T08:01:00Z') }, photo),
      inspectionRow({ section: 'SEC-1', curveNumber: '1', submittedAt: new Date('2026-10-20T08:02:00Z') }, photo),
    );
    await insertInspectionRows(t.database.db, rows);
    // Two real uploads, newest of all.
    await uploadRecord(tech1, await freshPhoto());
    await uploadRecord(tech2, await freshPhoto(), cofOverrides);
  });

  it('answers the newest 50 by default (submittedAt desc, id desc) with the total of all records', async () => {
    const expected = await rowsNewestFirst();
    const page = await list(admin);
    expect(page.logs).toHaveLength(50);
    expect(page.total).toBe(expected.length);
    expect(ids(page.logs)).toEqual(ids(expected.slice(0, 50)));
  });

  it('pages with limit and offset without overlaps or gaps', async () => {
    const expected = ids(await rowsNewestFirst());
    const seen: string[] = [];
    for (let offset = 0; offset < expected.length + 17; offset += 17) {
      const page = await list(admin, `?limit=17&offset=${offset}`);
      expect(page.total).toBe(expected.length);
      expect(page.logs.length).toBe(Math.max(0, Math.min(17, expected.length - offset)));
      seen.push(...ids(page.logs));
    }
    expect(seen).toEqual(expected);
  });

  it('accepts up to 500 per page and refuses 501 or 0, naming limit', async () => {
    const all = await list(admin, '?limit=500');
    expect(all.logs).toHaveLength(all.total);
    for (const limit of ['501', '0', 'ten']) {
      const response = await get(`/api/inspections?limit=${limit}`, admin);
      expect(response.statusCode).toBe(400);
      expect(Object.keys(errorOf(response).fields ?? {})).toEqual(['limit']);
      expect(errorOf(response).message).toMatch(/^limit: /);
    }
  });

  it('filters on the visit date, both ends inclusive', async () => {
    const rows = await rowsNewestFirst();
    const between = await list(admin, '?from=2026-09-10&to=2026-09-12&limit=500');
    const expected = rows.filter((r) => r.date >= '2026-09-10' && r.date <= '2026-09-12');
    expect(ids(between.logs)).toEqual(ids(expected));
    expect(between.total).toBe(expected.length);
    expect(new Set(between.logs.map((l) => l.date))).toEqual(new Set(['2026-09-10', '2026-09-11', '2026-09-12']));

    const oneDay = await list(admin, '?from=2026-09-05&to=2026-09-05&limit=500');
    expect(ids(oneDay.logs)).toEqual(ids(rows.filter((r) => r.date === '2026-09-05')));
    expect(oneDay.total).toBeGreaterThan(0);

    const fromOnly = await list(admin, '?from=2026-10-08&limit=500');
    expect(ids(fromOnly.logs)).toEqual(ids(rows.filter((r) => r.date >= '2026-10-08')));
    const toOnly = await list(admin, '?to=2026-09-02&limit=500');
    expect(ids(toOnly.logs)).toEqual(ids(rows.filter((r) => r.date <= '2026-09-02')));
  });

  it('refuses from after to (naming to) and a from that is not a date (naming from)', async () => {
    const reversed = await get('/api/inspections?from=2026-09-12&to=2026-09-10', admin);
    expect(reversed.statusCode).toBe(400);
    expect(Object.keys(errorOf(reversed).fields ?? {})).toEqual(['to']);
    for (const from of ['yesterday', '2026-02-30', '20260910']) {
      const response = await get(`/api/inspections?from=${from}`, admin);
      expect(response.statusCode).toBe(400);
      expect(Object.keys(errorOf(response).fields ?? {})).toEqual(['from']);
    }
  });

  it('filters by type and refuses any other type', async () => {
    const rows = await rowsNewestFirst();
    for (const type of ['CoF', 'Service'] as const) {
      const page = await list(admin, `?type=${type}&limit=500`);
      expect(ids(page.logs)).toEqual(ids(rows.filter((r) => r.type === type)));
      expect(page.total).toBe(page.logs.length);
    }
    const wrong = await get('/api/inspections?type=Inspection', admin);
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(errorOf(wrong).fields ?? {})).toEqual(['type']);
  });

  it('filters by division, by technician, and by exact section and curve number, combined', async () => {
    const rows = await rowsNewestFirst();
    const fzr = await list(admin, `?division=${encodeURIComponent('FZR/NR')}&limit=500`);
    expect(ids(fzr.logs)).toEqual(ids(rows.filter((r) => r.divisionRailway === 'FZR/NR')));

    const tec3 = await list(admin, '?technicianId=TEC3&limit=500');
    expect(ids(tec3.logs)).toEqual(ids(rows.filter((r) => r.technicianId === 'TEC3')));
    expect(tec3.total).toBeGreaterThan(0);

    const curve = await list(admin, '?section=SEC-1&curveNumber=1&limit=500');
    const expectedCurve = rows.filter((r) => r.section === 'SEC-1' && r.curveNumber === '1');
    expect(ids(curve.logs)).toEqual(ids(expectedCurve));
    expect(curve.logs.every((l) => l.section === 'SEC-1' && l.curveNumber === '1')).toBe(true);
    expect(curve.total).toBeGreaterThan(1);

    const combined = await list(admin, `?division=${encodeURIComponent('RTM/WR')}&type=Service&technicianId=TEC1&from=2026-09-01&to=2026-09-30&limit=500`);
    const expectedCombined = rows.filter(
      (r) => r.divisionRailway === 'RTM/WR' && r.type === 'Service' && r.technicianId === 'TEC1' && r.date >= '2026-09-01' && r.date <= '2026-09-30',
    );
    expect(ids(combined.logs)).toEqual(ids(expectedCombined));
    expect(combined.total).toBe(expectedCombined.length);
  });

  it('finds records by part of the record ID in any case', async () => {
    const rows = await rowsNewestFirst();
    const target = rows[37];
    if (!target) throw new Error('not enough rows');
    const tail = target.recordId.slice(-6).toLowerCase();
    const byTail = await list(admin, `?q=${tail}&limit=500`);
    expect(ids(byTail.logs)).toContain(target.recordId);
    expect(ids(byTail.logs)).toEqual(ids(rows.filter((r) => r.recordId.toLowerCase().includes(tail))));

    const whole = await list(admin, `?q=${target.recordId.toLowerCase()}`);
    expect(ids(whole.logs)).toEqual([target.recordId]);
    expect(whole.total).toBe(1);
  });

  it('matches % and _ in q as those characters, not as wildcards', async () => {
    const percent = inspectionRow({ recordId: 'INS-20261105-AB%C12', date: '2026-11-05' }, photo);
    const underscore = inspectionRow({ recordId: 'INS-20261105-AB_C12', date: '2026-11-05' }, photo);
    const plain = inspectionRow({ recordId: 'INS-20261105-ABXC12', date: '2026-11-05' }, photo);
    await insertInspectionRows(t.database.db, [percent, underscore, plain]);

    expect(ids((await list(admin, `?q=${encodeURIComponent('b%c')}`)).logs)).toEqual([percent.recordId]);
    expect(ids((await list(admin, `?q=${encodeURIComponent('b_c')}`)).logs)).toEqual([underscore.recordId]);
    const bare = await list(admin, `?q=${encodeURIComponent('%')}`);
    expect(ids(bare.logs)).toEqual([percent.recordId]);
    expect(bare.total).toBe(1);
    expect(ids((await list(admin, '?q=bxc')).logs)).toEqual([plain.recordId]);
  });

  it('ignores empty parameters', async () => {
    const plain = await list(admin, '?limit=100');
    const empty = await list(admin, '?limit=100&type=&q=&from=&to=&division=&section=&curveNumber=&technicianId=');
    expect(empty.total).toBe(plain.total);
    expect(ids(empty.logs)).toEqual(ids(plain.logs));
  });

  it('sends the page gzipped to a client that accepts it, the same JSON once unzipped', async () => {
    const plain = await get('/api/inspections?limit=100', admin);
    const zipped = await get('/api/inspections?limit=100', admin, { 'accept-encoding': 'gzip, deflate, br' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('counts the whole filtered set in total, not the page', async () => {
    const rows = await rowsNewestFirst();
    const expected = rows.filter((r) => r.divisionRailway === 'FZR/NR');
    const page = await list(admin, `?division=${encodeURIComponent('FZR/NR')}&limit=5&offset=5`);
    expect(page.logs).toHaveLength(5);
    expect(page.total).toBe(expected.length);
    expect(ids(page.logs)).toEqual(ids(expected.slice(5, 10)));
  });

  it('gives every log its photo and thumbnail URLs', async () => {
    const page = await list(admin, '?limit=500');
    expect(page.logs.length).toBeGreaterThan(150);
    for (const log of page.logs) {
      expect(log.thumbnailUrl).toBe(`/api/inspections/${encodeURIComponent(log.recordId)}/thumbnail`);
      expect(log.imageUrl).toBe(`/api/inspections/${encodeURIComponent(log.recordId)}/image`);
    }
  });

  it('holds a Client to their division whatever division they ask for, total included', async () => {
    const rows = await rowsNewestFirst();
    const rtm = rows.filter((r) => r.divisionRailway === 'RTM/WR');
    for (const query of ['?limit=500', `?limit=500&division=${encodeURIComponent('FZR/NR')}`]) {
      const page = await list(clientRtm, query);
      expect(ids(page.logs)).toEqual(ids(rtm));
      expect(page.total).toBe(rtm.length);
    }
    const paged = await list(clientRtm, `?limit=10&division=${encodeURIComponent('BRC/WR')}`);
    expect(paged.total).toBe(rtm.length);
    expect(ids(paged.logs)).toEqual(ids(rtm.slice(0, 10)));

    const fzr = await list(clientFzr, '?type=CoF&limit=500');
    expect(ids(fzr.logs)).toEqual(ids(rows.filter((r) => r.divisionRailway === 'FZR/NR' && r.type === 'CoF')));
  });

  it('gives a Client without a division nothing', async () => {
    for (const query of ['', `?division=${encodeURIComponent('RTM/WR')}`]) {
      expect(await list(clientNone, query)).toEqual({ logs: [], total: 0 });
    }
  });

  it("gives a Technician only their own records, ignoring another's technicianId", async () => {
    const rows = await rowsNewestFirst();
    const own = rows.filter((r) => r.technicianId === 'TEC1');
    for (const query of ['?limit=500', '?limit=500&technicianId=TEC2']) {
      const page = await list(tech1, query);
      expect(ids(page.logs)).toEqual(ids(own));
      expect(page.total).toBe(own.length);
    }
  });

  it('recounts totals right after an upload, a deletion, and rows written by SQL', async () => {
    const query = `?type=CoF&division=${encodeURIComponent('FZR/NR')}&limit=1`;
    const before = (await list(admin, query)).total;
    const beforeAll = (await list(admin)).total;
    const beforeClient = (await list(clientFzr, '?type=CoF')).total;

    const created = await uploadRecord(tech2, await freshPhoto(), cofOverrides);
    expect((await list(admin, query)).total).toBe(before + 1);
    expect((await list(admin)).total).toBe(beforeAll + 1);
    expect((await list(clientFzr, '?type=CoF')).total).toBe(beforeClient + 1);

    expect((await del(created.recordId, admin)).statusCode).toBe(200);
    expect((await list(admin, query)).total).toBe(before);
    expect((await list(admin)).total).toBe(beforeAll);
    expect((await list(clientFzr, '?type=CoF')).total).toBe(beforeClient);

    // Another instance writing (no code of this one involved).
    const recordId = recordIdFor('2026-11-19');
    await t.database.db.execute(sql`
      insert into inspection_logs (record_id, date, type, division_railway, section, curve_number, line, technician_id, technician_name, cof_value)
      values (${recordId}, '2026-11-19', 'CoF', 'FZR/NR', 'FZR-JUC', '3', 'Single', 'TEC2', 'Suresh Yadav', 0.3)`);
    expect((await list(admin, query)).total).toBe(before + 1);
    expect((await list(clientFzr, '?type=CoF')).total).toBe(beforeClient + 1);
    await t.database.db.execute(sql`delete from inspection_logs where record_id = ${recordId}`);
    expect((await list(admin, query)).total).toBe(before);
    expect((await list(clientFzr, '?type=CoF')).total).toBe(beforeClient);
    await expectStorageTrue(t);
  });

  it('refuses anonymous callers', async () => {
    expect((await get('/api/inspections')).statusCode).toBe(401);
  });
});

describe('GET /api/inspections/{recordId}/thumbnail', () => {
  let photo: Buffer;
  let record: UploadResponse;

  beforeAll(async () => {
    photo = await freshPhoto(1920, 1080);
    record = await uploadRecord(tech1, photo);
  });

  it('answers a WebP of at most 320 px, far smaller than the photo, kept beside the photo', async () => {
    const response = await get(`/api/inspections/${record.recordId}/thumbnail`, admin);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/webp');
    const meta = await sharp(response.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width, meta.height)).toBe(320);
    expect(meta.width / meta.height).toBeCloseTo(1920 / 1080, 1);
    expect(response.rawPayload.length).toBeLessThan(photo.length / 10);
    expect(await readFile(thumbnailPathOf(t, record.imageHash))).toEqual(response.rawPayload);
  });

  it('keeps a portrait photo within 320 px on its long edge', async () => {
    const portrait = await uploadRecord(tech1, await freshPhoto(600, 1000));
    const response = await get(`/api/inspections/${portrait.recordId}/thumbnail`, admin);
    expect(response.statusCode).toBe(200);
    const meta = await sharp(response.rawPayload).metadata();
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 192, height: 320 });
  });

  it('answers 304 to a matching If-None-Match, and the bytes to another; the browser must ask again before each use', async () => {
    const first = await get(`/api/inspections/${record.recordId}/thumbnail`, admin);
    // A shared phone's next user must not be shown the last one's photos from the cache.
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = first.headers.etag;
    if (typeof etag !== 'string') throw new Error('no ETag');
    const again = await get(`/api/inspections/${record.recordId}/thumbnail`, admin, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    expect(again.headers.etag).toBe(etag);
    expect(again.rawPayload.length).toBe(0);
    const other = await get(`/api/inspections/${record.recordId}/thumbnail`, admin, { 'if-none-match': '"something-else"' });
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload).toEqual(first.rawPayload);
  });

  it('answers the full photo 304 to a matching If-None-Match; the browser must ask again before each use', async () => {
    const first = await get(record.imageUrl, admin);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = first.headers.etag;
    if (typeof etag !== 'string') throw new Error('no ETag');
    const again = await get(record.imageUrl, admin, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    expect(again.headers.etag).toBe(etag);
    expect(again.rawPayload.length).toBe(0);
    // Revalidation checks who asks: another division's Client gets no 304 for the same tag.
    expect((await get(record.imageUrl, clientFzr, { 'if-none-match': etag })).statusCode).toBe(404);
    // A cache may send the tag weak, or among others.
    expect((await get(record.imageUrl, admin, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
  });

  it('shows a thumbnail only to those who may see the record', async () => {
    const url = `/api/inspections/${record.recordId}/thumbnail`;
    expect((await get(url, tech1)).statusCode).toBe(200);
    expect((await get(url, clientRtm)).statusCode).toBe(200);
    expect((await get(url, clientFzr)).statusCode).toBe(404);
    expect((await get(url, tech2)).statusCode).toBe(404);
    expect((await get(url)).statusCode).toBe(401);
    expect((await get('/api/inspections/INS-20261120-NOSUCH/thumbnail', admin)).statusCode).toBe(404);
  });

  it('answers 404 when the photo file is gone', async () => {
    const lost = await uploadRecord(tech1, await freshPhoto());
    // The photo lost with everything made from it: no thumbnail is made again from nothing.
    await rm(blobPathOf(t, lost.imageHash));
    await rm(thumbnailPathOf(t, lost.imageHash));
    const response = await get(`/api/inspections/${lost.recordId}/thumbnail`, admin);
    expect(response.statusCode).toBe(404);
    expect(await exists(thumbnailPathOf(t, lost.imageHash))).toBe(false);
    expect((await get(lost.imageUrl, admin)).statusCode).toBe(404);
    // Clean up: the record goes, and with it what is left of its files.
    expect((await del(lost.recordId, admin)).statusCode).toBe(200);
    await expectStorageTrue(t);
  });
  describe('when the photo file is gone but its thumbnail was made before', () => {
    let lost: UploadResponse;
    beforeAll(async () => {
      lost = await uploadRecord(tech1, await freshPhoto());
      expect((await get(`/api/inspections/${lost.recordId}/thumbnail`, admin)).statusCode).toBe(200);
      await rm(blobPathOf(t, lost.imageHash));
    });
    afterAll(async () => {
      expect((await del(lost.recordId, admin)).statusCode).toBe(200);
      await expectStorageTrue(t);
    });

    it('answers 404 for the photo', async () => {
      expect((await get(lost.imageUrl, admin)).statusCode).toBe(404);
    });

    // The grid must not show a photo that can no longer be opened or downloaded.
    it('answers 404 for the thumbnail too', async () => {
      expect((await get(`/api/inspections/${lost.recordId}/thumbnail`, admin)).statusCode).toBe(404);
    });
  });

  it('answers 404 for a record without a photo, whose log has no thumbnail URL', async () => {
    const [bare] = await insertInspectionRows(t.database.db, [inspectionRow({ date: '2026-11-02', submittedAt: new Date('2026-11-02T09:00:00Z') })]);
    if (!bare) throw new Error('insert failed');
    const [log] = (await list(admin, `?q=${bare.recordId}`)).logs;
    expect(log).toMatchObject({ recordId: bare.recordId, thumbnailUrl: null, imageUrl: null, imageHash: null });
    expect((await get(`/api/inspections/${bare.recordId}/thumbnail`, admin)).statusCode).toBe(404);
    expect((await get(`/api/inspections/${bare.recordId}/image`, admin)).statusCode).toBe(404);
    expect((await get(`/api/image/download/${bare.recordId}`, admin)).statusCode).toBe(404);
    const zip = await postJson('/api/images/download', admin, { imageIds: [bare.recordId, record.recordId] });
    expect(zip.statusCode).toBe(404);
    expect(errorOf(zip).message).toContain(bare.recordId);

    const deleted = await del(bare.recordId, admin);
    expect(deleted.statusCode).toBe(200);
    const [entry] = await auditEntriesFor([bare.recordId]);
    expect(entry?.before).toMatchObject({ recordId: bare.recordId, photoSha256: null });
    await expectStorageTrue(t);
  });
});

describe('DELETE /api/inspections/{recordId}', () => {
  it('deletes the record, its photo and thumbnail, and audits it', async () => {
    const record = await uploadRecord(tech1, await freshPhoto());
    expect((await get(`/api/inspections/${record.recordId}/thumbnail`, admin)).statusCode).toBe(200);
    expect(await exists(thumbnailPathOf(t, record.imageHash))).toBe(true);

    const response = await del(record.recordId, admin);
    expect(response.statusCode).toBe(200);
    expect(deleteRecordResponseSchema.parse(response.json())).toEqual({ recordId: record.recordId, deleted: true });
    expect(await rowExists(record.recordId)).toBe(false);
    expect(await exists(blobPathOf(t, record.imageHash))).toBe(false);
    expect(await exists(thumbnailPathOf(t, record.imageHash))).toBe(false);
    expect((await get(record.imageUrl, admin)).statusCode).toBe(404);
    expect((await get(`/api/inspections/${record.recordId}/thumbnail`, admin)).statusCode).toBe(404);
    expect(ids((await list(admin, `?q=${record.recordId}`)).logs)).toEqual([]);

    const [entry, ...more] = await auditEntriesFor([record.recordId]);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'inspection.delete',
      entity: 'inspection',
      entityId: record.recordId,
      actorEmployeeId: 'ADM1',
      after: null,
      before: {
        recordId: record.recordId,
        type: 'Service',
        divisionRailway: 'RTM/WR',
        technicianId: 'TEC1',
        photoSha256: record.imageHash,
      },
    });

    const second = await del(record.recordId, admin);
    expect(second.statusCode).toBe(404);
    expect(await auditEntriesFor([record.recordId])).toHaveLength(1);
    await expectStorageTrue(t);
  });

  it('refuses Clients, Technicians and anonymous callers and deletes nothing', async () => {
    const record = await uploadRecord(tech1, await freshPhoto());
    expect((await del(record.recordId, clientRtm)).statusCode).toBe(403);
    expect((await del(record.recordId, tech1)).statusCode).toBe(403);
    expect((await del(record.recordId)).statusCode).toBe(401);
    expect(await rowExists(record.recordId)).toBe(true);
    expect(await exists(blobPathOf(t, record.imageHash))).toBe(true);
    expect((await get(record.imageUrl, admin)).statusCode).toBe(200);
    expect(await auditEntriesFor([record.recordId])).toEqual([]);
    await expectStorageTrue(t);
  });

  it('keeps a photo two records share until the second is deleted', async () => {
    const photo = await freshPhoto();
    const first = await uploadRecord(tech1, photo);
    const second = await uploadRecord(tech1, photo);
    expect(second.recordId).not.toBe(first.recordId);
    expect(second.imageHash).toBe(first.imageHash);
    expect((await get(`/api/inspections/${first.recordId}/thumbnail`, admin)).statusCode).toBe(200);

    expect((await del(first.recordId, admin)).statusCode).toBe(200);
    expect(await exists(blobPathOf(t, first.imageHash))).toBe(true);
    expect(await exists(thumbnailPathOf(t, first.imageHash))).toBe(true);
    expect((await get(`/api/inspections/${second.recordId}/thumbnail`, admin)).statusCode).toBe(200);
    const image = await get(second.imageUrl, admin);
    expect(image.statusCode).toBe(200);
    expect(sha256(image.rawPayload)).toBe(sha256(photo));
    await expectStorageTrue(t);

    expect((await del(second.recordId, admin)).statusCode).toBe(200);
    expect(await exists(blobPathOf(t, first.imageHash))).toBe(false);
    expect(await exists(thumbnailPathOf(t, first.imageHash))).toBe(false);
    expect((await get(second.imageUrl, admin)).statusCode).toBe(404);
    await expectStorageTrue(t);
  });
});

describe('POST /api/images/delete', () => {
  const deleteImages = (cookie: string | undefined, payload: object) => postJson('/api/images/delete', cookie, payload);

  it('deletes the listed records in one go, lists unknown IDs, counts a repeated ID once', async () => {
    const shared = await freshPhoto();
    const a = await uploadRecord(tech1, shared);
    const b = await uploadRecord(tech2, await freshPhoto(), cofOverrides);
    const keeper = await uploadRecord(tech1, shared);
    expect((await get(`/api/inspections/${b.recordId}/thumbnail`, admin)).statusCode).toBe(200);
    const unknown = 'INS-20261120-NOPE00';

    const response = await deleteImages(admin, { imageIds: [a.recordId, b.recordId, unknown, a.recordId] });
    expect(response.statusCode).toBe(200);
    expect(deleteImagesResponseSchema.parse(response.json())).toEqual({ deletedCount: 2, notFound: [unknown] });
    expect(await rowExists(a.recordId)).toBe(false);
    expect(await rowExists(b.recordId)).toBe(false);
    expect(await rowExists(keeper.recordId)).toBe(true);
    // a's photo is still keeper's; b's photo and thumbnail are gone.
    expect(await exists(blobPathOf(t, a.imageHash))).toBe(true);
    expect(await exists(blobPathOf(t, b.imageHash))).toBe(false);
    expect(await exists(thumbnailPathOf(t, b.imageHash))).toBe(false);

    const entries = await auditEntriesFor([a.recordId, b.recordId, unknown]);
    expect(entries.map((e) => e.entityId).sort()).toEqual([a.recordId, b.recordId].sort());
    expect(entries.every((e) => e.action === 'inspection.delete' && e.actorEmployeeId === 'ADM1' && e.after === null)).toBe(true);
    await expectStorageTrue(t);

    const again = await deleteImages(admin, { imageIds: [a.recordId] });
    expect(again.statusCode).toBe(200);
    expect(deleteImagesResponseSchema.parse(again.json())).toEqual({ deletedCount: 0, notFound: [a.recordId] });
  });

  it('deletes 500 records in one call and removes the photo none of them still uses', async () => {
    const bytes = await freshPhoto();
    const stored = await t.blobs.put(bytes);
    const photo: RowPhoto = { hash: stored.hash, sizeBytes: stored.sizeBytes, width: 640, height: 480 };
    const rows = await insertInspectionRows(
      t.database.db,
      Array.from({ length: 500 }, (_, i) => inspectionRow({ divisionRailway: i % 2 ? 'BRC/WR' : 'NDLS/NR', submittedAt: new Date(Date.UTC(2026, 7, 1, 0, i)) }, photo)),
    );
    await expectStorageTrue(t);
    const auditTotalBefore = auditListResponseSchema.parse((await get('/api/audit?limit=1', admin)).json()).total;

    const response = await deleteImages(admin, { imageIds: ids(rows) });
    expect(response.statusCode).toBe(200);
    expect(deleteImagesResponseSchema.parse(response.json())).toEqual({ deletedCount: 500, notFound: [] });
    const left = await t.database.db.select({ id: inspectionLogs.id }).from(inspectionLogs).where(inArray(inspectionLogs.recordId, ids(rows)));
    expect(left).toEqual([]);
    expect(await exists(blobPathOf(t, photo.hash))).toBe(false);
    expect(auditListResponseSchema.parse((await get('/api/audit?limit=1', admin)).json()).total).toBe(auditTotalBefore + 500);
    await expectStorageTrue(t);
  });

  it('refuses an empty list, more than 500 IDs, a list that is not one, and a body that is not JSON', async () => {
    const record = await uploadRecord(tech1, await freshPhoto());
    for (const payload of [
      { imageIds: [] },
      { imageIds: Array.from({ length: 501 }, (_, i) => `INS-20261120-X${String(i).padStart(5, '0')}`) },
      { imageIds: record.recordId },
      { imageIds: [42] },
      {},
    ]) {
      const response = await deleteImages(admin, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(errorOf(response).code).toBe('VALIDATION_FAILED');
      expect(Object.keys(errorOf(response).fields ?? {}).join()).toMatch(/^imageIds/);
    }
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/images/delete',
      headers: { cookie: admin, 'content-type': 'application/json' },
      payload: `{"imageIds": ["${record.recordId}"`,
    });
    expect(notJson.statusCode).toBe(400);
    expect(errorOf(notJson).code).toBe('MALFORMED_JSON');
    expect(await rowExists(record.recordId)).toBe(true);
    await expectStorageTrue(t);
  });

  it('refuses Clients, Technicians and anonymous callers and deletes nothing', async () => {
    const record = await uploadRecord(tech1, await freshPhoto());
    expect((await deleteImages(clientRtm, { imageIds: [record.recordId] })).statusCode).toBe(403);
    expect((await deleteImages(tech1, { imageIds: [record.recordId] })).statusCode).toBe(403);
    expect((await deleteImages(undefined, { imageIds: [record.recordId] })).statusCode).toBe(401);
    expect(await rowExists(record.recordId)).toBe(true);
    expect(await exists(blobPathOf(t, record.imageHash))).toBe(true);
    expect(await auditEntriesFor([record.recordId])).toEqual([]);
    await expectStorageTrue(t);
  });
});

describe('photo downloads', () => {
  let rtmPhoto: Buffer;
  let rtm: UploadResponse;
  let rtm2: UploadResponse;
  let fzr: UploadResponse;

  beforeAll(async () => {
    rtmPhoto = await freshPhoto(800, 600);
    rtm = await uploadRecord(tech1, rtmPhoto);
    rtm2 = await uploadRecord(tech1, await freshPhoto(800, 600));
    fzr = await uploadRecord(tech2, await freshPhoto(800, 600), cofOverrides);
  });

  const expectJpegAttachment = (response: LightMyRequestResponse, record: UploadResponse) => {
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${record.fileName}"`);
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.rawPayload.length).toBe(record.imageSizeBytes);
    expect(sha256(response.rawPayload)).toBe(record.imageHash);
  };

  describe('GET /api/image/download/{id}', () => {
    it('gives an Admin, and a Client of its division, the photo as an attachment', async () => {
      expectJpegAttachment(await get(`/api/image/download/${rtm.recordId}`, admin), rtm);
      expectJpegAttachment(await get(`/api/image/download/${rtm.recordId}`, clientRtm), rtm);
      expectJpegAttachment(await get(`/api/image/download/${fzr.recordId}`, clientFzr), fzr);
      expect(sha256((await get(`/api/image/download/${rtm.recordId}`, admin)).rawPayload)).toBe(sha256(rtmPhoto));
    });

    it('answers 404 to a Client of another division and for an unknown record, 403 to a Technician', async () => {
      expect((await get(`/api/image/download/${rtm.recordId}`, clientFzr)).statusCode).toBe(404);
      expect((await get(`/api/image/download/${rtm.recordId}`, clientNone)).statusCode).toBe(404);
      expect((await get('/api/image/download/INS-20261120-NOSUCH', admin)).statusCode).toBe(404);
      expect((await get(`/api/image/download/${rtm.recordId}`, tech1)).statusCode).toBe(403);
      expect((await get(`/api/image/download/${rtm.recordId}`)).statusCode).toBe(401);
    });
  });

  describe('POST /api/images/download', () => {
    const download = (cookie: string | undefined, imageIds: unknown) => postJson('/api/images/download', cookie, { imageIds });

    const expectZip = async (response: LightMyRequestResponse, records: readonly UploadResponse[]) => {
      expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
      expect(response.headers['content-type']).toBe('application/zip');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="inspection-images-${records.length}.zip"`);
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      const entries = await readZip(response.rawPayload);
      expect(entries).toHaveLength(records.length);
      expect(entries.map((e) => e.name).sort()).toEqual(records.map((r) => r.fileName).sort());
      const hashOf = new Map(records.map((r) => [r.fileName, r.imageHash]));
      for (const entry of entries) expect(sha256(entry.bytes), entry.name).toBe(hashOf.get(entry.name));
    };

    it('answers one ID with the photo itself', async () => {
      expectJpegAttachment(await download(admin, [rtm.recordId]), rtm);
      expectJpegAttachment(await download(admin, [rtm.recordId, rtm.recordId]), rtm);
    });

    it('zips 50 photos, each entry named by its file name and holding its bytes', async () => {
      const records: UploadResponse[] = [];
      for (let i = 0; i < 50; i++) {
        records.push(await uploadRecord(i % 2 ? tech1 : tech2, await freshPhoto(320, 240), i % 3 ? {} : cofOverrides));
      }
      expect(new Set(records.map((r) => r.imageHash)).size).toBe(50);
      await expectZip(await download(admin, ids(records)), records);
    });

    it('zips photos that share bytes as separate entries and counts a repeated ID once', async () => {
      const photo = await freshPhoto(320, 240);
      const one = await uploadRecord(tech1, photo);
      const two = await uploadRecord(tech1, photo);
      await expectZip(await download(admin, [one.recordId, two.recordId, rtm.recordId, one.recordId]), [one, two, rtm]);
    });

    it('gives a Client a zip of their division and 404 naming a record of another', async () => {
      await expectZip(await download(clientRtm, [rtm.recordId, rtm2.recordId]), [rtm, rtm2]);
      const mixed = await download(clientRtm, [rtm.recordId, fzr.recordId]);
      expect(mixed.statusCode).toBe(404);
      expect(mixed.headers['content-type']).toMatch(/^application\/json/);
      expect(errorOf(mixed).message).toContain(fzr.recordId);
      expect(errorOf(mixed).message).not.toContain(rtm.recordId);
    });

    it('answers 404 naming an unknown ID, and no zip', async () => {
      const unknown = 'INS-20261120-NOPE99';
      const response = await download(admin, [rtm.recordId, unknown, rtm2.recordId]);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['content-disposition']).toBeUndefined();
      expect(errorOf(response).message).toContain(unknown);
    });

    it('answers 404 naming a record whose photo file is gone', async () => {
      const lost = await uploadRecord(tech1, await freshPhoto(320, 240));
      await rm(blobPathOf(t, lost.imageHash));
      const response = await download(admin, [rtm.recordId, lost.recordId]);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-disposition']).toBeUndefined();
      expect(errorOf(response).message).toContain(lost.recordId);
      expect((await get(`/api/image/download/${lost.recordId}`, admin)).statusCode).toBe(404);
      expect((await del(lost.recordId, admin)).statusCode).toBe(200);
      await expectStorageTrue(t);
    });

    it('refuses Technicians, anonymous callers, no IDs and more than 500', async () => {
      expect((await download(tech1, [rtm.recordId])).statusCode).toBe(403);
      expect((await download(undefined, [rtm.recordId])).statusCode).toBe(401);
      expect((await download(admin, [])).statusCode).toBe(400);
      const tooMany = await download(admin, Array.from({ length: 501 }, (_, i) => `INS-20261120-Y${String(i).padStart(5, '0')}`));
      expect(tooMany.statusCode).toBe(400);
      expect(Object.keys(errorOf(tooMany).fields ?? {})).toEqual(['imageIds']);
      expect((await download(admin, rtm.recordId)).statusCode).toBe(400);
    });
  });
});

describe('storage after everything', () => {
  it('has a file for every row and a row for every file', async () => {
    await expectStorageTrue(t);
  });
});
