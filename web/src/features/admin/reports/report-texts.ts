/** Texts of the Excel Reports view that are the spec's contract (sections 2, 4 and 8). */
export const REPORT_TEXTS = {
  generating: 'Generating...',
  generateMaintenance: 'Generate Excel Report',
  generatedTitle: 'Report Generated',
  maintenanceFound: (service: number, cof: number) => `Found ${service} curves needing service and ${cof} curves needing CoF measurement.`,
  errorTitle: 'Error',
  maintenanceFailed: 'Failed to generate curve maintenance report',
  downloadFailedTitle: 'Download Failed',
  downloadFailed: 'Failed to download report',
} as const;
