/**
 * What a record prints in the PDF reports besides its photo: its title line and its fields, in
 * the words of report-words.ts. Kept apart from the layout (inspection-pdf.ts) and from the
 * database, so the bench's bare pdfkit baseline prints the very same texts (bench/bare/jobs.ts).
 */
import { isCofHigh } from '../../../common/rules/schedule.js';
import type { InspectionRow } from '../../db/schema.js';
import { dateTimeText, joinedText, serviceUpdateText } from './report-text.js';
import { both, REPORT_PHRASES, word } from './report-words.js';

/** "0.27" from the stored numeric, or '' when there is none. */
export const cofText = (value: string | null) => (value === null ? '' : Number(value).toFixed(2));

/** Whether a record's CoF reading is above the threshold (the schedule's rule). */
export const isHighReading = (row: Pick<InspectionRow, 'cofValue'>, threshold: number) => isCofHigh(row.cofValue === null ? null : Number(row.cofValue), threshold);

/** A record's own answer, as stored (a data value of the record, like its service update). */
const yesNo = (value: boolean | null) => (value === null ? '' : value ? 'Yes' : 'No');

export type Field = [label: string, value: string];

/** What a record's block prints besides its photo. */
export interface RecordTexts {
  /** "12. INS-20261120-ABC123", at the top left of the block. */
  title: string;
  /** "2026-11-20 · Service", at the top right; a high CoF reading says so. */
  subtitle: string;
  /** A CoF reading above the threshold: the block and its reading are marked. */
  high: boolean;
  fields: Field[];
}

/** The fields of a record as they print: a stored record (InspectionRow) or the API's one with its time parsed. */
export type PrintedRecord = Pick<
  InspectionRow,
  'recordId' | 'date' | 'type' | 'divisionRailway' | 'section' | 'curveNumber' | 'line' | 'station1' | 'station2' | 'km' | 'pole1' | 'pole2' | 'railwayEngineer'
> &
  Pick<InspectionRow, 'technicianName' | 'technicianId' | 'submittedAt' | 'cofValue' | 'location' | 'serviceUpdate' | 'partCategory' | 'partItemName' | 'isMachineWorking' | 'greaseDepth'>;

/** The texts of the `index`th record (from 0) of a report. */
export function recordTexts(row: PrintedRecord, index: number, threshold: number, timeZone: string): RecordTexts {
  const high = row.type === 'CoF' && isHighReading(row, threshold);
  return {
    title: `${index + 1}. ${row.recordId}`,
    subtitle: `${row.date} · ${row.type}${high ? ` · CoF ${cofText(row.cofValue)} ${both(REPORT_PHRASES.above(threshold.toFixed(2)))}` : ''}`,
    high,
    fields: fieldsOf(row, threshold, timeZone),
  };
}

/** The fields printed under a record's photo, in reading order; the first is the reading or the update. */
function fieldsOf(row: PrintedRecord, threshold: number, timeZone: string): Field[] {
  const common: Field[] = [
    [word('division'), row.divisionRailway],
    [word('section'), row.section],
    [word('curveAndLine'), `${row.curveNumber} / ${row.line}`],
    [word('stations'), joinedText(row.station1, row.station2)],
    [word('km'), row.km ?? ''],
    [word('poles'), joinedText(row.pole1, row.pole2)],
    [word('sse'), row.railwayEngineer ?? ''],
    [word('technician'), `${row.technicianName} (${row.technicianId})`],
    [word('stored'), dateTimeText(row.submittedAt, timeZone)],
  ];
  if (row.type === 'CoF') {
    return [
      [word('cofValue'), `${cofText(row.cofValue)}${isHighReading(row, threshold) ? `  ${both(REPORT_PHRASES.aboveMark(threshold.toFixed(2)))}` : ''}`],
      [word('location'), row.location ?? ''],
      ...common,
    ];
  }
  return [
    [word('serviceUpdate'), serviceUpdateText(row.serviceUpdate)],
    [word('part'), joinedText(row.partCategory, row.partItemName)],
    [word('machineWorking'), yesNo(row.isMachineWorking)],
    [word('greaseDepth'), row.greaseDepth === null ? '' : `${row.greaseDepth} cm`],
    ...common,
  ];
}

