export { backupUnderWay } from './backup-runs.js';
export { finishedBackups, photoStoreOf, type BackupManifest, type FoundBackup } from './backup-folder.js';
export { makeBackup, type BackupOutcome, type BackupProgress } from './make-backup.js';
export { restoreBackup, RestoreError, type RestoreReport } from './restore-backup.js';
export { createBackupScheduler } from './scheduler.js';
