import type { UploadMetadataInput } from '../../../../common/schemas/inspection.js';
import { isOffline } from './drain.js';
import { newOutboxRecord } from './outbox-record.js';
import { outboxErrorText } from './outbox-error-text.js';
import { outboxStore } from './outbox-store.js';
import { withRecordLock } from './record-lock.js';
import { sha256Hex } from '../../lib/sha256.js';
import { classifyUploadError, sendRecord, type SendDeps, type Upload } from './send-record.js';
import { UploadError, uploadInspection } from './upload-inspection.js';

/** How Submit Record ended, which decides the next screen. */
export type SubmitOutcome =
  /** On the server (new or already stored): the outbox no longer holds it. */
  | { kind: 'sent'; recordId: string; fileName: string }
  /** Safe in the outbox; it goes when the network allows. */
  | { kind: 'queued'; localId: string }
  /** The server refused it; kept in the outbox as failed, with the server's message (in the reader's language when it is the outbox's own). */
  | { kind: 'refused'; localId: string | null; message: string }
  /** Safe in the outbox; it goes after the technician signs in again. */
  | { kind: 'needs-sign-in'; localId: string }
  /** Neither stored on the device nor sent: the screen keeps entry and photo for another try. */
  | { kind: 'not-sent'; serverMessage: string | null };

// A technician at a curve waits this long for an answer at most; after that the record is
// simply queued and the outbox keeps trying in the background.
export const SUBMIT_WAIT_MS = 45_000;

let persistenceAsked = false;

/** Asks once per page load that the browser never evicts the outbox under storage pressure. */
export function requestPersistentStorage(): void {
  if (persistenceAsked) return;
  persistenceAsked = true;
  try {
    void navigator.storage?.persist?.().catch(() => undefined);
  } catch {
    // Not offered by this browser: records are still kept, only without the guarantee.
  }
}

export interface SubmitInput {
  metadata: UploadMetadataInput;
  photo: Blob;
  ownerEmployeeId: string;
}

/**
 * Submit Record: the record and its photo go into the outbox first, then one try is made at
 * once. Whatever happens to that try, the record is not lost: it is on the server or in the
 * outbox. Only if the device cannot store it at all is it sent directly, as before.
 */
export async function submitRecord(input: SubmitInput, deps: Partial<SendDeps> & { upload?: Upload } = {}): Promise<SubmitOutcome> {
  const store = deps.store ?? outboxStore();
  const now = deps.now ?? Date.now;
  const upload = deps.upload ?? uploadInspection;
  // Hashed once, when the photo is kept: the server checks what it receives against this, so
  // damage anywhere between here and its disk (the outbox, the network) is caught.
  const photoSha256 = await sha256Hex(input.photo);
  const record = newOutboxRecord({ ...input, metadata: photoSha256 ? { ...input.metadata, photoSha256 } : input.metadata, now: now() });

  // Held from the write to the end of the try, so the background drain never sends it at the same time.
  return withRecordLock(record.localId, false, async (): Promise<SubmitOutcome> => {
    try {
      await store.put(record);
    } catch {
      return sendDirectly({ ...input, metadata: record.metadata }, upload, deps.timeoutMs ?? SUBMIT_WAIT_MS);
    }
    requestPersistentStorage();
    if (isOffline()) return { kind: 'queued', localId: record.localId };
    // The lock is already ours: send without asking for it again.
    const outcome = await sendRecord({ ...deps, store, upload, timeoutMs: deps.timeoutMs ?? SUBMIT_WAIT_MS }, record.localId, { lockHeld: true });
    switch (outcome.kind) {
      case 'sent':
        return { kind: 'sent', recordId: outcome.response.recordId, fileName: outcome.response.fileName };
      case 'refused':
        return { kind: 'refused', localId: record.localId, message: outboxErrorText(outcome.message) };
      case 'unauthorized':
        return { kind: 'needs-sign-in', localId: record.localId };
      default:
        return { kind: 'queued', localId: record.localId };
    }
  }).then((outcome) => (typeof outcome === 'symbol' ? { kind: 'queued', localId: record.localId } : outcome));
}

async function sendDirectly(input: SubmitInput, upload: Upload, timeoutMs: number): Promise<SubmitOutcome> {
  try {
    const response = await upload(input.metadata, input.photo, timeoutMs);
    return { kind: 'sent', recordId: response.recordId, fileName: response.fileName };
  } catch (error) {
    const outcome = classifyUploadError(error);
    if (outcome.kind === 'refused') return { kind: 'refused', localId: null, message: outboxErrorText(outcome.message) };
    return { kind: 'not-sent', serverMessage: error instanceof UploadError ? error.serverMessage : null };
  }
}
