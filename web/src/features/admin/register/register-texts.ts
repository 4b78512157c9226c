/** Texts of the curve and station views and the register's import and export that are the spec's contract (sections 2, 4, 5 and 8). */
export const REGISTER_TEXTS = {
  editCurve: 'Edit Curve Details',
  addCurve: 'Add New Curve',
  editStation: 'Edit Station Details',
  addStation: 'Add New Station',
  saving: 'Saving...',
  creating: 'Creating...',
  deleting: 'Deleting...',
  curveUpdated: 'Curve Updated',
  curveCreated: 'Curve Created',
  curveDeleted: 'Curve Deleted',
  stationUpdated: 'Station Updated',
  stationCreated: 'Station Created',
  stationDeleted: 'Station Deleted',
  errorTitle: 'Error',
  deleteErrorTitle: 'Delete Error',
  updateCurveFailed: 'Failed to update curve',
  createCurveFailed: 'Failed to create curve',
  deleteCurveFailed: 'Failed to delete curve',
  updateStationFailed: 'Failed to update station',
  createStationFailed: 'Failed to create station',
  deleteStationFailed: 'Failed to delete station',
  noCurves: 'No curves match the selected filters',
  noStations: 'No stations match the selected filters',
  curvesShown: (first: number, last: number, total: number) =>
    first === 1 && total > last ? `Showing first ${last} of ${total} curve records` : showing(first, last, total, 'curve record', 'curve records'),
  stationsShown: (first: number, last: number, total: number) =>
    first === 1 && total > last ? `Showing first ${last} of ${total} stations` : showing(first, last, total, 'station', 'stations'),
  deleteCurveQuestion: (curveNumber: string, section: string) => `Are you sure you want to delete curve ${curveNumber} in section ${section}?`,
  deleteStationQuestion: (stationName: string, no: number) => `Are you sure you want to delete station ${stationName} at No. ${no}?`,
  importStations: 'Import Station Data',
  importCurves: 'Import Curve Data',
  importing: 'Importing...',
  importSuccessful: 'Import Successful',
  importedText: (count: number) => `Imported ${count} records successfully`,
  importFailed: 'Import Failed',
  importFailedText: 'Failed to import Excel file',
  exportFailed: 'Export failed. Please try again.',
} as const;

function showing(first: number, last: number, total: number, one: string, many: string): string {
  if (total === 1) return `Showing 1 ${one}`;
  if (first === 1 && last === total) return `Showing all ${total} ${many}`;
  return `Showing ${first === last ? first : `${first}–${last}`} of ${total} ${many}`;
}
