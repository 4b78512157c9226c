/**
 * Backups: made by the scheduler (BACKUP_DIR set), by `npm run backup` through the control
 * socket, and restored by `npm run restore`; the photo files and the file tools ask whether
 * one is under way and where its photos are.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { createBackupScheduler } from './scheduler.js';

export { BACKUP_JOB, backupUnderWay } from './backup-runs.js';
export { finishedBackups, photoStoreOf, type BackupManifest, type FoundBackup } from './backup-folder.js';
export { controlSocketPath, requestBackupFromServer, startControlSocket, type SerializedOutcome } from './control-socket.js';
export { makeBackup, type BackupOutcome, type BackupProgress } from './make-backup.js';
export { restoreBackup, RestoreError, type RestoreReport } from './restore-backup.js';

export interface BackupsFeatureOptions {
  database: Database;
  blobs: BlobStore;
  backupDir: string;
  /** BACKUP_INTERVAL and BACKUP_KEEP; none when BACKUP_DIR is not set, and then no backup is scheduled. */
  schedule: { intervalSeconds: number; keep: number } | undefined;
}

export async function backupsFeature(app: FastifyInstance, { database, blobs, backupDir, schedule }: BackupsFeatureOptions) {
  if (!schedule) return;
  // Scheduled backups: one an interval between all instances, the newest BACKUP_KEEP kept.
  const backups = createBackupScheduler({ database, blobs, backupDir, ...schedule, log: app.log });
  app.addHook('onReady', async () => backups.start());
  app.addHook('onClose', async () => backups.stop());
}
