/**
 * A phone's outbox, for the real-process crash tests: distinct photos, each with its own
 * clientSubmissionId and valid metadata; one try of an upload; and the retry of a submission
 * until it is answered, as the outbox does after a reconnect.
 */
import { randomUUID } from 'node:crypto';
import { dateInTimeZone } from '../../common/rules/dates.js';
import { type UploadResponse, uploadResponseSchema } from '../../common/schemas/inspection.js';
import { makeDistinctPhotos, serviceVisitMetadata, sha256, uploadForm } from './photos.js';
import type { ServerProcess } from './server-process.js';

/** An outbox gives up on a try after a while and tries again; this bounds a run that went wrong. */
const RETRY_ATTEMPTS = 5;

export interface Submission {
  clientSubmissionId: string;
  metadata: Record<string, unknown>;
  photo: Buffer;
  hash: string;
}

/** The metadata the phone sends (as upload.test.ts): mostly Service visits, every fifth a CoF reading. */
function metadataOf(n: number, clientSubmissionId: string, date: string, technicianId: string): Record<string, unknown> {
  if (n % 5 === 4) {
    return {
      date,
      type: 'CoF',
      divisionRailway: 'FZR/NR',
      section: 'FZR-JUC',
      curveNumber: String(100 + n),
      line: 'Single',
      cofValue: '0.28',
      location: 'Far End',
      km: '412/6',
      pole1: '12',
      pole2: '14',
      technicianId,
      clientSubmissionId,
    };
  }
  return serviceVisitMetadata({
    date,
    curveNumber: String(n),
    technicianId,
    technicianName: 'Boot Admin',
    clientSubmissionId,
    latitude: 23.3315,
    longitude: 75.0367,
    accuracy: 8,
  });
}

export async function makeSubmissions(count: number, options: { technicianId: string; width: number; height: number; seed?: number }): Promise<Submission[]> {
  const photos = await makeDistinctPhotos(count, options.width, options.height, options.seed ?? 11);
  // A visit of two days ago: never "in the future", whatever the hour.
  const date = dateInTimeZone(new Date(Date.now() - 2 * 86_400_000), 'Asia/Kolkata');
  return photos.map((photo, n) => {
    const clientSubmissionId = randomUUID();
    return { clientSubmissionId, metadata: metadataOf(n, clientSubmissionId, date, options.technicianId), photo, hash: sha256(photo) };
  });
}


export type Attempt =
  | { kind: 'answered'; status: number; body: string; answer: UploadResponse | undefined }
  | { kind: 'failed'; error: string };

export const acknowledged = (attempt: Attempt): attempt is Attempt & { kind: 'answered'; answer: UploadResponse } =>
  attempt.kind === 'answered' && attempt.answer !== undefined;

/** What went wrong with a request: the connection's error code when there is one. */
function errorText(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? String(error);
}

/** One try of an upload; a connection closed before the whole answer was read is a failure. */
export async function send(server: ServerProcess, cookie: string, submission: Submission): Promise<Attempt> {
  try {
    const response = await fetch(`${server.base}/api/inspections/upload`, {
      method: 'POST',
      headers: { cookie },
      body: uploadForm(submission.metadata, submission.photo),
    });
    const body = await response.text();
    const ok = response.status === 200 || response.status === 201;
    return { kind: 'answered', status: response.status, body, answer: ok ? uploadResponseSchema.parse(JSON.parse(body)) : undefined };
  } catch (error) {
    return { kind: 'failed', error: errorText(error) };
  }
}

/** The outbox: the same submission again until it is answered 200 or 201 (a 4xx is a bug here). */
export async function resend(server: ServerProcess, cookie: string, submission: Submission): Promise<Attempt & { kind: 'answered'; answer: UploadResponse }> {
  const tries: Attempt[] = [];
  for (let attempt = 0; attempt < RETRY_ATTEMPTS; attempt++) {
    const result = await send(server, cookie, submission);
    if (acknowledged(result)) return result;
    tries.push(result);
    if (result.kind === 'answered' && result.status < 500) break;
    // An outbox backs off before the next try (not needed for correctness: the server is up).
    await new Promise((resolve) => setTimeout(resolve, 250 * (attempt + 1)));
  }
  throw new Error(`the retry of ${submission.clientSubmissionId} was never accepted: ${JSON.stringify(tries)}\n${server.output()}`);
}
