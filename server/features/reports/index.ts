/** Reports made for people: kept files with their parameters, division scope and figures. */
export { createReportService, type ReportService } from './service.js';
export { createCurveMaintenanceReport } from './curve-maintenance.js';
export { reportRoutes } from './routes.js';
export { createRecordReports } from './record-reports.js';
export { createInspectionPdfReport } from './inspection-pdf.js';
export { createSseCofPdfReport } from './sse-cof-pdf.js';
export { createServiceTablePdfReport } from './service-table-pdf.js';
export { createMachineReport } from './machine-xlsx.js';
