import type { UploadMetadataInput, UploadResponse } from '../../../../common/schemas/inspection.js';
import type { OutboxRecord } from './outbox-record.js';
import type { OutboxStore } from './outbox-store.js';
import { BUSY, withRecordLock } from './record-lock.js';
import { UploadError, uploadInspection, UPLOAD_TIMEOUT_MS } from './upload-inspection.js';

export type Upload = (metadata: UploadMetadataInput, photo: Blob, timeoutMs?: number) => Promise<UploadResponse>;

/** What one try of one record came to, and so what happens to the record. */
export type SendOutcome =
  | { kind: 'sent'; response: UploadResponse }
  /** No answer, a timeout or server trouble: try again later. */
  | { kind: 'retry'; message: string }
  /** The server will not take it as it is (400, 413 ...): retrying would never end. */
  | { kind: 'refused'; message: string }
  /** The session ended: send after the technician signs in again. */
  | { kind: 'unauthorized'; message: string }
  /** The server holds the user until they choose a new password: send after that. */
  | { kind: 'password-change'; message: string }
  /** Another tab is sending it right now. */
  | { kind: 'busy' }
  /** It left the outbox meanwhile (sent by another tab, or deleted). */
  | { kind: 'gone' };

/*
 * The outbox's own reasons, kept with the record in English whatever the language shown: the
 * code compares them, and a reason stored today is read after a change of language.
 * outbox-error-text.ts shows them in the reader's language. {status} is the answer's status.
 */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Sign in again to send this record.';
export const PASSWORD_CHANGE_MESSAGE = 'Waiting for your new password. It is sent once you have chosen one.';
export const PHOTO_TOO_LARGE_MESSAGE = 'The photo is too large for the server (413).';
export const REFUSED_MESSAGE = 'The server refused the record ({status}).';
export const NOT_NOW_MESSAGE = 'The server could not take the record now ({status}).';
export const NO_ANSWER_MESSAGE = 'No answer from the server in time.';
export const NO_NETWORK_MESSAGE = 'No network connection.';

const withStatus = (message: string, status: number): string => message.replace('{status}', String(status));

// 408 and 429 say "not now", not "never".
const TRANSIENT_CLIENT_ERRORS = new Set([408, 429]);

export function classifyUploadError(error: unknown): Exclude<SendOutcome, { kind: 'sent' | 'busy' | 'gone' }> {
  if (error instanceof UploadError) {
    if (error.status === 401) return { kind: 'unauthorized', message: SESSION_ENDED_MESSAGE };
    // Not a refusal of the record: the same record goes once the user has a password of their own.
    if (error.status === 403 && error.code === 'PASSWORD_CHANGE_REQUIRED') return { kind: 'password-change', message: PASSWORD_CHANGE_MESSAGE };
    if (error.status === 413) return { kind: 'refused', message: error.serverMessage ?? PHOTO_TOO_LARGE_MESSAGE };
    if (error.status >= 400 && error.status < 500 && !TRANSIENT_CLIENT_ERRORS.has(error.status)) {
      return { kind: 'refused', message: error.serverMessage ?? withStatus(REFUSED_MESSAGE, error.status) };
    }
    return { kind: 'retry', message: error.serverMessage ?? withStatus(NOT_NOW_MESSAGE, error.status) };
  }
  if (error instanceof DOMException && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return { kind: 'retry', message: NO_ANSWER_MESSAGE };
  }
  if (error instanceof TypeError) return { kind: 'retry', message: NO_NETWORK_MESSAGE };
  return { kind: 'retry', message: error instanceof Error ? error.message : String(error) };
}

const BACKOFF_BASE_MS = 5_000;
const BACKOFF_FACTOR = 3;
export const BACKOFF_MAX_MS = 10 * 60_000;

/**
 * 5 s, 15 s, 45 s ... up to 10 minutes, each stretched or shrunk by up to a quarter so that
 * phones that lost the network together do not all come back in the same second.
 */
export function backoffDelay(attempts: number, random: () => number): number {
  const plain = Math.min(BACKOFF_BASE_MS * BACKOFF_FACTOR ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
  return Math.min(Math.round(plain * (0.75 + random() * 0.5)), BACKOFF_MAX_MS);
}

export interface SendDeps {
  store: OutboxStore;
  upload?: Upload;
  now?: () => number;
  random?: () => number;
  timeoutMs?: number;
}

/** Writes what the outcome means into the store. */
async function record(deps: Required<SendDeps>, current: OutboxRecord, outcome: SendOutcome): Promise<void> {
  const { store } = deps;
  const attempts = current.attempts + 1;
  switch (outcome.kind) {
    case 'sent':
      await store.delete(current.localId);
      return;
    case 'retry':
      await store.update(current.localId, {
        status: 'pending',
        attempts,
        lastError: outcome.message,
        nextAttemptAt: deps.now() + backoffDelay(attempts, deps.random),
      });
      return;
    case 'refused':
      await store.update(current.localId, { status: 'failed', attempts, lastError: outcome.message, nextAttemptAt: null });
      return;
    case 'unauthorized':
    case 'password-change':
      // Not an attempt against the record: the next sign-in (or the new password) sends it at once.
      await store.update(current.localId, { status: 'needs-sign-in', lastError: outcome.message, nextAttemptAt: null });
      return;
    default:
      return;
  }
}

function withDefaults(deps: SendDeps): Required<SendDeps> {
  return {
    store: deps.store,
    upload: deps.upload ?? uploadInspection,
    now: deps.now ?? Date.now,
    random: deps.random ?? Math.random,
    timeoutMs: deps.timeoutMs ?? UPLOAD_TIMEOUT_MS,
  };
}

/**
 * One try of one record, while holding its lock; the store holds the outcome afterwards.
 * `lockHeld`: the caller holds the lock already (Web Locks are not re-entrant).
 */
export async function sendRecord(deps: SendDeps, localId: string, { lockHeld = false }: { lockHeld?: boolean } = {}): Promise<SendOutcome> {
  const full = withDefaults(deps);
  const attempt = async (): Promise<SendOutcome> => {
    // Read again under the lock: another tab may have sent it since the list was read.
    const current = await full.store.get(localId);
    if (current === undefined) return { kind: 'gone' };
    await full.store.update(localId, { status: 'sending' });
    let result: SendOutcome;
    try {
      result = { kind: 'sent', response: await full.upload(current.metadata, current.photo, full.timeoutMs) };
    } catch (error) {
      result = classifyUploadError(error);
    }
    await record(full, current, result);
    return result;
  };
  if (lockHeld) return attempt();
  const outcome = await withRecordLock(localId, true, attempt);
  return outcome === BUSY ? { kind: 'busy' } : outcome;
}
