import { SERVICE_UPDATE_LABELS } from '../../../../../common/constants.js';
import type { InspectionLog } from '../../../../../common/schemas/inspection.js';
import { submittedText, visitDateText } from '../../../lib/date-text.js';

/** The field app's label for a service answer; a value the app never offered is shown as stored. */
export function serviceUpdateText(value: string | null): string | null {
  if (value === null) return null;
  return (SERVICE_UPDATE_LABELS as Readonly<Record<string, string>>)[value] ?? value;
}

/** The one-line finding of a card: the CoF value for a measurement, the answer for a service. */
export function findingOf(log: InspectionLog): string {
  if (log.type === 'CoF') return log.cofValue === null ? 'CoF Value: not recorded' : `CoF Value: ${log.cofValue}`;
  return serviceUpdateText(log.serviceUpdate) ?? 'Service update: not recorded';
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Every field of a record for the details view, in the order a person reads a visit. Empty ones are left out. */
export function detailRowsOf(log: InspectionLog): Array<[label: string, value: string]> {
  const rows: Array<[string, string | null]> = [
    ['Record ID', log.recordId],
    ['Type', log.type === 'CoF' ? 'CoF Measurement' : 'Service Inspection'],
    ['Date', visitDateText(log.date)],
    ['Submitted', submittedText(log.submittedAt)],
    ['Division/Railway', log.divisionRailway],
    ['Section', log.section],
    ['Curve Number', log.curveNumber],
    ['Line', log.line],
    ['Station 1', log.station1],
    ['Station 2', log.station2],
    ['Railway Engineer', log.railwayEngineer],
    ['Technician', `${log.technicianName} (${log.technicianId})`],
    ['CoF Value', log.cofValue],
    ['Location', log.location],
    ['KM', log.km],
    ['Pole 1', log.pole1],
    ['Pole 2', log.pole2],
    ['Service Update', serviceUpdateText(log.serviceUpdate)],
    ['Part Category', log.partCategory],
    ['Item Name', log.partItemName],
    ['Grease Depth (cm)', log.greaseDepth],
    ['Is the Machine working?', log.isMachineWorking === null ? null : log.isMachineWorking ? 'Yes' : 'No'],
    ['GPS', log.latitude !== null && log.longitude !== null ? `${log.latitude.toFixed(5)}, ${log.longitude.toFixed(5)}` : null],
    ['GPS Accuracy', log.locationAccuracyM === null ? null : `± ${Math.round(log.locationAccuracyM)} m`],
    ['Photo', log.imageWidth !== null && log.imageHeight !== null ? `${log.imageWidth} × ${log.imageHeight}` : null],
    ['Photo Size', log.imageSizeBytes === null ? null : sizeText(log.imageSizeBytes)],
    ['File Name', log.fileName],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== null && row[1] !== '');
}
