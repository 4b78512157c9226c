/**
 * Makes one backup while the app keeps serving: the database as of one point in time (one
 * snapshot; on PGlite chunks checked by the change counters, dump-in-passes.ts), then the
 * photos those rows name, then the manifest. Photos are copied after the snapshot; that is
 * safe because a photo's bytes never change and, while the run is marked under way, no photo
 * file is removed (backup-runs.ts), so every photo the snapshot names is still there to copy.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Database } from '../../db/client.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../private-files.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { copyBetweenDisks } from '../../storage/disk-copy.js';
import { DiskBlobStore } from '../../storage/disk-blob-store.js';
import { Semaphore } from '../../semaphore.js';
import {
  applyRetention,
  BACKUP_FORMAT,
  type BackupManifest,
  MANIFEST_FILE,
  newBackupName,
  PHOTO_LIST_FILE,
  photoStoreOf,
  syncPath,
  tableFileOf,
  writeFileDurably,
} from './backup-folder.js';
import { BACKUP_HEARTBEAT_MS, type BackupTrigger, claimBackupRun, finishBackupRun, heartbeat } from './backup-runs.js';
import { backedUpTables, beginSnapshot, LineHash, photoHashesOf, tableRows, type TableShape } from './database-dump.js';
import { type DatabaseSnapshot, dumpInPasses, type DumpSteps, snapshotFacts, type TableEntry } from './dump-in-passes.js';

export interface BackupProgress {
  phase: 'database' | 'photos';
  done: number;
  total: number;
}

export interface MakeBackupOptions {
  database: Database;
  blobs: BlobStore;
  backupDir: string;
  trigger: BackupTrigger;
  /** Keep this many finished backups in backupDir and remove older ones (scheduled backups). */
  keep?: number;
  /** A scheduled backup is made only when the last one is at least this old. */
  intervalMs?: number;
  onProgress?: (progress: BackupProgress) => void;
  now?: () => Date;
}

export type BackupOutcome =
  | { made: true; folder: string; manifest: BackupManifest; removedBackups: string[] }
  | { made: false; reason: 'busy'; runningSince: Date }
  | { made: false; reason: 'not-due' };

/** Photos copied at once: enough to keep an S3 store's round trips (or the disk's flushes) busy, few enough to leave the disk to uploads. */
const PHOTO_COPIES = 4;

