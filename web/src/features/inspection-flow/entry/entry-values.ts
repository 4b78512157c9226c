import type { InspectionType } from '../../../../../common/constants.js';
import { COF_VALUE_DEFAULT, maskCofValue } from '../../../../../common/rules/cof-value.js';
import type { InspectionEntry, SessionEntry } from '../../../../../common/schemas/inspection.js';

/**
 * What the entry form holds: the step-1 fields of the stored entry, as text, '' for
 * "nothing chosen yet" (what a select gives). railwayEngineer is the SSE picker's value.
 */
export type EntryFormValues = Pick<
  SessionEntry,
  'date' | 'type' | 'divisionRailway' | 'section' | 'curveNumber' | 'line' | 'station1' | 'station2' | 'railwayEngineer' | 'cofValue' | 'location' | 'km' | 'pole1' | 'pole2'
>;

export type StationMode = 'list' | 'manual';

/** Today on the phone's own calendar: the technician's local date, not UTC's. */
export function todayLocal(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function emptyEntryValues(type: InspectionType, date: string): EntryFormValues {
  return {
    date,
    type,
    divisionRailway: '',
    section: '',
    curveNumber: '',
    line: '',
    station1: '',
    station2: '',
    railwayEngineer: '',
    cofValue: COF_VALUE_DEFAULT,
    location: '',
    km: '',
    pole1: '',
    pole2: '',
  };
}

/** The form as the user left it when they come Back; the date is always today's. */
export function entryValuesFrom(stored: SessionEntry, type: InspectionType, date: string): EntryFormValues {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    ...emptyEntryValues(type, date),
    divisionRailway: text(stored.divisionRailway),
    section: text(stored.section),
    curveNumber: text(stored.curveNumber),
    line: text(stored.line),
    station1: text(stored.station1),
    station2: text(stored.station2),
    railwayEngineer: text(stored.railwayEngineer) || text(stored.sse),
    cofValue: maskCofValue(text(stored.cofValue)),
    location: text(stored.location),
    km: text(stored.km),
    pole1: text(stored.pole1),
    pole2: text(stored.pole2),
  };
}

/**
 * The form's text as the shared contract (inspectionEntrySchema) reads it: the one select
 * whose "nothing chosen" the contract spells as null. The contract decides every rule and message.
 */
export function entryContractInput(values: EntryFormValues): unknown {
  return { ...values, location: values.location === '' ? null : values.location };
}

const ENTRY_FIELDS = [
  'divisionRailway',
  'section',
  'curveNumber',
  'line',
  'station1',
  'station2',
  'railwayEngineer',
  'cofValue',
  'location',
  'km',
  'pole1',
  'pole2',
] as const;

/**
 * The session entry for a valid form. Saving again after Back keeps the entry's upload id and
 * the later steps' answers; a photo is kept only while the details it shows are unchanged.
 */
export function toSessionEntry(entry: InspectionEntry, previous: SessionEntry | null, newId: () => string): SessionEntry {
  const text = (value: string | null) => value ?? '';
  const fields: Omit<SessionEntry, 'clientSubmissionId'> = {
    date: entry.date,
    type: entry.type,
    divisionRailway: entry.divisionRailway,
    section: entry.section,
    curveNumber: entry.curveNumber,
    line: entry.line,
    station1: text(entry.station1),
    station2: text(entry.station2),
    railwayEngineer: text(entry.railwayEngineer),
    sse: text(entry.railwayEngineer),
    cofValue: text(entry.cofValue),
    location: text(entry.location),
    km: text(entry.km),
    pole1: text(entry.pole1),
    pole2: text(entry.pole2),
  };
  if (previous === null || previous.type !== entry.type || !previous.clientSubmissionId) {
    return { ...fields, clientSubmissionId: newId() };
  }
  const { imageUrl, fileName, ...laterSteps } = previous;
  const unchanged = previous.date === fields.date && ENTRY_FIELDS.every((field) => previous[field] === fields[field]);
  return {
    ...laterSteps,
    ...fields,
    ...(unchanged && imageUrl !== undefined ? { imageUrl } : {}),
    ...(unchanged && fileName !== undefined ? { fileName } : {}),
  };
}
