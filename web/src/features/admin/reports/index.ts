export { CurveMaintenanceView } from './curve-maintenance-view.js';
export { InspectionReportsView } from './inspection-reports-view.js';
export { ScheduleAtAGlance } from './schedule-at-a-glance.js';
export { ServiceReportsView } from './service-reports-view.js';
export { SseReportsView } from './sse-reports-view.js';
export { ReportProgress } from './report-progress.js';
export { type ReportJobTexts, useReportJob } from './use-report-job.js';
export type { AnalyticsReportBody } from './reports-api.js';
