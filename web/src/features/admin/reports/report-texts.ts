/** Texts of the report views that are the spec's contract (sections 2, 4, 5 and 8). */
export const REPORT_TEXTS = {
  generating: 'Generating...',
  generateMaintenance: 'Generate Excel Report',
  generatedTitle: 'Report Generated',
  maintenanceFound: (service: number, cof: number) => `Found ${service} curves needing service and ${cof} curves needing CoF measurement.`,
  errorTitle: 'Error',
  maintenanceFailed: 'Failed to generate curve maintenance report',
  downloadFailedTitle: 'Download Failed',
  downloadFailed: 'Failed to download report',

  // PDF Reports (view inspection-reports)
  generateReport: 'Generate Report',
  missingFieldsTitle: 'Missing Required Fields',
  missingFields: 'Please select both Division and Service Type to generate a report.',
  selectDivision: 'Select division',
  selectServiceType: 'Select service type',
  withRecords: (count: number) => `with ${count} records`,
  reportFailed: 'Failed to generate report',

  // SSE CoF Measurement (view sse-reports)
  generateSse: 'Generate SSE Report',
  sseGeneratedTitle: 'SSE Report Generated',
  sseContains: (count: number) => `Report contains ${count} CoF measurements`,
  sseFailed: 'Failed to generate SSE report',

  // Service Reports (view service-reports)
  generateService: 'Generate Service Report',
  serviceGeneratedTitle: 'Service Report Generated',
  serviceContains: (count: number) => `Report contains ${count} service records`,
  serviceFailed: 'Failed to generate service report',

  // The job while it is made, and the pickers
  progress: (percent: number) => `Making the report: ${percent}%`,
  allDivisions: 'All divisions',
  allTechnicians: 'All technicians',
  allSses: 'All SSEs',
  toBeforeFrom: 'To date must be on or after From date',
  noDivision: 'No division assigned',
} as const;

/** A file's size for people: '850 KB', '12.4 MB'. */
export const fileSizeText = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
