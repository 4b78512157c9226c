/**
 * The photo worker as an operator meets it: what a crash (or another instance) left pending is
 * decoded by the next sweep, records sharing a photo move together, a photo that cannot be
 * decoded is flagged, and the periodic sweep leaves young pending photos to the instance
 * that queued them.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectionLogs } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { insertInspectionRows, inspectionRow } from '../../test/inspections.js';
import { makeJpeg } from '../../test/photos.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { createPhotoFiles } from './photo-files.js';
import { createPhotoWorker } from './photo-worker.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function statesOf(recordIds: readonly string[]): Promise<Record<string, string>> {
  const rows = await t.database.db
    .select({ recordId: inspectionLogs.recordId, state: inspectionLogs.photoState })
    .from(inspectionLogs)
    .where(inArray(inspectionLogs.recordId, [...recordIds]));
  return Object.fromEntries(rows.map((row) => [row.recordId, row.state]));
}

function newWorker() {
  const photoFiles = createPhotoFiles({ db: t.database.db, blobs: t.blobs });
  return createPhotoWorker({ db: t.database.db, blobs: t.blobs, photoFiles, concurrency: 2 });
}

describe('the photo worker', () => {
  it('decodes what was left pending, flags what cannot be decoded, and moves records sharing a photo together', async () => {
    const good = await makeJpeg(1600, 900, 601);
    const goodStored = await t.blobs.put(good);
    const cut = await makeJpeg(1600, 900, 602);
    const broken = Buffer.concat([cut.subarray(0, Math.floor(cut.length / 3)), Buffer.from([0xff, 0xd9])]);
    const brokenStored = await t.blobs.put(broken);
    const photoOf = (stored: { hash: string; sizeBytes: number }) => ({ ...stored, width: 1600, height: 900 });
    const rows = await insertInspectionRows(t.database.db, [
      inspectionRow({ photoState: 'pending', submittedAt: new Date(Date.now() - 3_600_000) }, photoOf(goodStored)),
      inspectionRow({ photoState: 'pending', submittedAt: new Date(Date.now() - 3_600_000) }, photoOf(goodStored)),
      inspectionRow({ photoState: 'pending', submittedAt: new Date(Date.now() - 3_600_000) }, photoOf(brokenStored)),
    ]);
    const ids = rows.map((row) => row.recordId);
    const [first, second, third] = ids;

    const worker = newWorker();
    expect(await worker.sweep()).toBe(2); // two photos, three records
    await worker.idle();
    expect(await statesOf(ids)).toEqual({ [first ?? '']: 'ready', [second ?? '']: 'ready', [third ?? '']: 'undecodable' });
    expect(await t.blobs.readVariant(goodStored.hash, 'thumb-320.webp')).not.toBeNull();
    expect(await t.blobs.readVariant(goodStored.hash, 'print-1200.jpg')).not.toBeNull();
    expect(await t.blobs.readVariant(brokenStored.hash, 'thumb-320.webp')).toBeNull();
    // Nothing more to do: a second sweep queues nothing.
    expect(await worker.sweep()).toBe(0);
    await worker.stop();
  });

  it('leaves young pending photos to the periodic sweep of the instance that queued them', async () => {
    const photo = await t.blobs.put(await makeJpeg(800, 600, 603));
    const [young] = await insertInspectionRows(t.database.db, [
      inspectionRow({ photoState: 'pending', submittedAt: new Date() }, { ...photo, width: 800, height: 600 }),
    ]);
    if (!young) throw new Error('insert failed');
    const worker = newWorker();
    expect(await worker.sweep({ staleOnly: true })).toBe(0);
    expect(await worker.sweep()).toBe(1);
    await worker.idle();
    const [row] = await t.database.db.select({ state: inspectionLogs.photoState }).from(inspectionLogs).where(eq(inspectionLogs.recordId, young.recordId));
    expect(row?.state).toBe('ready');
    await worker.stop();
  });

  it('leaves a record pending while its photo is missing from the store, for a later sweep', async () => {
    const bytes = await makeJpeg(640, 480, 604);
    const photo = await t.blobs.put(bytes);
    const [row] = await insertInspectionRows(t.database.db, [
      inspectionRow({ photoState: 'pending', submittedAt: new Date(Date.now() - 3_600_000) }, { ...photo, width: 640, height: 480 }),
    ]);
    if (!row) throw new Error('insert failed');
    await t.blobs.delete(photo.hash);
    const worker = newWorker();
    await worker.sweep();
    await worker.idle();
    expect(await statesOf([row.recordId])).toEqual({ [row.recordId]: 'pending' });
    // The file tools put the photo back; the next sweep decodes it.
    await t.blobs.put(bytes);
    await worker.sweep();
    await worker.idle();
    expect(await statesOf([row.recordId])).toEqual({ [row.recordId]: 'ready' });
    await worker.stop();
  });

  it('removes the derived files it wrote for a photo whose last record was deleted during the decode', async () => {
    const db = t.database.db;
    const photo = await t.blobs.put(await makeJpeg(1200, 800, 605));
    const [row] = await insertInspectionRows(db, [
      inspectionRow({ photoState: 'pending', submittedAt: new Date(Date.now() - 3_600_000) }, { ...photo, width: 1200, height: 800 }),
    ]);
    if (!row) throw new Error('insert failed');
    // The worker's first derived file is held back until the record and its photo are deleted.
    let reachWrite = () => {};
    const writing = new Promise<void>((resolve) => (reachWrite = resolve));
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: BlobStore = new Proxy(t.blobs, {
      get(target, property) {
        if (property === 'putVariant') {
          return async (...args: Parameters<BlobStore['putVariant']>) => {
            reachWrite();
            await released;
            return target.putVariant(...args);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const photoFiles = createPhotoFiles({ db, blobs: t.blobs });
    const worker = createPhotoWorker({ db, blobs: held, photoFiles, concurrency: 1 });
    await worker.sweep();
    await writing;
    // The deletion as the API makes it: the row goes, then the photo no record uses.
    await db.delete(inspectionLogs).where(eq(inspectionLogs.recordId, row.recordId));
    await photoFiles.removeIfUnused(photo.hash);
    expect(await t.blobs.exists(photo.hash)).toBe(false);

    release();
    await worker.idle();
    await t.photosSettled();
    expect(await t.blobs.readVariant(photo.hash, 'print-1200.jpg')).toBeNull();
    expect(await t.blobs.readVariant(photo.hash, 'thumb-320.webp')).toBeNull();
    await worker.stop();
  });
});
