/**
 * Reports made for people: kept files with their parameters, division scope and figures, made
 * by the report worker. The curve maintenance report reads the schedule and the machine report
 * the machine figures and the analytics report the dashboard, all handed in by the app.
 */
import type { FastifyInstance } from 'fastify';
import type { ActionService } from '../actions/index.js';
import type { AnalyticsService } from '../analytics/index.js';
import type { MachineService } from '../machines/index.js';
import type { ScheduleService } from '../schedule/index.js';
import { createAnalyticsPdfReport } from './analytics-pdf.js';
import { createAnalyticsExport } from './analytics-xlsx.js';
import { createCurveMaintenanceReport } from './curve-maintenance.js';
import { createActionReport } from './follow-up-actions-xlsx.js';
import { createInspectionPdfReport } from './inspection-pdf.js';
import { createMachineReport } from './machine-xlsx.js';
import { createRecordReports } from './record-reports.js';
import { reportRoutes } from './routes.js';
import { createServiceTablePdfReport } from './service-table-pdf.js';
import { createReportService, type ReportDeps } from './service.js';
import { createSseCofPdfReport } from './sse-cof-pdf.js';

/** The register export's bilingual titles (its import reads a column's English half). */
export { englishOf, registerColumnTitle, registerSheetTitle } from './report-words.js';

export interface ReportsFeatureOptions extends Omit<ReportDeps, 'log' | 'pollMs'> {
  appTimeZone: string;
  cofAlertThreshold: number;
  schedule: ScheduleService;
  machines: MachineService;
  actions: ActionService;
  /** The dashboard the analytics report prints. */
  analytics: AnalyticsService;
}

export async function reportsFeature(app: FastifyInstance, options: ReportsFeatureOptions) {
  const { db, blobs, now, appTimeZone, schedule, machines, actions, analytics } = options;
  const reports = createReportService({
    db,
    blobs,
    now,
    retentionDays: options.retentionDays,
    workers: options.workers,
    staleSeconds: options.staleSeconds,
    jobsPerAdmin: options.jobsPerAdmin,
    jobsPerClient: options.jobsPerClient,
    databaseKind: options.databaseKind,
    log: app.log,
    ...(options.onReportSettled ? { onReportSettled: options.onReportSettled } : {}),
  });
  const curveMaintenance = createCurveMaintenanceReport({ db, schedule, actions, reports, appTimeZone, now });
  const actionReport = createActionReport({ db, reports, actions, appTimeZone, now });
  const recordReports = createRecordReports({ db, reports, now, cofAlertThreshold: options.cofAlertThreshold });
  const inspectionPdf = createInspectionPdfReport({ db, blobs, reports, records: recordReports, appTimeZone });
  const sseCofPdf = createSseCofPdfReport({ db, reports, records: recordReports, appTimeZone });
  const serviceTablePdf = createServiceTablePdfReport({ db, reports, records: recordReports, appTimeZone });
  const machineReport = createMachineReport({ db, reports, machines, appTimeZone, now });
  const analyticsPdf = createAnalyticsPdfReport({ db, reports, analytics, appTimeZone, now });
  const analyticsExport = createAnalyticsExport({ analytics, appTimeZone, now });
  // The report worker claims queued jobs from start; expired reports (REPORT_RETENTION_DAYS)
  // and their files go at start and then hourly. A clean stop hands unfinished jobs back.
  app.addHook('onReady', async () => reports.start());
  app.addHook('onClose', async () => reports.stop());
  await app.register(reportRoutes, {
    reports,
    curveMaintenance,
    inspectionPdf,
    sseCofPdf,
    serviceTablePdf,
    machineReport,
    actionReport,
    analyticsPdf,
    analyticsExport,
    blobs,
  });
}
