import type { UploadMetadataInput } from '../../../../common/schemas/inspection.js';

/**
 * pending: waits for its next try. sending: a try is in flight (or was, when the app closed
 * mid-send: then it counts as pending again). failed: the server refused it (400, 413 ...);
 * it is not retried on its own. needs-sign-in: the session ended; it goes after a sign-in.
 */
export type OutboxStatus = 'pending' | 'sending' | 'failed' | 'needs-sign-in';

/** What the outbox list shows without reading the metadata's optional fields. */
export interface OutboxSummary {
  type: UploadMetadataInput['type'];
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
  date: string;
}

/** One submitted inspection that has not reached the server yet, with its photo. */
export interface OutboxRecord {
  /** Shown to the technician ('LOCAL-…') until the server gives the record its ID. */
  localId: string;
  /** Sent on every try: the server stores one record per id, so a retry never makes two. */
  clientSubmissionId: string;
  /** The employee who made it: only their own session may send it. */
  ownerEmployeeId: string;
  /** Built and checked at submit time, technician and position included. */
  metadata: UploadMetadataInput;
  /** The final JPEG, overlay burned in. */
  photo: Blob;
  summary: OutboxSummary;
  /** Epoch ms; the outbox sends the oldest first. */
  createdAt: number;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  /** Epoch ms before which the automatic retry leaves it alone (backoff); null: at once. */
  nextAttemptAt: number | null;
}

export type OutboxPatch = Partial<Omit<OutboxRecord, 'localId' | 'clientSubmissionId' | 'ownerEmployeeId'>>;

/**
 * Derived from the clientSubmissionId, so submitting the same entry again (after the server
 * refused it) replaces its outbox record instead of adding a second one.
 */
export function localIdFor(clientSubmissionId: string): string {
  return `LOCAL-${clientSubmissionId.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
}

export function newOutboxRecord({
  metadata,
  photo,
  ownerEmployeeId,
  now,
}: {
  metadata: UploadMetadataInput;
  photo: Blob;
  ownerEmployeeId: string;
  now: number;
}): OutboxRecord {
  return {
    localId: localIdFor(metadata.clientSubmissionId),
    clientSubmissionId: metadata.clientSubmissionId,
    ownerEmployeeId,
    metadata,
    photo,
    summary: {
      type: metadata.type,
      divisionRailway: metadata.divisionRailway,
      section: metadata.section,
      curveNumber: metadata.curveNumber,
      line: metadata.line,
      date: metadata.date,
    },
    createdAt: now,
    status: 'pending',
    attempts: 0,
    lastError: null,
    nextAttemptAt: null,
  };
}

/** Oldest first: the order records were made in is the order they reach the server. */
export function byAge(a: OutboxRecord, b: OutboxRecord): number {
  return a.createdAt - b.createdAt || a.localId.localeCompare(b.localId);
}
