/** Every scenario, in the order the runner runs them. */
import type { Scenario } from '../lib/types.js';
import { actions } from './actions.js';
import { analytics } from './analytics.js';
import { backup } from './backup.js';
import { exportCurves } from './export-curves.js';
import { importCurves } from './import-curves.js';
import { inspectionsFiltered } from './inspections-filtered.js';
import { inspectionsPageWrites } from './inspections-page-writes.js';
import { curvesList, dataSummary, health, inspectionsPage, login, loginOneAccount } from './loads.js';
import { machineStats, machineStatsWrites } from './machine-stats.js';
import { maintenanceReport } from './maintenance-report.js';
import { pdfReport } from './pdf-report.js';
import { recordsViewBrowser } from './records-view-browser.js';
import { schedule } from './schedule.js';
import { upload, uploadS3 } from './uploads.js';
import { zipDownload } from './zip-download.js';

export const scenarios: readonly Scenario[] = [
  health,
  curvesList,
  login,
  loginOneAccount,
  upload,
  // On a server of its own (BLOB_STORE=s3 on s3rver), started and stopped around it.
  uploadS3,
  inspectionsPage,
  inspectionsPageWrites,
  inspectionsFiltered,
  dataSummary,
  // They add 10k curve records for themselves and remove them afterwards.
  machineStats,
  machineStatsWrites,
  zipDownload,
  recordsViewBrowser,
  // Two backups of what the reads above saw (their photos too), before the scenarios below add records.
  backup,
  // They add a few inspection records each (uploads that move the data version on).
  schedule,
  actions,
  analytics,
  maintenanceReport,
  pdfReport,
  // Last: they add 10,000 and then up to 100,000 curves, which the reads above must not see.
  importCurves,
  exportCurves,
];
