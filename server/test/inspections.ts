/**
 * Helpers for the records tests: inspection rows written straight into the table (volume
 * without uploads), the blob folder as files on disk, and a zip reader.
 */
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { buffer as readAll } from 'node:stream/consumers';
import { eq, isNotNull } from 'drizzle-orm';
import { expect } from 'vitest';
import * as yauzl from 'yauzl';
import type { Db } from '../db/client.js';
import { inspectionLogs, type InspectionRow } from '../db/schema.js';
import type { NewInspectionRow } from '../features/inspections/repository.js';
import type { TestApp } from './build-test-app.js';
import { until } from './server-process.js';

const SUFFIX_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
let sequence = 0;

/** A record ID like the server makes: INS-20261120-ABC123, unique within a test run. */
export function recordIdFor(date: string): string {
  sequence += 1;
  let n = sequence * 7919 + 100_000;
  let suffix = '';
  for (let i = 0; i < 6; i++) {
    suffix = SUFFIX_ALPHABET[n % SUFFIX_ALPHABET.length] + suffix;
    n = Math.floor(n / SUFFIX_ALPHABET.length);
  }
  return `INS-${date.replaceAll('-', '')}-${suffix}`;
}

/** A stored photo a row may point at (put into the blob store by the test). */
export interface RowPhoto {
  hash: string;
  sizeBytes: number;
  width: number;
  height: number;
}

/**
 * One realistic inspection row: a Service visit in RTM/WR unless told otherwise. With a
 * photo, the row carries its hash, size and file name as an upload would.
 */
export function inspectionRow(overrides: Partial<NewInspectionRow> = {}, photo?: RowPhoto): NewInspectionRow {
  const date = overrides.date ?? '2026-11-20';
  const recordId = overrides.recordId ?? recordIdFor(date);
  const type = overrides.type ?? 'Service';
  const isService = type === 'Service';
  return {
    recordId,
    clientSubmissionId: randomUUID(),
    date,
    type,
    divisionRailway: 'RTM/WR',
    section: 'RTM-NAD',
    curveNumber: '12',
    line: 'Up',
    technicianId: 'TEC1',
    technicianName: 'Ravi Meena',
    cofValue: isService ? null : '0.31',
    location: isService ? null : 'Near End',
    station1: 'Ratlam Jn',
    station2: 'Bangrod',
    km: isService ? null : '612/4',
    pole1: isService ? null : '18',
    pole2: isService ? null : '20',
    railwayEngineer: 'SSE/P.Way/NAD',
    imageUrl: photo ? `/api/inspections/${encodeURIComponent(recordId)}/image` : null,
    fileName: photo ? `inspection_${recordId}.jpg` : null,
    imageHash: photo?.hash ?? null,
    imageSizeBytes: photo?.sizeBytes ?? null,
    imageWidth: photo?.width ?? null,
    imageHeight: photo?.height ?? null,
    serviceUpdate: isService ? 'working-fine' : null,
    isMachineWorking: isService ? true : null,
    greaseDepth: isService ? '3.5' : null,
    submittedAt: new Date(`${date}T10:30:00+05:30`),
    ...overrides,
  };
}

/** Inserts rows in chunks and answers them as stored (with their ids). */
export async function insertInspectionRows(db: Db, rows: readonly NewInspectionRow[]): Promise<InspectionRow[]> {
  const stored: InspectionRow[] = [];
  for (let i = 0; i < rows.length; i += 200) {
    stored.push(...(await db.insert(inspectionLogs).values(rows.slice(i, i + 200)).returning()));
  }
  return stored;
}

/** The DiskBlobStore's folder (a private field: read it without widening the type). */
export function blobRoot(t: TestApp): string {
  const root: unknown = Reflect.get(t.blobs, 'root');
  if (typeof root !== 'string') throw new Error('the blob store has no root folder');
  return root;
}

export const blobPathOf = (t: TestApp, hash: string) => path.join(blobRoot(t), hash.slice(0, 2), hash.slice(2, 4), hash);
export const thumbnailPathOf = (t: TestApp, hash: string) => `${blobPathOf(t, hash)}.thumb-320.webp`;

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

/** The photos on disk: files named by a sha256 and nothing else (no .tmp, no variants). */
export async function blobHashesOnDisk(t: TestApp): Promise<string[]> {
  return (await filesUnder(blobRoot(t))).filter((name) => /^[0-9a-f]{64}$/.test(name)).sort();
}

/**
 * Storage and table agree: every photo file is used by a row, every row's photo is on disk,
 * and no thumbnail is left without its photo. Judged once the photo worker is idle: a photo
 * deleted while it was being decoded has its derived files written, then removed by the
 * worker when it finds the photo gone.
 */
export async function expectStorageTrue(t: TestApp): Promise<void> {
  await t.photosSettled();
  const onDisk = await blobHashesOnDisk(t);
  const used = await t.database.db
    .selectDistinct({ hash: inspectionLogs.imageHash })
    .from(inspectionLogs)
    .where(isNotNull(inspectionLogs.imageHash));
  expect(onDisk).toEqual(used.map((r) => r.hash).sort());
  const variants = (await filesUnder(blobRoot(t))).filter((name) => name.endsWith('.thumb-320.webp'));
  const orphanVariants = variants.filter((name) => !onDisk.includes(name.slice(0, 64)));
  expect(orphanVariants).toEqual([]);
}

/** Every entry of a zip, in the zip's order, with its bytes. */
export async function readZip(body: Buffer): Promise<Array<{ name: string; bytes: Buffer }>> {
  const zip = await yauzl.fromBufferPromise(body, { lazyEntries: true });
  const entries: Array<{ name: string; bytes: Buffer }> = [];
  for await (const entry of zip.eachEntry()) {
    entries.push({ name: entry.fileName, bytes: await readAll(await zip.openReadStreamPromise(entry)) });
  }
  return entries;
}

/**
 * Waits for the photo worker to have decoded a record's photo (after the upload's commit) and
 * answers what it found: a test that looks at the derived files, or deletes the record, first
 * lets the worker finish, as any later request would find it finished.
 */
export async function photoDecoded(t: TestApp, recordId: string): Promise<'ready' | 'undecodable'> {
  return until(`the photo of ${recordId} to be decoded`, async () => {
    const [row] = await t.database.db.select({ state: inspectionLogs.photoState }).from(inspectionLogs).where(eq(inspectionLogs.recordId, recordId));
    return row?.state === 'ready' || row?.state === 'undecodable' ? row.state : undefined;
  });
}

/** Waits until no record's photo waits for the worker: its derived files are written, none half. */
export async function allPhotosDecoded(t: TestApp): Promise<void> {
  await until('every photo to be decoded', async () => {
    const pending = await t.database.db.select({ id: inspectionLogs.id }).from(inspectionLogs).where(eq(inspectionLogs.photoState, 'pending')).limit(1);
    return pending.length === 0;
  });
}