export async function makeBackup(options: MakeBackupOptions): Promise<BackupOutcome> {
  const { database, blobs, backupDir } = options;
  const db = database.db;
  const now = options.now ?? (() => new Date());
  const startedAt = now();
  const name = newBackupName(startedAt);
  const claim = await claimBackupRun(db, options.trigger, name, startedAt, options.intervalMs);
  if (!claim.claimed) return claim.reason === 'busy' ? { made: false, reason: 'busy', runningSince: claim.runningSince } : { made: false, reason: 'not-due' };

  const beat = setInterval(() => void heartbeat(db, claim).catch(() => undefined), BACKUP_HEARTBEAT_MS);
  const folder = path.join(backupDir, name);
  try {
    // Backups hold password hashes and phone numbers: BACKUP_DIR too is made owner-only.
    await mkdir(path.join(folder, 'database'), { recursive: true, mode: PRIVATE_DIR_MODE });
    const snapshot = await dumpDatabase(options, folder);
    const photoList = snapshot.photoHashes.join('\n') + (snapshot.photoHashes.length > 0 ? '\n' : '');
    await writeFileDurably(path.join(folder, PHOTO_LIST_FILE), photoList);
    const photos = await copyPhotos(blobs, photoStoreOf(backupDir), snapshot.photoHashes, options.onProgress);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      name,
      snapshotAt: snapshot.at.toISOString(),
      finishedAt: now().toISOString(),
      database: { kind: database.kind, migrations: snapshot.migrations },
      tables: snapshot.tables,
      photos: { ...photos, listSha256: createHash('sha256').update(photoList).digest('hex') },
    };
    await syncPath(path.join(folder, 'database'));
    // Last: a folder with a manifest is a whole backup.
    await writeFileDurably(path.join(folder, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    const retention = options.keep === undefined ? { removedBackups: [] } : await applyRetention(backupDir, options.keep, name);
    await finishBackupRun(db, claim.runId, {});
    return { made: true, folder, manifest, removedBackups: retention.removedBackups };
  } catch (error) {
    await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    await finishBackupRun(db, claim.runId, { error: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
    throw error;
  } finally {
    clearInterval(beat);
  }
}

/**
 * Every backed-up table gzipped as it is read, all as of one point in time: on PostgreSQL from one
 * REPEATABLE READ snapshot; on PGlite, whose one connection a long transaction would hold from
 * every request, in short chunks checked by the change counters (dump-in-passes.ts).
 */
async function dumpDatabase(options: MakeBackupOptions, folder: string): Promise<DatabaseSnapshot> {
  const steps: DumpSteps = {
    writeTable: (shape, lines) => writeTable(folder, shape, lines),
    onProgress: (done, total) => options.onProgress?.({ phase: 'database', done, total }),
  };
  const db = options.database.db;
  if (options.database.kind === 'pglite') return dumpInPasses(db, steps);
  return db.transaction(async (tx) => {
    await beginSnapshot(tx);
    const facts = await snapshotFacts(tx);
    const shapes = await backedUpTables(tx);
    const tables: TableEntry[] = [];
    for (const [index, shape] of shapes.entries()) {
      steps.onProgress?.(index, shapes.length);
      tables.push(await steps.writeTable(shape, tableRows(tx, shape)));
    }
    return { ...facts, tables, photoHashes: await photoHashesOf(tx) };
  });
}

/** About what a chunk of rows (CHUNK_ROWS) of the records comes to as text. */
const WRITE_PIECE_CHARS = 256 * 1024;

/** Writes one table's file from its lines (replacing any earlier one) and answers its manifest entry. */
async function writeTable(folder: string, shape: TableShape, rows: AsyncIterable<string>): Promise<TableEntry> {
  const file = tableFileOf(shape.name);
  const hash = new LineHash();
  // Lines go to gzip in large pieces: each piece costs the stream a turn of the event loop, which
  // a busy server (PGlite's chunked dump shares it with every request) gives out slowly.
  const pieces = async function* () {
    let piece = '';
    for await (const line of rows) {
      hash.add(line);
      piece += `${line}\n`;
      if (piece.length >= WRITE_PIECE_CHARS) {
        yield piece;
        piece = '';
      }
    }
    if (piece !== '') yield piece;
  };
  const target = path.join(folder, file);
  // Level 1: most of the size saved for little CPU, while the app serves.
  await pipeline(
    Readable.from(pieces()),
    createGzip({ level: 1, chunkSize: WRITE_PIECE_CHARS }),
    createWriteStream(target, { mode: PRIVATE_FILE_MODE, highWaterMark: WRITE_PIECE_CHARS }),
  );
  await syncPath(target);
  return { name: shape.name, file, rows: hash.rows, sha256: hash.digest(), bytes: (await stat(target)).size };
}

type PhotoTally = { count: number; bytes: number; copied: number; missing: string[]; corrupt: string[] };

async function copyPhotos(
  blobs: BlobStore,
  store: DiskBlobStore,
  hashes: readonly string[],
  onProgress?: (progress: BackupProgress) => void,
): Promise<Omit<BackupManifest['photos'], 'listSha256'>> {
  const tally: PhotoTally = { count: 0, bytes: 0, copied: 0, missing: [], corrupt: [] };
  let done = 0;
  const oneMore = () => {
    done += 1;
    if (done % 50 === 0 || done === hashes.length) onProgress?.({ phase: 'photos', done, total: hashes.length });
  };
  if (blobs instanceof DiskBlobStore) {
    // Disk to disk, the common case: on a worker thread, so the copy neither waits for the turns
    // of an event loop busy with requests nor takes them (disk-copy.ts).
    await copyBetweenDisks(
      hashes.map((hash) => blobs.copyJobTo(store, hash)),
      {
        concurrency: PHOTO_COPIES,
        onResult: (result) => {
          if (result.outcome === 'missing') tally.missing.push(result.hash);
          else if (result.outcome === 'corrupt') tally.corrupt.push(result.hash);
          else {
            tally.count += 1;
            tally.bytes += result.sizeBytes;
            if (result.outcome === 'copied') tally.copied += 1;
          }
          oneMore();
        },
      },
    );
  } else {
    const slots = new Semaphore(PHOTO_COPIES);
    await Promise.all(
      hashes.map((hash) =>
        slots.run(async () => {
          const kept = await store.size(hash);
          if (kept !== null) {
            // Already in the backup directory from an earlier backup: photos never change.
            tally.count += 1;
            tally.bytes += kept;
          } else {
            await copyOne(blobs, store, hash, tally);
          }
          oneMore();
        }),
      ),
    );
  }
  tally.missing.sort();
  tally.corrupt.sort();
  return tally;
}

async function copyOne(blobs: BlobStore, store: BlobStore, hash: string, tally: PhotoTally) {
  try {
    const copied = await store.putStream(blobs.stream(hash));
    if (copied.hash === hash) {
      tally.count += 1;
      tally.copied += 1;
      tally.bytes += copied.sizeBytes;
    } else {
      // The live file went bad: a backup never keeps bytes under a name they do not hash to.
      tally.corrupt.push(hash);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') tally.missing.push(hash);
    else throw error;
  }
}
