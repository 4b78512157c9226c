import { type UploadMetadataInput, type UploadResponse, uploadResponseSchema } from '../../../../common/schemas/inspection.js';
import { errorBodyOf } from '../../lib/api-client.js';
import { userDataHeaders } from '../../lib/request-headers.js';

export const UPLOAD_URL = '/api/inspections/upload';
export const UPLOAD_FILE_NAME = 'inspection_image.jpg';

// Long enough for a 2 MB photo over a weak 2G link (the outbox's background sends); Submit
// Record waits less (submit-record.ts). A retry is safe: the same clientSubmissionId never
// makes two records.
export const UPLOAD_TIMEOUT_MS = 120_000;

// For developers (the outbox shows its own reasons, send-record.ts): never translated.
const UPLOAD_FAILED = 'Upload failed';

/** A non-OK or unreadable answer to the upload. */
export class UploadError extends Error {
  readonly status: number;
  /** The readable message of our server's error body, when it sent one. */
  readonly serverMessage: string | null;
  /** The catalogue code of our server's error body (common/errors.ts), when it sent one. */
  readonly code: string | null;

  constructor(status: number, serverMessage: string | null, code: string | null = null) {
    super(`${UPLOAD_FAILED} (${status})`);
    this.name = 'UploadError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.code = code;
  }
}

function parseJson(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return null;
  }
}

/** "{message}: {field problems}" from a {code, message, fields} body, or null for anything else (e.g. a proxy's HTML page). */
export function serverMessageOf(bodyText: string): string | null {
  const body = errorBodyOf(bodyText);
  if (body === null || body.message.trim() === '') return null;
  const fieldMessages = Object.values(body.fields ?? {});
  return fieldMessages.length > 0 ? `${body.message}: ${fieldMessages.join('; ')}` : body.message;
}

/** The `code` of a {code, message} error body, or null for anything else. */
export const serverCodeOf = (bodyText: string): string | null => errorBodyOf(bodyText)?.code ?? null;

/**
 * Sends the photo and its record in one multipart request; the server stores both or
 * neither. `metadata` comes first so the server can reject a bad record before it reads
 * the photo. 201 is a new record, 200 the one already stored for this clientSubmissionId:
 * both are a success here.
 */
export async function uploadInspection(metadata: UploadMetadataInput, photo: Blob, timeoutMs: number = UPLOAD_TIMEOUT_MS): Promise<UploadResponse> {
  const form = new FormData();
  form.append('metadata', JSON.stringify(metadata));
  form.append('file', new File([photo], UPLOAD_FILE_NAME, { type: 'image/jpeg' }));

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let status = 0;
  let bodyText = '';
  try {
    // No Content-Type: the browser writes the multipart boundary itself.
    const res = await fetch(UPLOAD_URL, {
      method: 'POST',
      body: form,
      headers: userDataHeaders(),
      credentials: 'include',
      signal: controller.signal,
    });
    status = res.status;
    bodyText = await res.text();
    if (!res.ok) throw new UploadError(status, serverMessageOf(bodyText), serverCodeOf(bodyText));
    const parsed = uploadResponseSchema.safeParse(parseJson(bodyText));
    if (!parsed.success) throw new UploadError(status, null);
    return parsed.data;
  } catch (error) {
    // Diagnostics for support: the spec's log line (section 8), with "network" when no answer came.
    console.error(`Upload failed (${status === 0 ? 'network' : status}): ${bodyText || String(error)}`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
