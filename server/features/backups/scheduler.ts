/**
 * Scheduled backups (BACKUP_DIR set): each instance looks every few minutes whether a backup
 * is due; backup-runs.ts lets one of them make it and keeps the others out, so several
 * instances make one backup an interval between them.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { makeBackup } from './make-backup.js';

/** The longest wait between two looks, so a missed backup (the server was down) is made soon after a start. */
const MAX_LOOK_MS = 5 * 60_000;
/** The first look waits a little: the start itself and the first requests come first. */
const FIRST_LOOK_MS = 30_000;

export interface BackupScheduleOptions {
  database: Database;
  blobs: BlobStore;
  backupDir: string;
  intervalSeconds: number;
  keep: number;
  log?: FastifyBaseLogger;
  /** The wait before the first look (tests shorten it). */
  firstLookMs?: number;
}

export function createBackupScheduler(options: BackupScheduleOptions) {
  const intervalMs = options.intervalSeconds * 1000;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  async function runIfDue(): Promise<void> {
    const outcome = await makeBackup({
      database: options.database,
      blobs: options.blobs,
      backupDir: options.backupDir,
      trigger: 'scheduled',
      intervalMs,
      keep: options.keep,
    });
    if (outcome.made) {
      const m = outcome.manifest;
      const records = m.tables.find((t) => t.name === 'inspection_logs')?.rows ?? 0;
      options.log?.info(
        { backup: outcome.folder, records, photos: m.photos.count, missingPhotos: m.photos.missing.length, corruptPhotos: m.photos.corrupt.length, removed: outcome.removedBackups },
        'scheduled backup made',
      );
      if (m.photos.missing.length + m.photos.corrupt.length > 0) {
        options.log?.warn({ missing: m.photos.missing, corrupt: m.photos.corrupt }, 'photos not in the backup: run the file tools status check');
      }
    }
  }

  function look(delayMs: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runIfDue()
        .catch((error: unknown) => options.log?.error({ err: error }, 'scheduled backup failed; it is tried again at the next look'))
        .finally(() => {
          running = null;
          look(Math.min(intervalMs / 4, MAX_LOOK_MS));
        });
    }, delayMs);
    timer.unref();
  }

  return {
    start() {
      stopped = false;
      look(Math.min(options.firstLookMs ?? FIRST_LOOK_MS, intervalMs));
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    runIfDue,
  };
}
