import {
  DEFAULT_INSPECTION_TYPE,
  INSPECTION_TYPES,
  type InspectionType,
} from '../../../../common/constants.js';
import type { SessionEntry, SubmissionResult } from '../../../../common/schemas/inspection.js';
import { readJson, removeItem, writeItem } from '../../lib/safe-storage.js';
import { INSPECTION_ENTRY_KEY, SUBMISSION_RESULT_KEY } from '../../lib/storage-keys.js';

/** The ?type= of data entry; anything unknown falls back to the spec's default, Service. */
export function parseInspectionType(value: string | null): InspectionType {
  return INSPECTION_TYPES.find((type) => type === value) ?? DEFAULT_INSPECTION_TYPE;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function hasInspectionEntry(): boolean {
  return isRecord(readJson('session', INSPECTION_ENTRY_KEY));
}

/** The type of the entry in progress, or null when there is none. */
export function storedEntryType(): InspectionType | null {
  const entry = readJson('session', INSPECTION_ENTRY_KEY);
  if (!isRecord(entry) || typeof entry.type !== 'string') return null;
  return parseInspectionType(entry.type);
}

/**
 * sessionStorage 'hkmi_submission_result': the spec's {recordId, fileName} plus a status.
 * 'queued' means the record is safe in the outbox but not on the server yet, so it has only
 * its local ID. A value without a status (written before the outbox existed) is a completed one.
 */
export type StoredSubmissionResult =
  | { status: 'completed'; recordId: string | null; fileName: string | null }
  | { status: 'queued'; localId: string };

export function readSubmissionResult(): StoredSubmissionResult | null {
  const result = readJson('session', SUBMISSION_RESULT_KEY);
  if (!isRecord(result)) return null;
  if (result.status === 'queued' && typeof result.localId === 'string' && result.localId !== '') {
    return { status: 'queued', localId: result.localId };
  }
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : null);
  return { status: 'completed', recordId: text(result.recordId), fileName: text(result.fileName) };
}

export function hasSubmissionResult(): boolean {
  return readSubmissionResult() !== null;
}

export function clearSubmissionResult(): void {
  removeItem('session', SUBMISSION_RESULT_KEY);
}

/** The entry in progress (the session entry: docs/architecture.md, 'Entities and stored shapes'), or null. */
export function readEntry(): SessionEntry | null {
  const entry = readJson('session', INSPECTION_ENTRY_KEY);
  if (!isRecord(entry) || typeof entry.type !== 'string' || typeof entry.divisionRailway !== 'string') return null;
  return entry as unknown as SessionEntry;
}

export function writeEntry(entry: SessionEntry): void {
  writeItem('session', INSPECTION_ENTRY_KEY, JSON.stringify(entry));
}

/** Merges later steps' fields (service details, the review answer, the image) into the entry. */
export function updateEntry(patch: Partial<SessionEntry>): SessionEntry | null {
  const entry = readEntry();
  if (entry === null) return null;
  const next = { ...entry, ...patch };
  writeEntry(next);
  return next;
}

export function clearEntry(): void {
  removeItem('session', INSPECTION_ENTRY_KEY);
}

export function writeSubmissionResult(result: (SubmissionResult & { status: 'completed' }) | { status: 'queued'; localId: string }): void {
  // A queued result keeps the spec's fields, empty, so any reader of the old shape still finds them.
  const stored = result.status === 'queued' ? { ...result, recordId: null, fileName: null } : result;
  writeItem('session', SUBMISSION_RESULT_KEY, JSON.stringify(stored));
}
