/**
 * Backups and restore (issue 14): a backup made while uploads run holds one point in time,
 * and restores into an empty database and photo store with every record and photo as its
 * manifest says; a damaged backup or a target that is not empty is refused with nothing
 * written; scheduled backups keep their count; no photo a running backup needs is removed.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip, gzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import type { Database } from '../../db/client.js';
import { backupRuns, inspectionLogs, jobs } from '../../db/schema.js';
import { DiskBlobStore } from '../../storage/disk-blob-store.js';
import { openToOthers, walk, withUmask } from '../../test/file-modes.js';
import { createPhotoFiles } from '../inspections/photo-files.js';
import { buildTestApp, TEST_CONFIG, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, TECHNICIAN, TEST_PASSWORD, createAndSignIn, signIn } from '../../test/factories.js';
import { makeDistinctPhotos, serviceVisitMetadata, sha256, uploadForm } from '../../test/photos.js';
import { openEmptyTestDatabase } from '../../test/test-database.js';
import { type BackupManifest, finishedBackups, photoStoreOf, readPhotoList } from './backup-folder.js';
import { makeBackup, type BackupOutcome } from './make-backup.js';
import { restoreBackup, RestoreError } from './restore-backup.js';
import { createBackupScheduler } from './scheduler.js';
import { until } from '../../test/server-process.js';

let t: TestApp;
let technician: string;
let admin: string;
let photos: Buffer[];
const scratch: string[] = [];

async function scratchDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

const metadata = (n: number) => serviceVisitMetadata({ divisionRailway: n % 2 ? 'RTM/WR' : 'FZR/NR', curveNumber: String(n) });

async function uploadPhoto(n: number, photo: Buffer): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/api/inspections/upload', headers: { cookie: technician }, payload: uploadForm(metadata(n), photo) });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { recordId: string }).recordId;
}

async function dumpLines(folder: string, table: string): Promise<string[]> {
  const lines: string[] = [];
  const input = createReadStream(path.join(folder, 'database', `${table}.ndjson.gz`)).pipe(createGunzip());
  for await (const line of createInterface({ input, crlfDelay: Infinity })) if (line) lines.push(line);
  return lines;
}

const made = (outcome: BackupOutcome) => {
  if (!outcome.made) throw new Error(`no backup was made: ${outcome.reason}`);
  return outcome;
};

beforeAll(async () => {
  t = await buildTestApp();
  ({ technician, admin } = await createAndSignIn(t, { technician: { ...TECHNICIAN, name: 'Ravi Meena' }, admin: ADMIN }));
  photos = await makeDistinctPhotos(40, 400, 300, 31);
}, 120_000);

afterAll(async () => {
  await t.close();
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

describe('a backup made while uploads run, restored into an empty database and store', () => {
  let backupDir: string;
  let outcome: Extract<BackupOutcome, { made: true }>;
  let target: { database: Database; blobs: DiskBlobStore; dir: string };
  const acknowledged: string[] = [];

  beforeAll(async () => {
    for (let n = 0; n < 10; n++) acknowledged.push(await uploadPhoto(n, photos[n]!));
    backupDir = await scratchDir('hkmi-backups-');
    // Twenty uploads in flight while the backup runs; the snapshot falls somewhere among them.
    const during = Promise.all(Array.from({ length: 20 }, (_, i) => uploadPhoto(10 + i, photos[10 + i]!)));
    outcome = made(await makeBackup({ database: t.database, blobs: t.blobs, backupDir, trigger: 'manual' }));
    acknowledged.push(...(await during));

    const dir = await scratchDir('hkmi-restored-blobs-');
    target = { database: await openEmptyTestDatabase(), blobs: new DiskBlobStore(dir), dir };
  }, 120_000);
  afterAll(() => target.database.close());

  it('holds one point in time: every record of its snapshot with its photo, and the manifest counts them', async () => {
    const { manifest, folder } = outcome;
    const records = (await dumpLines(folder, 'inspection_logs')).map((l) => JSON.parse(l) as { record_id: string; image_hash: string });
    // Everything acknowledged before the backup began is in it; what came during may or may not be.
    expect(records.map((r) => r.record_id)).toEqual(expect.arrayContaining(acknowledged.slice(0, 10)));
    expect(records.length).toBeGreaterThanOrEqual(10);
    expect(records.length).toBeLessThanOrEqual(30);
    expect(manifest.tables.find((tb) => tb.name === 'inspection_logs')?.rows).toBe(records.length);
    expect(manifest.tables.find((tb) => tb.name === 'users')?.rows).toBe(2);
    // Not backed up: sign-ins and reports.
    expect(manifest.tables.map((tb) => tb.name)).not.toContain('sessions');

    const named = [...new Set(records.map((r) => r.image_hash))].sort();
    expect(await readPhotoList(folder)).toEqual(named);
    expect(manifest.photos).toMatchObject({ count: named.length, copied: named.length, missing: [], corrupt: [] });
    const store = photoStoreOf(backupDir);
    for (const hash of named) expect(sha256(await store.read(hash))).toBe(hash);
  });

  it('restores every record and photo as the manifest says, and the restored app serves them', async () => {
    const report = await restoreBackup({ backupFolder: outcome.folder, database: target.database, blobs: target.blobs });
    expect(report.photosDamaged).toEqual([]);
    expect(report.photosRestored).toBe(outcome.manifest.photos.count);
    for (const table of outcome.manifest.tables) {
      const [row] = ((await target.database.db.execute(sql.raw(`select count(*)::int as n from "${table.name}"`))) as unknown as { rows: Array<{ n: number }> }).rows;
      expect(row?.n, table.name).toBe(table.rows);
    }
    // Every record, field for field, as the backup holds it.
    const restored = ((await target.database.db.execute(
      sql`select row_to_json(t)::text as line from (select * from inspection_logs order by id) t`,
    )) as unknown as { rows: Array<{ line: string }> }).rows.map((r) => JSON.parse(r.line) as Record<string, unknown>);
    const backedUp = (await dumpLines(outcome.folder, 'inspection_logs')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(restored.map(({ submitted_at: _s, ...rest }) => rest)).toEqual(backedUp.map(({ submitted_at: _s, ...rest }) => rest));
    expect(restored.map((r) => Date.parse(String(r.submitted_at)))).toEqual(backedUp.map((r) => Date.parse(String(r.submitted_at))));
    // Every photo, byte for byte.
    for (const hash of await readPhotoList(outcome.folder)) expect(sha256(await target.blobs.read(hash))).toBe(hash);

    // The restored app: sign in (sessions were not restored), see the records, open a photo.
    const app = await buildApp({ config: TEST_CONFIG, database: target.database, blobs: target.blobs, webRoot: path.join(target.dir, 'no-web') });
    try {
      await app.ready();
      const cookie = await signIn(app, 'ADM1', TEST_PASSWORD);
      const list = await app.inject({ method: 'GET', url: '/api/inspections?limit=100', headers: { cookie } });
      expect(list.statusCode).toBe(200);
      const logs = (list.json() as { logs: Array<{ recordId: string; imageUrl: string; imageHash: string }> }).logs;
      expect(logs).toHaveLength(backedUp.length);
      const first = logs[0]!;
      const image = await app.inject({ method: 'GET', url: first.imageUrl, headers: { cookie } });
      expect(image.statusCode).toBe(200);
      expect(sha256(image.rawPayload)).toBe(first.imageHash);
      // New records after a restore take new IDs: the sequences moved past the restored ones.
      const technicianCookie = await signIn(app, 'TEC1', TEST_PASSWORD);
      const upload = await app.inject({ method: 'POST', url: '/api/inspections/upload', headers: { cookie: technicianCookie }, payload: uploadForm(metadata(99), photos[39]!) });
      expect(upload.statusCode, upload.body).toBe(201);
    } finally {
      await app.close();
    }
  });

  it('refuses a database or store that is not empty, changing nothing', async () => {
    await expect(restoreBackup({ backupFolder: outcome.folder, database: t.database, blobs: target.blobs })).rejects.toThrow(
      /The database is not empty/,
    );
    const empty = await openEmptyTestDatabase();
    try {
      await expect(restoreBackup({ backupFolder: outcome.folder, database: empty, blobs: target.blobs })).rejects.toThrow(/The photo store is not empty/);
      const [row] = ((await empty.db.execute(sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`)) as unknown as { rows: Array<{ n: number }> }).rows;
      expect(row?.n).toBe(0);
    } finally {
      await empty.close();
    }
  });
});

describe('a damaged backup', () => {
  it('is refused before anything is written, naming the damaged file', async () => {
    await uploadPhoto(50, photos[30]!);
    const backupDir = await scratchDir('hkmi-backups-');
    const { folder } = made(await makeBackup({ database: t.database, blobs: t.blobs, backupDir, trigger: 'manual' }));
    const file = path.join(folder, 'database', 'inspection_logs.ndjson.gz');
    const lines = (await dumpLines(folder, 'inspection_logs')).slice(1);
    await writeFile(file, gzipSync(lines.map((l) => `${l}\n`).join('')));

    const empty = await openEmptyTestDatabase();
    try {
      const blobs = new DiskBlobStore(await scratchDir('hkmi-restored-blobs-'));
      const attempt = restoreBackup({ backupFolder: folder, database: empty, blobs });
      await expect(attempt).rejects.toBeInstanceOf(RestoreError);
      await expect(attempt).rejects.toThrow(/database\/inspection_logs\.ndjson\.gz does not match its manifest/);
      const [row] = ((await empty.db.execute(sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`)) as unknown as { rows: Array<{ n: number }> }).rows;
      expect(row?.n).toBe(0);
    } finally {
      await empty.close();
    }
  });
});

describe('a backup that names files outside its folders', () => {
  /** A finished backup in <scratch>/backups: <scratch> is outside it. */
  async function freshBackup() {
    await uploadPhoto(70, photos[32]!);
    const scratch = await scratchDir('hkmi-reach-');
    const { folder, manifest } = made(await makeBackup({ database: t.database, blobs: t.blobs, backupDir: path.join(scratch, 'backups'), trigger: 'manual' }));
    return { scratch, folder, manifest };
  }

  const writeManifest = (folder: string, manifest: BackupManifest) => writeFile(path.join(folder, 'manifest.json'), JSON.stringify(manifest, null, 2));

  async function expectRefusedLeavingTargetEmpty(folder: string, reason: RegExp) {
    const empty = await openEmptyTestDatabase();
    try {
      const blobs = new DiskBlobStore(await scratchDir('hkmi-restored-blobs-'));
      const attempt = restoreBackup({ backupFolder: folder, database: empty, blobs });
      await expect(attempt).rejects.toBeInstanceOf(RestoreError);
      await expect(attempt).rejects.toThrow(reason);
      const [row] = ((await empty.db.execute(sql`select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')`)) as unknown as { rows: Array<{ n: number }> }).rows;
      expect(row?.n).toBe(0);
      const stored: string[] = [];
      for await (const blob of blobs.list()) stored.push(blob.hash);
      expect(stored).toEqual([]);
    } finally {
      await empty.close();
    }
  }

  // Each attempt opens an empty database: seconds on PGlite, more on a busy machine.
  it('is refused when its manifest names a table file outside the backup folder, relative or absolute', { timeout: 120_000 }, async () => {
    const { scratch, folder, manifest } = await freshBackup();
    // The users' rows (password hashes, phone numbers) moved out of the backup: whole and matching the manifest, but not the backup's to read.
    const outside = path.join(scratch, 'somewhere.ndjson.gz');
    await rename(path.join(folder, 'database', 'users.ndjson.gz'), outside);
    for (const file of ['../../somewhere.ndjson.gz', outside]) {
      await writeManifest(folder, { ...manifest, tables: manifest.tables.map((table) => (table.name === 'users' ? { ...table, file } : table)) });
      await expectRefusedLeavingTargetEmpty(folder, /cannot be restored: .*manifest\.json .*tables\.\d+\.file must be database\/<table name>\.ndjson\.gz/);
    }
  });

  it('is refused when its photos.txt holds a line that is not a sha256', { timeout: 120_000 }, async () => {
    const { folder, manifest } = await freshBackup();
    const list = `${await readFile(path.join(folder, 'photos.txt'), 'utf8')}../../../somewhere\n`;
    await writeFile(path.join(folder, 'photos.txt'), list);
    // The list's hash in the manifest made to match, as whoever made the backup could.
    await writeManifest(folder, { ...manifest, photos: { ...manifest.photos, listSha256: sha256(Buffer.from(list)) } });
    await expectRefusedLeavingTargetEmpty(folder, /photos\.txt line \d+ is not a photo's sha256: "\.\.\/\.\.\/\.\.\/somewhere"/);
  });
});

