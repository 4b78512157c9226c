/** Reports made for people: kept files with their parameters, division scope and figures. */
export { createReportService, type ReportService } from './service.js';
export { createCurveMaintenanceReport } from './curve-maintenance.js';
export { reportRoutes } from './routes.js';
