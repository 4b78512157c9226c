/**
 * Storage stays true when things go wrong part way: a deletion whose transaction fails, a disk
 * that refuses to delete, a crash between the commit and the file removal, an upload of the
 * same bytes racing a deletion, an upload whose row cannot be written.
 */
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { blobDeletions, inspectionLogs } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, TECHNICIAN, createAndSignIn } from '../../test/factories.js';
import { makeJpeg, sha256, uploadForm } from '../../test/photos.js';
import { createPhotoFiles } from './photo-files.js';

let t: TestApp;
let technician: string;
let admin: string;

const cofMetadata = () => ({
  date: '2026-11-20',
  type: 'CoF',
  divisionRailway: 'RTM/WR',
  section: 'RTM-NAD',
  curveNumber: '7',
  line: 'Up',
  cofValue: '0.31',
  clientSubmissionId: randomUUID(),
});

async function uploadPhoto(photo: Buffer): Promise<{ recordId: string; imageHash: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/inspections/upload',
    headers: { cookie: technician },
    payload: uploadForm(cofMetadata(), photo),
  });
  expect(response.statusCode).toBe(201);
  return response.json();
}

const deleteRecord = (recordId: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/inspections/${recordId}`, headers: { cookie: admin } });

const imageOf = (recordId: string) => t.app.inject({ method: 'GET', url: `/api/inspections/${recordId}/image`, headers: { cookie: admin } });

const blobRoot = () => (t.blobs as unknown as { root: string }).root;

async function blobFilesOnDisk(): Promise<Set<string>> {
  const files = await readdir(blobRoot(), { recursive: true }).catch(() => []);
  return new Set(files.map((f) => path.basename(String(f))).filter((name) => /^[0-9a-f]{64}$/.test(name)));
}

async function hashesInRows(): Promise<Set<string>> {
  const rows = await t.database.db.selectDistinct({ hash: inspectionLogs.imageHash }).from(inspectionLogs);
  return new Set(rows.map((r) => r.hash).filter((h): h is string => h !== null));
}

async function queuedHashes(): Promise<string[]> {
  const rows = await t.database.db.select({ hash: blobDeletions.hash }).from(blobDeletions);
  return rows.map((r) => r.hash);
}

/** Every row's photo is on disk and every photo on disk belongs to a row. */
async function expectStorageTrue() {
  await t.photosSettled();
  expect([...(await blobFilesOnDisk())].sort()).toEqual([...(await hashesInRows())].sort());
}

/** Makes every insert into `table` fail inside the database until the returned function is called. */
async function refuseInserts(table: 'audit_log' | 'inspection_logs', message: string): Promise<() => Promise<void>> {
  const db = t.database.db;
  await db.execute(sql.raw(`create function refuse_${table}() returns trigger language plpgsql as $$ begin raise exception '${message}'; end; $$`));
  await db.execute(sql.raw(`create trigger refuse_${table} before insert on ${table} for each row execute function refuse_${table}()`));
  return async () => {
    await db.execute(sql.raw(`drop trigger refuse_${table} on ${table}`));
    await db.execute(sql.raw(`drop function refuse_${table}()`));
  };
}

async function recordExists(recordId: string): Promise<boolean> {
  const rows = await t.database.db.select({ id: inspectionLogs.id }).from(inspectionLogs).where(eq(inspectionLogs.recordId, recordId));
  return rows.length === 1;
}

let seed = 100;
const newPhoto = () => makeJpeg(640, 360, (seed += 1));

beforeAll(async () => {
  t = await buildTestApp();
  ({ technician, admin } = await createAndSignIn(t, { technician: TECHNICIAN, admin: ADMIN }));
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(() => t.close());

describe('deleting a record keeps photos and rows true to each other', () => {
  it('leaves the record, its photo and the audit as they were when the transaction fails', async () => {
    const { recordId, imageHash } = await uploadPhoto(await newPhoto());
    // A real database failure inside the deletion's transaction: the audit insert is refused.
    const allow = await refuseInserts('audit_log', 'audit storage unavailable');
    try {
      const response = await deleteRecord(recordId);
      expect(response.statusCode).toBe(500);
    } finally {
      await allow();
    }
    expect(await recordExists(recordId)).toBe(true);
    const image = await imageOf(recordId);
    expect(image.statusCode).toBe(200);
    expect(sha256(image.rawPayload)).toBe(imageHash);
    expect(await queuedHashes()).toEqual([]);
    await expectStorageTrue();
  });

  it('keeps the photo queued when the disk refuses to delete it, and removes it on the next sweep', async () => {
    const { recordId, imageHash } = await uploadPhoto(await newPhoto());
    vi.spyOn(t.blobs, 'delete').mockRejectedValueOnce(new Error('EIO: disk gone'));

    const response = await deleteRecord(recordId);
    // The record is deleted (that is what the admin asked); the file waits for a retry.
    expect(response.statusCode).toBe(200);
    expect(await recordExists(recordId)).toBe(false);
    expect((await imageOf(recordId)).statusCode).toBe(404);
    expect((await blobFilesOnDisk()).has(imageHash)).toBe(true);
    const [queued] = await t.database.db.select().from(blobDeletions).where(eq(blobDeletions.hash, imageHash));
    expect(queued).toMatchObject({ attempts: 1, lastError: 'EIO: disk gone' });

    vi.restoreAllMocks();
    const tally = await createPhotoFiles({ db: t.database.db, blobs: t.blobs }).sweep();
    expect(tally).toEqual({ removed: 1, kept: 0, failed: 0, deferred: 0 });
    expect(await queuedHashes()).toEqual([]);
    await expectStorageTrue();
  });

  it('after a crash between the commit and the file removal, the sweep at start removes the photo', async () => {
    const orphan = await newPhoto();
    const { hash } = await t.blobs.put(orphan);
    // What a crash leaves: the rows are gone, the hash is queued, the file is still there.
    await t.database.db.insert(blobDeletions).values({ hash });
    const kept = await uploadPhoto(await newPhoto());
    // A queued photo that a record uses again (the same bytes were uploaded since) stays.
    await t.database.db.insert(blobDeletions).values({ hash: kept.imageHash });

    const photoFiles = createPhotoFiles({ db: t.database.db, blobs: t.blobs });
    photoFiles.start();
    await photoFiles.stop();

    expect(await queuedHashes()).toEqual([]);
    expect((await blobFilesOnDisk()).has(hash)).toBe(false);
    expect((await imageOf(kept.recordId)).statusCode).toBe(200);
    await expectStorageTrue();
  });

  it('never leaves a row without its photo when the same bytes are uploaded while their last record is deleted', async () => {
    for (let round = 0; round < 8; round++) {
      const photo = await newPhoto();
      const first = await uploadPhoto(photo);
      const [deleted, second] = await Promise.all([deleteRecord(first.recordId), uploadPhoto(photo)]);
      expect(deleted.statusCode).toBe(200);
      const image = await imageOf(second.recordId);
      expect(image.statusCode).toBe(200);
      expect(sha256(image.rawPayload)).toBe(sha256(photo));
      await expectStorageTrue();
    }
  });

  it('removes the stored photo when the record cannot be written after all', async () => {
    const before = await blobFilesOnDisk();
    const photo = await newPhoto();
    // The row insert fails inside the upload's transaction (a real constraint, raised by the database).
    const allow = await refuseInserts('inspection_logs', 'inspection storage unavailable');
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/inspections/upload',
        headers: { cookie: technician },
        payload: uploadForm(cofMetadata(), photo),
      });
      expect(response.statusCode).toBe(500);
    } finally {
      await allow();
    }
    expect((await blobFilesOnDisk()).has(sha256(photo))).toBe(false);
    expect(await blobFilesOnDisk()).toEqual(before);
    await expectStorageTrue();
  });
});
