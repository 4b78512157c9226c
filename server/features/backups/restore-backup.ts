/**
 * Brings a backup back into an empty database and an empty photo store, and checks the
 * result against the backup's manifest: every table's row count and content hash, every photo
 * by its hash. The backup is checked whole before anything is written, so a damaged backup
 * leaves the target as empty as it was. A backup may come from elsewhere: it is read only
 * inside its own folder and the photos folder beside it (backup-folder.ts holds the manifest
 * and photos.txt to the shapes a backup writes).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { Semaphore } from '../../semaphore.js';
import { type BackupManifest, parsePhotoList, PHOTO_LIST_FILE, photoStoreOf, readManifest } from './backup-folder.js';
import { backedUpTables, hashTable, LineHash, loadTable } from './database-dump.js';
import { migrationsUpTo, readJournal } from './migrations.js';

export class RestoreError extends Error {}

export interface RestoreProgress {
  phase: 'checking' | 'database' | 'photos';
  done: number;
  total: number;
}

export interface RestoreReport {
  manifest: BackupManifest;
  tables: Array<{ name: string; rows: number }>;
  photosRestored: number;
  /** Photos the backup should hold but whose copy is gone or damaged: their records stay, listed as missing by the file tools. */
  photosDamaged: string[];
}

/** A table's file in the backup folder: the manifest's name for it, and never a path that leaves the folder. */
function tableFile(backupFolder: string, table: BackupManifest['tables'][number]): string {
  const folder = path.resolve(backupFolder);
  const file = path.resolve(folder, table.file);
  const inside = path.relative(folder, file);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) {
    throw new RestoreError(`The backup's manifest names ${table.file} for ${table.name}, outside the backup folder; nothing was restored.`);
  }
  return file;
}

async function* linesOf(file: string): AsyncGenerator<string> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) if (line !== '') yield line;
}

/** A backup's folder: the one named, whose photos are in its parent's photos/ folder. */
export async function restoreBackup(options: {
  backupFolder: string;
  database: Database;
  blobs: BlobStore;
  onProgress?: (progress: RestoreProgress) => void;
}): Promise<RestoreReport> {
  const { database, blobs, backupFolder } = options;
  const manifest = await readManifest(backupFolder).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RestoreError(
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? `${backupFolder} is not a finished backup: ${reason}` : `${backupFolder} cannot be restored: ${reason}. Nothing was changed.`,
    );
  });
  // Before anything is read by name: every table's file inside the folder.
  const backedUp = manifest.tables.map((table) => ({ ...table, path: tableFile(backupFolder, table) }));
  const journal = await readJournal();
  if (manifest.database.migrations.count > journal.entries.length) {
    throw new RestoreError(
      `This backup was made by a newer version of the app (schema ${manifest.database.migrations.last}); update the app before restoring it.`,
    );
  }
  await checkTargetIsEmpty(database, blobs);

  // 1. The backup checked whole before anything is written.
  for (const [index, table] of backedUp.entries()) {
    options.onProgress?.({ phase: 'checking', done: index, total: backedUp.length });
    const hash = new LineHash();
    for await (const line of linesOf(table.path)) hash.add(line);
    if (hash.rows !== table.rows || hash.digest() !== table.sha256) {
      throw new RestoreError(`The backup is damaged: ${table.file} does not match its manifest (${hash.rows} rows, manifest says ${table.rows}).`);
    }
  }
  const listText = await readFile(path.join(backupFolder, PHOTO_LIST_FILE), 'utf8');
  if (createHash('sha256').update(listText).digest('hex') !== manifest.photos.listSha256) {
    throw new RestoreError(`The backup is damaged: ${PHOTO_LIST_FILE} does not match its manifest.`);
  }
  let hashes: string[];
  try {
    hashes = parsePhotoList(listText);
  } catch (error) {
    throw new RestoreError(`The backup cannot be restored: ${error instanceof Error ? error.message : String(error)}. Nothing was changed.`);
  }

  // 2. The schema the rows fit, the rows, each table checked as loaded; then today's schema.
  const upTo = await migrationsUpTo(manifest.database.migrations.count);
  try {
    await database.migrate(upTo);
  } finally {
    await rm(upTo, { recursive: true, force: true });
  }
  const shapes = new Map((await backedUpTables(database.db)).map((shape) => [shape.name, shape]));
  const tables: RestoreReport['tables'] = [];
  for (const [index, table] of backedUp.entries()) {
    options.onProgress?.({ phase: 'database', done: index, total: backedUp.length });
    const shape = shapes.get(table.name);
    if (!shape) throw new RestoreError(`The backup holds a table ${table.name} this schema does not have.`);
    await loadTable(database.db, shape, linesOf(table.path));
    const loaded = await hashTable(database.db, shape);
    if (loaded.rows !== table.rows || loaded.sha256 !== table.sha256) {
      throw new RestoreError(`${table.name} did not load as backed up (${loaded.rows} rows, manifest says ${table.rows}).`);
    }
    tables.push({ name: table.name, rows: loaded.rows });
  }
  await database.migrate();

  // 3. The photos, each checked by its hash as it is written.
  const skipped = new Set([...manifest.photos.missing, ...manifest.photos.corrupt]);
  const wanted = hashes.filter((h) => !skipped.has(h));
  const source = photoStoreOf(path.dirname(backupFolder));
  const slots = new Semaphore(4);
  const damaged: string[] = [];
  let restored = 0;
  let done = 0;
  await Promise.all(
    wanted.map((hash) =>
      slots.run(async () => {
        try {
          const stored = await blobs.putStream(source.stream(hash));
          if (stored.hash === hash) restored += 1;
          else {
            damaged.push(hash);
            await blobs.delete(stored.hash);
          }
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') damaged.push(hash);
          else throw error;
        }
        done += 1;
        if (done % 50 === 0 || done === wanted.length) options.onProgress?.({ phase: 'photos', done, total: wanted.length });
      }),
    ),
  );
  return { manifest, tables, photosRestored: restored, photosDamaged: damaged.sort() };
}

async function checkTargetIsEmpty(database: Database, blobs: BlobStore): Promise<void> {
  const result = (await database.db.execute(
    sql`select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')`,
  )) as unknown as { rows: Array<{ n: number }> };
  if ((result.rows[0]?.n ?? 0) > 0) {
    throw new RestoreError('The database is not empty. Restore into a new, empty database (or an empty DATA_DIR); nothing was changed.');
  }
  for await (const blob of blobs.list()) {
    void blob;
    throw new RestoreError('The photo store is not empty. Restore into an empty DATA_DIR (or an empty bucket or prefix); nothing was changed.');
  }
}
