import { t } from '@lingui/core/macro';
import type { InspectionLog } from '../../../../../common/schemas/inspection.js';
import { submittedText, visitDateText } from '../../../lib/date-text.js';
import { lineLabel, locationLabel, serviceUpdateLabel } from '../../../lib/value-labels.js';

/*
 * Plain functions called while a record renders: each text is read at the call, in the
 * language shown at that moment.
 */

/** The field app's label for a service answer; a value the app never offered is shown as stored. */
export function serviceUpdateText(value: string | null): string | null {
  if (value === null) return null;
  return serviceUpdateLabel(value);
}

/** The one-line finding of a card: the CoF value for a measurement, the answer for a service. */
export function findingOf(log: InspectionLog): string {
  const { cofValue } = log;
  if (log.type === 'CoF') return cofValue === null ? t`CoF Value: not recorded` : t`CoF Value: ${cofValue}`;
  return serviceUpdateText(log.serviceUpdate) ?? t`Service update: not recorded`;
}

function sizeText(bytes: number): string {
  // B, KB and MB are written in Latin letters in Hindi too.
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Every field of a record for the details view, in the order a person reads a visit. Empty ones are left out. */
export function detailRowsOf(log: InspectionLog): Array<[label: string, value: string]> {
  const accuracy = log.locationAccuracyM === null ? null : Math.round(log.locationAccuracyM);
  const rows: Array<[string, string | null]> = [
    [t`Record ID`, log.recordId],
    [t`Type`, log.type === 'CoF' ? t`CoF Measurement` : t`Service Inspection`],
    [t`Date`, visitDateText(log.date)],
    [t`Submitted`, submittedText(log.submittedAt)],
    [t`Division/Railway`, log.divisionRailway],
    [t`Section`, log.section],
    [t`Curve Number`, log.curveNumber],
    [t`Line`, lineLabel(log.line)],
    [t`Station 1`, log.station1],
    [t`Station 2`, log.station2],
    [t`Railway Engineer`, log.railwayEngineer],
    [t`Technician`, `${log.technicianName} (${log.technicianId})`],
    [t`CoF Value`, log.cofValue],
    [t`Location`, log.location === null ? null : locationLabel(log.location)],
    [t`KM`, log.km],
    [t`Pole 1`, log.pole1],
    [t`Pole 2`, log.pole2],
    [t`Service Update`, serviceUpdateText(log.serviceUpdate)],
    [t`Part Category`, log.partCategory],
    [t`Item Name`, log.partItemName],
    [t`Grease Depth (cm)`, log.greaseDepth],
    [t`Is the Machine working?`, log.isMachineWorking === null ? null : log.isMachineWorking ? t`Yes` : t`No`],
    [t`GPS`, log.latitude !== null && log.longitude !== null ? `${log.latitude.toFixed(5)}, ${log.longitude.toFixed(5)}` : null],
    [t`GPS Accuracy`, accuracy === null ? null : t`± ${accuracy} m`],
    [t`Photo`, log.imageWidth !== null && log.imageHeight !== null ? `${log.imageWidth} × ${log.imageHeight}` : null],
    [t`Photo Size`, log.imageSizeBytes === null ? null : sizeText(log.imageSizeBytes)],
    [t`File Name`, log.fileName],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== null && row[1] !== '');
}
