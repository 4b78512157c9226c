import type { QueryFunction } from '@tanstack/react-query';
import { type ErrorAnswer, errorBodySchema } from '../../../common/schemas/error-body.js';
import { userDataHeaderValue } from './stored-user.js';
import { errorAnswerText } from './problem-text-registry.js';

/**
 * Any non-OK answer. The message format `${status}: ${body or statusText}` is the spec's
 * contract (section 8); status and body are kept so callers need not parse the message.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly bodyText: string;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.bodyText = bodyText;
  }
}

type UnauthorizedHandler = () => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/**
 * The one place a 401 from any call goes (the session provider clears the user there).
 * Returns a function that removes the handler again.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

// A 401 from the login call means wrong credentials, not an ended session.
const LOGIN_PATH = '/api/auth/login';

function notifyUnauthorized(url: string): void {
  if (url.split('?')[0] === LOGIN_PATH) return;
  unauthorizedHandler?.();
}

/**
 * For calls that do not go through this client (the multipart upload): a 401 there means the
 * same ended session. The handler forgets the user; it never touches the outbox.
 */
export function reportUnauthorized(): void {
  unauthorizedHandler?.();
}

function headersFor(hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  if (hasBody) headers['Content-Type'] = 'application/json';
  // Sent because the spec's clients send it; the server never trusts it.
  const userData = userDataHeaderValue();
  if (userData !== null) headers['X-User-Data'] = userData;
  return headers;
}

async function throwIfNotOk(res: Response, url: string): Promise<void> {
  if (res.ok) return;
  if (res.status === 401) notifyUnauthorized(url);
  const bodyText = await res.text().catch(() => '');
  throw new ApiError(res.status, res.statusText, bodyText);
}

/** Writes (and one-off reads): JSON content type and body only when data is given. */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const hasBody = data !== undefined;
  const res = await fetch(url, {
    method,
    headers: headersFor(hasBody),
    body: hasBody ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  await throwIfNotOk(res, url);
  return res;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * Reads: GET the first element of the query key (the spec's rule); further key elements only
 * tell cache entries apart. The JSON comes back as unknown: callers parse it with the
 * shared Zod schema (for instance in `select`).
 */
export function getQueryFn({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<unknown> {
  return async ({ queryKey, signal }) => {
    const url = queryKey[0];
    if (typeof url !== 'string') throw new Error('The first query key element must be the URL to GET');
    const res = await fetch(url, { headers: headersFor(false), credentials: 'include', signal });
    if (on401 === 'returnNull' && res.status === 401) {
      notifyUnauthorized(url);
      return null;
    }
    await throwIfNotOk(res, url);
    const body: unknown = await res.json();
    return body;
  };
}

/** fetch rejects with a TypeError when the network or the server cannot be reached. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

export function errorStatus(error: unknown): number | null {
  return error instanceof ApiError ? error.status : null;
}

/** Our server's error body ({code, message, fields?, rowErrors?}), or null for anything else (a proxy's HTML page, no body). */
export function errorBodyOf(bodyText: string): ErrorAnswer | null {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(bodyText));
    return parsed.success ? parsed.data : null;
  } catch {
    // Not JSON: no body of ours.
    return null;
  }
}

/**
 * The readable `message` of our server's JSON error body ({code, message, fields?}), or the
 * fallback when the error is not such an answer (network failure, proxy HTML page ...), in the
 * reader's language (problem-text-registry.ts).
 */
export function apiErrorMessage(error: unknown, fallback: string): string {
  // Anything else falls back rather than show raw HTML or stack text to a technician.
  const body = error instanceof ApiError ? errorBodyOf(error.bodyText) : null;
  return body !== null && body.message.trim() !== '' ? errorAnswerText(body.code, body.message) : fallback;
}