describe('a backup on disk', () => {
  it("is its owner's alone, whatever the process's umask", async () => {
    await uploadPhoto(71, photos[33]!);
    // BACKUP_DIR made by the backup itself.
    const backupDir = path.join(await scratchDir('hkmi-private-backups-'), 'backups');
    made(await withUmask(0o000, () => makeBackup({ database: t.database, blobs: t.blobs, backupDir, trigger: 'manual' })));
    const files = (await walk(backupDir)).filter((entry) => entry.kind === 'file').map((entry) => path.relative(backupDir, entry.path));
    expect(files).toEqual(expect.arrayContaining([expect.stringMatching(/\/manifest\.json$/), expect.stringMatching(/\/photos\.txt$/), expect.stringMatching(/\/database\/users\.ndjson\.gz$/), expect.stringMatching(/^photos\//)]));
    expect(await openToOthers(backupDir)).toEqual([]);
  });
});

describe('a live photo that is gone or damaged', () => {
  it('is named missing or corrupt in the manifest and not kept; the others are copied once, with no file left half written', async () => {
    // A live store of its own, so the shared one stays whole: every photo the records name, one
    // of them deleted and one with its bytes changed.
    const liveDir = await scratchDir('hkmi-damaged-live-');
    const live = new DiskBlobStore(liveDir);
    const named = [...new Set((await t.database.db.select({ hash: inspectionLogs.imageHash }).from(inspectionLogs)).flatMap((r) => (r.hash ? [r.hash] : [])))].sort();
    expect(named.length).toBeGreaterThanOrEqual(3);
    for (const hash of named) await live.put(await t.blobs.read(hash));
    const [gone, damaged] = named;
    await live.delete(gone!);
    const damagedFile = path.join(liveDir, damaged!.slice(0, 2), damaged!.slice(2, 4), damaged!);
    const bytes = await readFile(damagedFile);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    await writeFile(damagedFile, bytes);

    const backupDir = await scratchDir('hkmi-backups-');
    const first = made(await makeBackup({ database: t.database, blobs: live, backupDir, trigger: 'manual' }));
    const whole = named.length - 2;
    expect(first.manifest.photos).toMatchObject({ count: whole, copied: whole, missing: [gone], corrupt: [damaged] });
    const kept: string[] = [];
    for await (const blob of photoStoreOf(backupDir).list()) kept.push(blob.hash);
    expect(kept.sort()).toEqual(named.filter((hash) => hash !== gone && hash !== damaged));
    for (const hash of kept) expect(sha256(await photoStoreOf(backupDir).read(hash))).toBe(hash);
    expect((await walk(path.join(backupDir, 'photos'))).filter((entry) => entry.path.includes('incoming-'))).toEqual([]);

    // The next backup into the same folder finds them there: counted, not copied again.
    const second = made(await makeBackup({ database: t.database, blobs: live, backupDir, trigger: 'manual' }));
    expect(second.manifest.photos).toMatchObject({ count: whole, copied: 0, bytes: first.manifest.photos.bytes, missing: [gone], corrupt: [damaged] });
  });
});

describe('while a backup is under way', () => {
  it('a deleted record keeps its photo file until the backup is done, then the file goes', async () => {
    const recordId = await uploadPhoto(60, photos[31]!);
    const hash = sha256(photos[31]!);
    const runId = randomUUID();
    await t.database.db.insert(jobs).values({ id: runId, kind: 'backup', uniqueKey: 'backup', status: 'running', heartbeatAt: new Date(), startedAt: new Date() });
    await t.database.db.insert(backupRuns).values({ id: runId, name: 'backup-under-way', trigger: 'manual' });
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/inspections/${recordId}`, headers: { cookie: admin } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await t.blobs.exists(hash)).toBe(true);

    await t.database.db.update(jobs).set({ status: 'done', finishedAt: new Date() }).where(eq(jobs.id, runId));
    // The next sweep (every few minutes, and after each deletion) removes it.
    const tally = await createPhotoFiles({ db: t.database.db, blobs: t.blobs }).sweep();
    expect(tally.removed).toBeGreaterThanOrEqual(1);
    expect(await t.blobs.exists(hash)).toBe(false);
  });

  it('a second backup waits its turn: one at a time', async () => {
    const backupDir = await scratchDir('hkmi-backups-');
    const outcomes = await Promise.all([1, 2].map(() => makeBackup({ database: t.database, blobs: t.blobs, backupDir, trigger: 'manual' })));
    expect(outcomes.filter((o) => o.made)).toHaveLength(1);
    expect(outcomes.find((o) => !o.made)).toMatchObject({ made: false, reason: 'busy' });
  });
});

describe('scheduled backups', () => {
  it('are made once an interval, keep the newest BACKUP_KEEP and the photos those name', async () => {
    const backupDir = await scratchDir('hkmi-scheduled-');
    const hour = 3600_000;
    let clock = Date.parse('2026-12-01T00:00:00Z');
    const scheduled = () => makeBackup({ database: t.database, blobs: t.blobs, backupDir, trigger: 'scheduled', intervalMs: hour, keep: 2, now: () => new Date(clock) });
    // Another file's runs may have finished "later" by the wall clock; start past them.
    await t.database.db.delete(jobs).where(eq(jobs.kind, 'backup'));

    const first = made(await scheduled());
    expect(await scheduled()).toEqual({ made: false, reason: 'not-due' });

    // A record deleted after the first backup: its photo stays in the backups that hold it.
    const gone = (await t.database.db.select({ recordId: inspectionLogs.recordId, hash: inspectionLogs.imageHash }).from(inspectionLogs).limit(1))[0]!;
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/inspections/${gone.recordId}`, headers: { cookie: admin } });
    expect(deleted.statusCode).toBe(200);

    clock += hour + 1000;
    const second = made(await scheduled());
    // Photos never change: the second backup copies none, and holds them all.
    expect(second.manifest.photos).toMatchObject({ copied: 0, count: (await readPhotoList(second.folder)).length });
    clock += hour + 1000;
    const third = made(await scheduled());
    expect(third.removedBackups).toEqual([first.manifest.name]);
    expect((await finishedBackups(backupDir)).map((b) => b.name)).toEqual([third.manifest.name, second.manifest.name]);
    // The deleted record's photo was only in the first backup: it went with it.
    const stillNamed = new Set([...(await readPhotoList(second.folder)), ...(await readPhotoList(third.folder))]);
    expect(stillNamed.has(gone.hash!)).toBe(false);
    expect(await photoStoreOf(backupDir).exists(gone.hash!)).toBe(false);
    for (const hash of stillNamed) expect(await photoStoreOf(backupDir).exists(hash)).toBe(true);
  });
});

describe('the scheduler', () => {
  it('makes a backup on its own once started, and waits for one under way when stopped', async () => {
    await t.database.db.delete(jobs).where(eq(jobs.kind, 'backup'));
    const backupDir = await scratchDir('hkmi-scheduler-');
    const scheduler = createBackupScheduler({ database: t.database, blobs: t.blobs, backupDir, intervalSeconds: 3600, keep: 3, firstLookMs: 10 });
    scheduler.start();
    let found;
    try {
      found = await until('the scheduled backup', async () => (await finishedBackups(backupDir))[0]);
    } finally {
      // Waits for the run under way to finish its bookkeeping.
      await scheduler.stop();
    }
    expect(found.manifest.tables.find((tb) => tb.name === 'inspection_logs')?.rows).toBeGreaterThan(0);
    const [run] = await t.database.db
      .select({ trigger: backupRuns.trigger, state: jobs.status })
      .from(backupRuns)
      .innerJoin(jobs, eq(jobs.id, backupRuns.id))
      .where(eq(backupRuns.name, found.name));
    expect(run).toMatchObject({ trigger: 'scheduled', state: 'done' });
  });
});

describe('the manifest', () => {
  it('names each table file with its row count and the sha256 of its rows', async () => {
    const backupDir = await scratchDir('hkmi-backups-');
    const { folder, manifest } = made(await makeBackup({ database: t.database, blobs: t.blobs, backupDir, trigger: 'manual' }));
    const onDisk = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8')) as typeof manifest;
    expect(onDisk).toEqual(manifest);
    for (const table of manifest.tables) {
      const lines = await dumpLines(folder, table.name);
      expect(lines).toHaveLength(table.rows);
      expect(createHash('sha256').update(lines.map((l) => `${l}\n`).join('')).digest('hex')).toBe(table.sha256);
    }
  });
});
