import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '../test/fetch-stub.js';
import { storeUser, technician } from '../test/users.js';
import { ApiError, apiErrorMessage, apiRequest, errorBodyOf, getQueryFn, setUnauthorizedHandler } from './api-client.js';
import { createQueryClient } from './query-client.js';

describe('apiRequest', () => {
  it('throws "<status>: <body>" for a non-OK answer', async () => {
    stubFetch({ 'GET /api/auth/me': () => new Response('{"code":"NOT_AUTHENTICATED"}', { status: 401 }) });
    await expect(apiRequest('GET', '/api/auth/me')).rejects.toThrow('401: {"code":"NOT_AUTHENTICATED"}');
  });

  it('falls back to the status text when the body is empty', async () => {
    stubFetch({ 'GET /api/x': () => new Response('', { status: 500, statusText: 'Internal Server Error' }) });
    const error = await apiRequest('GET', '/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toHaveProperty('message', '500: Internal Server Error');
    expect(error).toHaveProperty('status', 500);
  });

  it('sends credentials, and a JSON body with its content type only when data is given', async () => {
    const requests = stubFetch({
      'POST /api/a': () => jsonResponse(200, {}),
      'POST /api/b': () => jsonResponse(200, {}),
    });
    await apiRequest('POST', '/api/a', { employeeId: 'E1' });
    await apiRequest('POST', '/api/b');

    expect(requests[0]?.credentials).toBe('include');
    expect(requests[0]?.headers.get('content-type')).toBe('application/json');
    expect(requests[0]?.body).toBe('{"employeeId":"E1"}');
    expect(requests[1]?.credentials).toBe('include');
    expect(requests[1]?.headers.has('content-type')).toBe(false);
    expect(requests[1]?.body).toBeNull();
  });

  it('sends X-User-Data with the stored user only when one is stored', async () => {
    const requests = stubFetch({ 'GET /api/x': () => jsonResponse(200, {}) });
    await apiRequest('GET', '/api/x');
    storeUser(technician);
    await apiRequest('GET', '/api/x');

    expect(requests[0]?.headers.has('x-user-data')).toBe(false);
    expect(JSON.parse(requests[1]?.headers.get('x-user-data') ?? 'null')).toEqual(technician);
  });

  it('keeps X-User-Data a valid header for names outside Latin-1', async () => {
    const requests = stubFetch({ 'GET /api/x': () => jsonResponse(200, {}) });
    storeUser({ ...technician, name: 'रवि कुमार' });
    await apiRequest('GET', '/api/x');

    const header = requests[0]?.headers.get('x-user-data') ?? '';
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(header)).toHaveProperty('name', 'रवि कुमार');
  });

  it('reports a 401 to the unauthorized handler, but not a failed login', async () => {
    stubFetch({
      'GET /api/inspections': () => jsonResponse(401, { code: 'SESSION_EXPIRED', message: 'expired' }),
      'POST /api/auth/login': () => jsonResponse(401, { code: 'INVALID_CREDENTIALS', message: 'bad' }),
    });
    const handler = vi.fn();
    const remove = setUnauthorizedHandler(handler);
    await apiRequest('POST', '/api/auth/login', { employeeId: 'x', password: 'y' }).catch(() => undefined);
    expect(handler).not.toHaveBeenCalled();
    await apiRequest('GET', '/api/inspections').catch(() => undefined);
    expect(handler).toHaveBeenCalledTimes(1);
    remove();
  });
});

describe('reads through the query client', () => {
  it('GETs the first query key element with credentials and parses the JSON', async () => {
    const requests = stubFetch({ 'GET /api/stations': () => jsonResponse(200, { stations: [] }) });
    storeUser(technician);
    const data = await createQueryClient().fetchQuery({ queryKey: ['/api/stations?section=RTM', 'RTM'] });

    expect(data).toEqual({ stations: [] });
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/api/stations?section=RTM', credentials: 'include' });
    expect(requests[0]?.headers.has('x-user-data')).toBe(true);
  });

  it('throws on 401 by default and yields null with on401: returnNull', async () => {
    stubFetch({ 'GET /api/auth/me': () => new Response('nope', { status: 401 }) });
    const client = createQueryClient();
    await expect(client.fetchQuery({ queryKey: ['/api/auth/me'] })).rejects.toThrow('401: nope');
    const data = await client.fetchQuery({ queryKey: ['/api/auth/me', 'x'], queryFn: getQueryFn({ on401: 'returnNull' }) });
    expect(data).toBeNull();
  });

  it('uses the spec defaults: no retry, no focus refetch, no polling, never stale', () => {
    expect(createQueryClient().getDefaultOptions().queries).toMatchObject({
      retry: false,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      staleTime: Infinity,
    });
  });

  it('does not retry a failed read', async () => {
    let calls = 0;
    stubFetch({
      'GET /api/x': () => {
        calls += 1;
        return new Response('down', { status: 503 });
      },
    });
    // An observer is what useQuery uses; TanStack's own default there would retry 3 times.
    const observer = new QueryObserver(createQueryClient(), { queryKey: ['/api/x'] });
    const result = await new Promise<string>((resolve) => {
      const unsubscribe = observer.subscribe((r) => {
        if (r.status !== 'pending' || r.failureCount > 0) {
          unsubscribe();
          resolve(r.status);
        }
      });
    });
    expect(result).toBe('error');
    expect(calls).toBe(1);
  });
});

describe('apiErrorMessage', () => {
  it("returns the server's message from a JSON error body", () => {
    const error = new ApiError(429, 'Too Many Requests', '{"code":"TOO_MANY_LOGIN_ATTEMPTS","message":"Wait a bit"}');
    expect(apiErrorMessage(error, 'fallback')).toBe('Wait a bit');
  });

  it('returns the fallback for non-JSON bodies and other errors', () => {
    expect(apiErrorMessage(new ApiError(502, 'Bad Gateway', '<html>'), 'fallback')).toBe('fallback');
    expect(apiErrorMessage(new TypeError('Failed to fetch'), 'fallback')).toBe('fallback');
  });
});

describe('errorBodyOf', () => {
  it('reads the fields and row errors of our error body', () => {
    const body = { code: 'IMPORT_ROWS_INVALID', message: 'Some rows are not valid', fields: { no: 'No. is required' }, rowErrors: [{ row: 4, column: 'No.', message: 'No. is required' }] };
    expect(errorBodyOf(JSON.stringify(body))).toEqual(body);
  });

  it('reads nothing from a body that is not ours', () => {
    for (const text of ['', '<html>', 'null', '{"message":"no code"}', '{"code":"X","message":"m","fields":{"no":3}}']) expect(errorBodyOf(text)).toBeNull();
  });
});
