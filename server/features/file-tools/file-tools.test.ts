/**
 * The Admin's file tools (issue 14) on a store where some photos were
 * damaged or lost: the status check finds exactly those records (and an unused file), restore
 * brings back exactly those a backup holds, byte for byte, recreate makes the derived files
 * again from sound originals only; nothing else is touched.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileTask } from '../../../common/schemas/file-tools.js';
import { auditLog } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_RTM, TECHNICIAN, createAndSignIn, errorOf } from '../../test/factories.js';
import { allPhotosDecoded, blobPathOf, thumbnailPathOf } from '../../test/inspections.js';
import { makeDistinctPhotos, serviceVisitMetadata, sha256, uploadForm } from '../../test/photos.js';
import { makeBackup, photoStoreOf } from '../backups/index.js';
import { derivedPhoto, PRINT_COPY, THUMBNAIL } from '../inspections/index.js';

let t: TestApp;
let backupDir: string;
let admin: string;
let technician: string;
let client: string;

interface Uploaded {
  recordId: string;
  hash: string;
  photo: Buffer;
}

/** Each photo's records; photo 0 is on two records (the same bytes sent twice). */
const records = new Map<string, Uploaded[]>();
let photos: Buffer[];
const hashOf = (n: number) => sha256(photos[n]!);

async function upload(n: number, cookie = technician): Promise<Uploaded> {
  const metadata = serviceVisitMetadata({ curveNumber: String(40 + n) });

  const response = await t.app.inject({ method: 'POST', url: '/api/inspections/upload', headers: { cookie }, payload: uploadForm(metadata, photos[n]!) });
  expect(response.statusCode, response.body).toBe(201);
  const uploaded = { recordId: (response.json() as { recordId: string }).recordId, hash: hashOf(n), photo: photos[n]! };
  records.set(uploaded.hash, [...(records.get(uploaded.hash) ?? []), uploaded]);
  return uploaded;
}

const recordIdsOf = (...ns: number[]) => ns.flatMap((n) => records.get(hashOf(n))!.map((r) => r.recordId)).sort();

async function tool(method: 'GET' | 'POST', url: string, cookie = admin): Promise<{ status: number; task: FileTask }> {
  const response = await t.app.inject({ method, url, headers: { cookie } });
  expect([200, 202], response.body).toContain(response.statusCode);
  let task = response.json() as FileTask;
  // A task not done within the request's moment is followed as the view follows it.
  while (task.state === 'running') {
    const poll = await t.app.inject({ method: 'GET', url: `/api/admin/files/tasks/${task.taskId}`, headers: { cookie } });
    task = poll.json() as FileTask;
  }
  return { status: response.statusCode, task };
}

beforeAll(async () => {
  backupDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-file-tools-backups-'));
  t = await buildTestApp({ backupDir });
  ({ technician, admin, client } = await createAndSignIn(t, { technician: { ...TECHNICIAN, name: 'Ravi Meena' }, admin: ADMIN, client: CLIENT_RTM }));
  photos = await makeDistinctPhotos(7, 640, 480, 71);
  // Photos 0-5 are in the backup; photo 6 is taken after it.
  for (const n of [0, 0, 1, 2, 3, 4, 5]) await upload(n);
  const backup = await makeBackup({ database: t.database, blobs: t.blobs, backupDir, trigger: 'manual' });
  expect(backup.made).toBe(true);
  await upload(6);
}, 120_000);

afterAll(async () => {
  await t.close();
  await rm(backupDir, { recursive: true, force: true });
});

describe('on a sound store', () => {
  it('the status check finds every record with its photo, intact', async () => {
    const { status, task } = await tool('GET', '/api/admin/files/status');
    expect(status).toBe(200);
    expect(task).toMatchObject({ kind: 'check', state: 'done', error: null, summary: { missing: 0, corrupt: 0, total: 8, orphans: 0 } });
    expect(task.progress).toEqual({ done: 7, total: 7 });
    expect(task.records).toEqual({ items: [], page: 1, pageSize: 20, total: 0 });
  });

  it('is for Admins only', async () => {
    for (const cookie of [technician, client]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/admin/files/restore', headers: { cookie } });
      expect(response.statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/files/status' })).statusCode).toBe(401);
  });

  it('answers 404 for an unknown task and 400 for a malformed one', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: `/api/admin/files/tasks/${randomUUID()}`, headers: { cookie: admin } });
    expect(unknown.statusCode).toBe(404);
    const malformed = await t.app.inject({ method: 'GET', url: '/api/admin/files/status?taskId=nope', headers: { cookie: admin } });
    expect(malformed.statusCode).toBe(400);
    expect(errorOf(malformed).message).toMatch(/taskId must be a task ID/);
  });
});

