import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string | null;
  credentials: RequestCredentials | undefined;
}

export type Handler = (request: RecordedRequest) => Response | Promise<Response>;

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * Replaces fetch with per-path handlers ("METHOD /path", query string ignored); unknown
 * requests answer 404 like the real API. Returns every request the app made.
 */
export function stubFetch(routes: Record<string, Handler>): RecordedRequest[] {
  const requests: RecordedRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const request: RecordedRequest = {
        method: init?.method ?? 'GET',
        url,
        headers: new Headers(init?.headers),
        body: typeof init?.body === 'string' ? init.body : null,
        credentials: init?.credentials,
      };
      requests.push(request);
      const handler = routes[`${request.method} ${url.split('?')[0]}`];
      if (handler) return handler(request);
      return jsonResponse(404, { code: 'ROUTE_NOT_FOUND', message: 'No such API route' });
    }),
  );
  return requests;
}

/** A promise the test resolves when it chooses, to observe a request while it is pending. */
export function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
