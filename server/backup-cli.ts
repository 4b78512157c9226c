/**
 * npm run backup [-- --to <folder>]    a backup now, while the app serves or not
 * npm run restore -- <backup folder|latest>   into an empty DATA_DIR or database
 *
 * Both read the same settings as the server (DATA_DIR, DATABASE_URL, BLOB_STORE and S3_*,
 * BACKUP_DIR). Exit codes: 0 done; 1 failed (nothing half-written); 2 restored, but some
 * photos were damaged in the backup; 3 another backup is under way.
 */
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/client.js';
import {
  finishedBackups,
  makeBackup,
  requestBackupFromServer,
  restoreBackup,
  RestoreError,
  type BackupProgress,
  type SerializedOutcome,
} from './features/backups/index.js';
import { openBlobStore } from './storage/open-blob-store.js';
import { keepFilesPrivate } from './private-files.js';

const USAGE = 'Usage: npm run backup [-- --to <folder>]\n       npm run restore -- <backup folder | latest>';

function progressPrinter(): (p: BackupProgress | { phase: string; done: number; total: number }) => void {
  let last = '';
  return (p) => {
    const line = p.phase === 'photos' ? `  photos: ${p.done} of ${p.total}` : p.phase === 'database' ? '  database: reading one snapshot' : `  ${p.phase}: ${p.done} of ${p.total}`;
    if (line !== last) console.log(line);
    last = line;
  };
}

function reportBackup(outcome: SerializedOutcome): number {
  if (!outcome.made) {
    if (outcome.reason === 'busy') {
      console.error(`Another backup is under way (started ${outcome.runningSince}). Try again when it is done.`);
      return 3;
    }
    return 0;
  }
  const m = outcome.manifest;
  const records = m.tables.find((t) => t.name === 'inspection_logs')?.rows ?? 0;
  const megabytes = (m.tables.reduce((sum, t) => sum + t.bytes, 0) / 1e6).toFixed(1);
  console.log(`Backup made: ${outcome.folder}`);
  console.log(`  point in time ${m.snapshotAt}; ${records} records, ${m.tables.length} tables (${megabytes} MB), ${m.photos.count} photos (${(m.photos.bytes / 1e6).toFixed(1)} MB)`);
  console.log(`  ${m.photos.copied} new photos copied; the rest were in the backup folder already (photos never change)`);
  for (const name of outcome.removedBackups) console.log(`  removed the older backup ${name} (BACKUP_KEEP)`);
  if (m.photos.missing.length + m.photos.corrupt.length > 0) {
    console.warn(
      `  Warning: ${m.photos.missing.length} photos were missing and ${m.photos.corrupt.length} damaged in the photo store; they are not in this backup (listed in its manifest). Run the file tools' status check.`,
    );
  }
  return 0;
}

async function backup(config: Config, args: string[]): Promise<number> {
  const toIndex = args.indexOf('--to');
  if (toIndex >= 0 && !args[toIndex + 1]) throw new UsageError('--to needs a folder');
  const to = toIndex >= 0 ? path.resolve(args[toIndex + 1]!) : config.backupDir;
  // Retention applies to the scheduled backups' folder only.
  const keep = to === config.backupDir ? config.backupSchedule?.keep : undefined;
  const onProgress = progressPrinter();

  if (!config.databaseUrl) {
    const fromServer = await requestBackupFromServer(config.dataDir, to, onProgress);
    if (fromServer) return reportBackup(fromServer);
  }
  // A backup reads, never changes the schema: a newer command must not migrate under an older server.
  if (!config.databaseUrl && !existsSync(path.join(config.dataDir, 'pglite'))) {
    throw new RestoreError(`No embedded database in ${config.dataDir}: nothing to back up. Set DATA_DIR (or DATABASE_URL) as the server has it.`);
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    const outcome = await makeBackup({ database, blobs: await openBlobStore(config), backupDir: to, trigger: 'manual', ...(keep ? { keep } : {}), onProgress });
    return reportBackup(outcome.made || outcome.reason !== 'busy' ? outcome : { ...outcome, runningSince: outcome.runningSince.toISOString() });
  } finally {
    await database.close();
  }
}

async function restore(config: Config, args: string[]): Promise<number> {
  const named = args[0];
  if (!named) throw new UsageError('name the backup folder to restore, or latest');
  let folder: string;
  if (named === 'latest') {
    const newest = (await finishedBackups(config.backupDir))[0];
    if (!newest) throw new RestoreError(`No finished backup in ${config.backupDir}.`);
    folder = newest.folder;
  } else {
    folder = path.resolve(named);
  }
  const pgliteDir = path.join(config.dataDir, 'pglite');
  if (!config.databaseUrl && existsSync(pgliteDir) && readdirSync(pgliteDir).length > 0) {
    throw new RestoreError(`${config.dataDir} already holds a database. Restore into an empty DATA_DIR (for example DATA_DIR=./data-restored); nothing was changed.`);
  }
  console.log(`Restoring ${folder}`);
  console.log(`  into ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `the embedded database in ${config.dataDir}`}, photos into ${config.blobStore.kind === 's3' ? `s3://${config.blobStore.bucket}/${config.blobStore.prefix}` : path.join(config.dataDir, 'blobs')}`);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  let restored = false;
  try {
    const report = await restoreBackup({ backupFolder: folder, database, blobs: await openBlobStore(config), onProgress: progressPrinter() });
    const records = report.tables.find((t) => t.name === 'inspection_logs')?.rows ?? 0;
    console.log(`Restored the backup of ${report.manifest.snapshotAt}: ${records} records in ${report.tables.length} tables, ${report.photosRestored} photos; every table and photo matches the manifest.`);
    console.log('  Sign-ins were not backed up: everyone signs in again.');
    if (report.photosDamaged.length > 0) {
      console.error(`  ${report.photosDamaged.length} photos were damaged or gone in the backup and were not restored; their records are, and the file tools list them as missing:`);
      for (const hash of report.photosDamaged) console.error(`    ${hash}`);
      restored = true;
      return 2;
    }
    restored = true;
    return 0;
  } finally {
    await database.close();
    // Nothing half-written: the embedded database made for this restore goes with a failure.
    if (!restored && !config.databaseUrl) await rm(pgliteDir, { recursive: true, force: true });
  }
}

class UsageError extends Error {}

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  const config = loadConfig();
  await keepFilesPrivate([config.dataDir, config.backupDir]);
  if (command === 'backup') return backup(config, args);
  if (command === 'restore') return restore(config, args);
  throw new UsageError(`unknown command ${command ?? '(none)'}`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n${USAGE}`);
    else if (error instanceof ConfigError || error instanceof RestoreError) console.error(error.message);
    else console.error(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
