/**
 * HTTP load with autocannon: an unmeasured warm-up, then a measured run. Latencies from every successful response
 * (sub-millisecond), not autocannon's whole-millisecond histogram.
 */
import autocannon from 'autocannon';
import { countNon2xx, round, summarizeLatencies } from './stats.js';
import type { ScenarioContext, ScenarioResult } from './types.js';

export interface LoadOptions {
  path: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  json?: unknown;
  connections: number;
  unit?: string;
  timeoutSeconds?: number;
  nextBody?: () => Buffer;
  nextPath?: () => string;
  expectStatus?: number;
  beforeMeasured?: () => Promise<void> | void;
}

const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };

/** Each request the next of these paths, round and round: no one cached answer or plan serves them all. */
export function inTurn(paths: readonly string[]): { path: string; nextPath: () => string } {
  let turn = 0;
  return { path: paths[0] ?? '', nextPath: () => paths[turn++ % paths.length] ?? '' };
}

/** The records view's list: the first 20 pages of 50, newest first. */
export const RECORDS_LIST_PATHS = Array.from({ length: 20 }, (_, page) => `/api/inspections?limit=50&offset=${page * 50}`);

function phase(ctx: ScenarioContext, options: LoadOptions, durationSeconds: number) {
  const { nextBody, nextPath, expectStatus, json } = options;
  const isSuccess = (status: number) => (expectStatus === undefined ? status >= 200 && status < 300 : status === expectStatus);
  const seen = {
    seconds: 0,
    transportErrors: 0,
    latencies: [] as number[],
    statusCodes: {} as Record<string, number>,
    responses: 0,
    unexpected: 0,
    firstUnexpected: null as { status: number; body: string } | null,
    errorMessages: new Map<string, number>(),
  };
  const request: autocannon.Request = {
    onResponse(status, body) {
      if (seen.firstUnexpected === null && !isSuccess(status)) seen.firstUnexpected = { status, body: body.slice(0, 500) };
    },
  };
  // autocannon rebuilds a request before every send only when it has a setupRequest.
  if (nextBody || nextPath) request.setupRequest = (built) => ({ ...built, ...(nextBody ? { body: nextBody() } : {}), ...(nextPath ? { path: nextPath() } : {}) });
  const settings: autocannon.Options = {
    url: `${ctx.baseUrl}${options.path}`,
    method: options.method ?? 'GET',
    headers: { ...BROWSER_HEADERS, ...options.headers, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
    connections: options.connections,
    duration: durationSeconds,
    timeout: options.timeoutSeconds ?? 10,
    requests: [request],
  };
  return new Promise<typeof seen>((resolve, reject) => {
    const instance = autocannon(settings, (error, result) => {
      if (error) return reject(error instanceof Error ? error : new Error(String(error)));
      resolve({ ...seen, seconds: result.duration, transportErrors: result.errors });
    });
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      seen.responses += 1;
      seen.statusCodes[statusCode] = (seen.statusCodes[statusCode] ?? 0) + 1;
      if (isSuccess(statusCode)) seen.latencies.push(responseTimeMs);
      else seen.unexpected += 1;
    });
    instance.on('reqError', (error: Error) => seen.errorMessages.set(error.message, (seen.errorMessages.get(error.message) ?? 0) + 1));
  });
}

export async function runLoad(ctx: ScenarioContext, options: LoadOptions): Promise<ScenarioResult> {
  const notes: string[] = [];
  if (ctx.warmupSeconds > 0) {
    const warm = await phase(ctx, options, ctx.warmupSeconds);
    const bad = warm.transportErrors + warm.unexpected;
    const first = warm.firstUnexpected ? `; the first: HTTP ${warm.firstUnexpected.status} ${warm.firstUnexpected.body}` : '';
    if (bad > 0) notes.push(`warm-up: ${bad} of ${warm.responses + warm.transportErrors} requests failed${first}`);
  }
  await options.beforeMeasured?.();
  const measured = await phase(ctx, options, ctx.durationSeconds);
  const non2xx = countNon2xx(measured.statusCodes);
  // With expectStatus, another 2xx (e.g. 200 for a replayed upload) is a failure too.
  const other2xx = measured.unexpected - non2xx;
  if (other2xx > 0) {
    const codes = Object.entries(measured.statusCodes).filter(([code]) => code.startsWith('2') && code !== String(options.expectStatus));
    notes.push(`expected HTTP ${String(options.expectStatus)} only, got ${codes.map(([code, count]) => `${count} x HTTP ${code}`).join(', ')} (counted as errors)`);
  }
  if (measured.firstUnexpected) notes.push(`first unexpected response: HTTP ${measured.firstUnexpected.status} ${measured.firstUnexpected.body}`);
  for (const [message, count] of measured.errorMessages) notes.push(`${count} x ${message}`);
  const durationSeconds = measured.seconds > 0 ? measured.seconds : ctx.durationSeconds;
  // With expectStatus, throughput counts successes only: failing fast must not look fast.
  const counted = options.expectStatus === undefined ? measured.responses : measured.responses - measured.unexpected;
  return {
    unit: options.unit ?? 'req/s',
    connections: options.connections,
    durationSeconds: round(durationSeconds),
    requests: measured.responses,
    throughput: round(counted / durationSeconds, 1),
    latencyMs: summarizeLatencies(measured.latencies),
    non2xx,
    errors: measured.transportErrors + other2xx,
    statusCodes: measured.statusCodes,
    notes,
  };
}
