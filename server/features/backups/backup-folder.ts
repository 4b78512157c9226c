/**
 * What a backup folder holds, and the folders a backup directory holds:
 *
 *   BACKUP_DIR/
 *     photos/ab/cd/<sha256>          every backup's photos, once each (content-addressed)
 *     backup-2026-11-24T05-30-00-000Z/
 *       database/<table>.ndjson.gz   the rows, one JSON object a line, in key order
 *       photos.txt                   the sha256 of every photo the records name, sorted
 *       manifest.json                written last: counts and hashes of all of the above
 *
 * Photos never change once taken, so a daily backup copies only the day's new photos; the
 * shared photos folder is why a backup is restored from its BACKUP_DIR (or a copy of all of it).
 * A folder without manifest.json is a backup that never finished, and is never restored from.
 * A restore reads only what the manifest and photos.txt name, so both are held to the shapes
 * a backup writes: a table file is database/<table>.ndjson.gz, a photo is named by its sha256.
 * A backup from elsewhere can then never make a restore read (or write) outside its folders.
 */
import { open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { PRIVATE_FILE_MODE } from '../../private-files.js';
import { SHA256_HEX } from '../../storage/blob-store.js';
import { DiskBlobStore } from '../../storage/disk-blob-store.js';

export const MANIFEST_FILE = 'manifest.json';
export const PHOTO_LIST_FILE = 'photos.txt';
export const BACKUP_FORMAT = 'hkmi-backup/1';
const BACKUP_NAME = /^backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** A table's name as this app's schema has them: a plain identifier, safe in a file name. */
const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

/** Where a table's rows are, relative to its backup's folder. */
export function tableFileOf(table: string): string {
  if (!TABLE_NAME.test(table)) throw new Error(`${JSON.stringify(table)} is not a plain table name`);
  return `database/${table}.ndjson.gz`;
}

const sha256Schema = z.string().regex(SHA256_HEX, 'must be a sha256 in hex');

const tableEntrySchema = z
  .object({
    name: z.string().regex(TABLE_NAME, 'must be a plain table name'),
    file: z.string(),
    rows: z.number().int().min(0),
    sha256: sha256Schema,
    bytes: z.number().int().min(0),
  })
  .refine((table) => TABLE_NAME.test(table.name) && table.file === tableFileOf(table.name), {
    path: ['file'],
    message: 'must be database/<table name>.ndjson.gz, inside the backup folder',
  });

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  name: z.string(),
  /** The moment of the database snapshot: the backup's point in time. */
  snapshotAt: z.string(),
  finishedAt: z.string(),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    /** The schema version the rows fit: a restore builds this schema, loads, then migrates on. */
    migrations: z.object({ count: z.number().int().min(0), last: z.string() }),
  }),
  /** In load order (a table after those it references). */
  tables: z.array(tableEntrySchema),
  photos: z.object({
    /** Photos the records name and this backup holds. */
    count: z.number().int().min(0),
    bytes: z.number().int().min(0),
    /** Of those, copied by this backup; the others were in the shared photos folder already. */
    copied: z.number().int().min(0),
    /** sha256 of photos.txt. */
    listSha256: sha256Schema,
    /** Named by records but not found in the live store when the backup was made. */
    missing: z.array(sha256Schema),
    /** Found, but their bytes no longer hashed to the name: not copied. */
    corrupt: z.array(sha256Schema),
  }),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

export const photoStoreOf = (backupDir: string) => new DiskBlobStore(path.join(backupDir, 'photos'));

export function newBackupName(at: Date): string {
  return `backup-${at.toISOString().replace(/[:.]/g, '-')}`;
}

export interface FoundBackup {
  name: string;
  folder: string;
  manifest: BackupManifest;
}

/** Finished backups in a backup directory, newest first. */
export async function finishedBackups(backupDir: string): Promise<FoundBackup[]> {
  const found: FoundBackup[] = [];
  for (const name of await backupFolders(backupDir)) {
    const manifest = await readManifest(path.join(backupDir, name)).catch(() => null);
    if (manifest) found.push({ name, folder: path.join(backupDir, name), manifest });
  }
  return found.sort((a, b) => b.manifest.snapshotAt.localeCompare(a.manifest.snapshotAt));
}

export async function backupFolders(backupDir: string): Promise<string[]> {
  try {
    return (await readdir(backupDir)).filter((n) => BACKUP_NAME.test(n));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export async function readManifest(folder: string): Promise<BackupManifest> {
  const file = path.join(folder, MANIFEST_FILE);
  const text = await readFile(file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not JSON`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file} is not a backup manifest this version can read${issue ? ` (${issue.path.join('.')} ${issue.message})` : ''}`);
  }
  return parsed.data;
}

export async function readPhotoList(folder: string): Promise<string[]> {
  return parsePhotoList(await readFile(path.join(folder, PHOTO_LIST_FILE), 'utf8'));
}

/** photos.txt's hashes; a line that is not a sha256 is refused, never taken for a file name. */
export function parsePhotoList(text: string): string[] {
  const lines = text.split('\n');
  const hashes: string[] = [];
  for (const [index, line] of lines.entries()) {
    if (line === '') continue;
    if (!SHA256_HEX.test(line)) throw new Error(`${PHOTO_LIST_FILE} line ${index + 1} is not a photo's sha256: ${JSON.stringify(line.slice(0, 100))}`);
    hashes.push(line);
  }
  return hashes;
}

/** Writes a small file whole or not at all, flushed with its folder entry. */
export async function writeFileDurably(file: string, text: string): Promise<void> {
  const temp = `${file}.tmp`;
  await writeFile(temp, text, { mode: PRIVATE_FILE_MODE });
  await syncPath(temp);
  await rename(temp, file);
  await syncPath(path.dirname(file));
}

export async function syncPath(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Keeps the newest `keep` finished backups and removes the rest, any folder of a backup that
 * never finished (only one backup runs at a time, so none is being written), and the photos
 * no remaining backup names. Answers what went.
 */
export async function applyRetention(backupDir: string, keep: number, current: string): Promise<{ removedBackups: string[]; removedPhotos: number }> {
  const finished = await finishedBackups(backupDir);
  const kept = new Set(finished.slice(0, keep).map((b) => b.name));
  kept.add(current);
  const removedBackups: string[] = [];
  for (const name of await backupFolders(backupDir)) {
    if (kept.has(name)) continue;
    await rm(path.join(backupDir, name), { recursive: true, force: true });
    removedBackups.push(name);
  }
  const named = new Set<string>();
  for (const name of kept) {
    for (const hash of await readPhotoList(path.join(backupDir, name))) named.add(hash);
  }
  const photos = photoStoreOf(backupDir);
  let removedPhotos = 0;
  for await (const blob of photos.list()) {
    if (named.has(blob.hash)) continue;
    await photos.delete(blob.hash);
    removedPhotos += 1;
  }
  return { removedBackups, removedPhotos };
}