describe('after photos were damaged and lost', () => {
  const untouched = new Map<string, Buffer>();

  beforeAll(async () => {
    // 0 (two records): bytes changed on disk. 1: file gone. 2: thumbnail gone, print copy damaged.
    // 4: gone, and its backup copy damaged too. 6: gone, taken after the backup. 3 and 5 are sound.
    // The photo worker has made every derived file after the uploads; those of 0, 1, 4 and 6 go
    // with the damage, so what recreate makes (or does not) shows.
    await allPhotosDecoded(t);
    for (const n of [0, 1, 4, 6]) await rm(thumbnailPathOf(t, hashOf(n)), { force: true });
    await writeFile(blobPathOf(t, hashOf(0)), Buffer.concat([photos[0]!.subarray(0, 1000), Buffer.alloc(500, 7)]));
    await rm(blobPathOf(t, hashOf(1)));
    await rm(blobPathOf(t, hashOf(4)));
    await rm(blobPathOf(t, hashOf(6)));
    const backupCopy = path.join(backupDir, 'photos', hashOf(4).slice(0, 2), hashOf(4).slice(2, 4), hashOf(4));
    await writeFile(backupCopy, Buffer.from('not the photo any more'));
    // Derived files as the records view and the reports would have made them.
    for (const n of [2, 3]) for (const kind of [THUMBNAIL, PRINT_COPY]) expect(await derivedPhoto(t.blobs, hashOf(n), kind)).not.toBeNull();
    await t.blobs.putVariant(hashOf(2), 'print-1200.jpg', Buffer.from('damaged print copy'));
    await rm(thumbnailPathOf(t, hashOf(2)), { force: true });
    // A photo file no record names (a submission never sent again), last written two hours ago.
    const orphan = await t.blobs.put(Buffer.from('an orphan photo file'));
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(blobPathOf(t, orphan.hash), twoHoursAgo, twoHoursAgo);
    for (const n of [3, 5]) untouched.set(hashOf(n), await readFile(blobPathOf(t, hashOf(n))));
  });

  it('the status check finds exactly the records whose photo is missing or corrupt, a page at a time', async () => {
    const { task } = await tool('GET', '/api/admin/files/status?pageSize=2');
    expect(task.summary).toEqual({ missing: 3, corrupt: 2, total: 8, orphans: 1 });
    expect(task.records?.total).toBe(5);
    expect(task.records?.items).toHaveLength(2);

    const all = [];
    for (let page = 1; page <= 3; page++) {
      const again = await t.app.inject({ method: 'GET', url: `/api/admin/files/status?taskId=${task.taskId}&page=${page}&pageSize=2`, headers: { cookie: admin } });
      expect(again.statusCode).toBe(200);
      const body = again.json() as FileTask;
      expect(body.taskId).toBe(task.taskId);
      all.push(...body.records!.items);
    }
    expect(all.filter((r) => r.problem === 'missing').map((r) => r.recordId).sort()).toEqual(recordIdsOf(1, 4, 6));
    expect(all.filter((r) => r.problem === 'corrupt').map((r) => r.recordId).sort()).toEqual(recordIdsOf(0));
    expect(all[0]).toMatchObject({ date: '2026-11-20', type: 'Service', divisionRailway: 'RTM/WR', technicianName: 'Ravi Meena' });
  });

  it('recreate makes the derived files again from sound originals only, inventing nothing', async () => {
    const { task } = await tool('POST', '/api/admin/files/recreate');
    expect(task).toMatchObject({ kind: 'recreate', state: 'done', summary: { recreatedCount: 3, skippedCount: 4 } });
    // Photo 2's thumbnail is back and its print copy is a real 1200 px JPEG again.
    const thumb = await t.blobs.readVariant(hashOf(2), 'thumb-320.webp');
    expect((await sharp(thumb!).metadata()).format).toBe('webp');
    const print = await sharp((await t.blobs.readVariant(hashOf(2), 'print-1200.jpg'))!).metadata();
    expect(print).toMatchObject({ format: 'jpeg', width: 640 });
    // Nothing derived for a lost or damaged photo.
    for (const n of [0, 1, 4, 6]) expect(await t.blobs.readVariant(hashOf(n), 'thumb-320.webp')).toBeNull();
  });

  it('restore brings back exactly the photos a backup holds, byte for byte; the rest stay missing', async () => {
    const { task } = await tool('POST', '/api/admin/files/restore');
    // 0 (two records) and 1 restored; 4's backup copy is damaged; 6 is in no backup.
    expect(task).toMatchObject({ kind: 'restore', state: 'done', summary: { restoredCount: 3, failedCount: 1, stillMissingCount: 2 } });
    expect(await readFile(blobPathOf(t, hashOf(0)))).toEqual(photos[0]);
    expect(await readFile(blobPathOf(t, hashOf(1)))).toEqual(photos[1]);
    expect(await t.blobs.exists(hashOf(4))).toBe(false);
    expect(await t.blobs.exists(hashOf(6))).toBe(false);
    // The damaged backup copy was not kept under any name a record uses.
    expect(await t.blobs.exists(sha256(Buffer.from('not the photo any more')))).toBe(false);
    for (const [hash, bytes] of untouched) expect(await readFile(blobPathOf(t, hash))).toEqual(bytes);

    const after = await tool('GET', '/api/admin/files/status');
    expect(after.task.summary).toEqual({ missing: 2, corrupt: 0, total: 8, orphans: 1 });
    expect(after.task.records!.items.map((r) => r.recordId).sort()).toEqual(recordIdsOf(4, 6));

    // The restored photo is what the records view serves again.
    const image = await t.app.inject({ method: 'GET', url: `/api/inspections/${records.get(hashOf(1))![0]!.recordId}/image`, headers: { cookie: admin } });
    expect(image.statusCode).toBe(200);
    expect(sha256(image.rawPayload)).toBe(hashOf(1));
  });

  it('writes restore and recreate to the audit trail, and lists the newest task of each kind', async () => {
    const actions = (await t.database.db.select({ action: auditLog.action }).from(auditLog)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['files.restore', 'files.recreate']));
    const latest = await t.app.inject({ method: 'GET', url: '/api/admin/files/tasks', headers: { cookie: admin } });
    expect(latest.statusCode).toBe(200);
    const kinds = (latest.json() as { tasks: FileTask[] }).tasks.map((task) => [task.kind, task.state]);
    expect(kinds.sort()).toEqual([
      ['check', 'done'],
      ['recreate', 'done'],
      ['restore', 'done'],
    ]);
    expect(await photoStoreOf(backupDir).exists(hashOf(0))).toBe(true);
  });
});
