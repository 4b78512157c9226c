/**
 * HTTP load with autocannon: an unmeasured warm-up, then a measured run (`runLoad`), or a load measured over the window an
 * operation takes (`duringLoad`). Latencies from every successful response (sub-millisecond), not autocannon's whole-millisecond
 * histogram; a window's from each request's sending (with a fixed rate, without autocannon's coordinated-omission correction).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { cpuMark, type CpuMark } from './records.js';
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
  overallRate?: number;
  nextBody?: () => Buffer;
  nextPath?: () => string;
  nextRequest?: () => { path: string; headers: Record<string, string> };
  expectStatus?: number;
  beforeMeasured?: () => Promise<void> | void;
}

const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };
const MAX_WINDOW_SECONDS = 1800; // longer than any window; the load is stopped when the window ends

/** Each request the next of these paths, round and round: no one cached answer or plan serves them all. */
export function inTurn(paths: readonly string[]): { path: string; nextPath: () => string } {
  let turn = 0;
  return { path: paths[0] ?? '', nextPath: () => paths[turn++ % paths.length] ?? '' };
}

/** The records view's list: the first 20 pages of 50, newest first. */
export const RECORDS_LIST_PATHS = Array.from({ length: 20 }, (_, page) => `/api/inspections?limit=50&offset=${page * 50}`);

export function recordsListLoad(cookie: string, connections: number, overallRate = 0): LoadOptions {
  return { ...inTurn(RECORDS_LIST_PATHS), headers: { cookie }, connections, overallRate };
}

/**
 * One autocannon run; a response counts when `counting(sentAt)` says so for the time its request
 * was sent (a window's: sent after the window opened and answered before it closed).
 */
function startLoad(ctx: ScenarioContext, options: LoadOptions, durationSeconds: number, counting: (sentAt: number) => boolean = () => true) {
  const { nextBody, nextPath, nextRequest, expectStatus, json } = options;
  const isSuccess = (status: number) => (expectStatus === undefined ? status >= 200 && status < 300 : status === expectStatus);
  const seen = {
    transportErrors: 0,
    latencies: [] as number[],
    answered: [] as Array<{ sentAt: number; ms: number }>,
    statusCodes: {} as Record<string, number>,
    responses: 0,
    unexpected: 0,
    firstUnexpected: null as { status: number; body: string } | null,
    errorMessages: new Map<string, number>(),
  };
  const request: autocannon.Request = {
    onResponse(status, body) {
      if (counting(performance.now()) && seen.firstUnexpected === null && !isSuccess(status)) seen.firstUnexpected = { status, body: body.slice(0, 500) };
    },
  };
  // autocannon rebuilds a request before every send only when it has a setupRequest.
  if (nextBody || nextPath || nextRequest) {
    request.setupRequest = (built) => {
      const next = nextRequest?.() ?? (nextPath ? { path: nextPath(), headers: {} } : null);
      return { ...built, ...(nextBody ? { body: nextBody() } : {}), ...(next ? { path: next.path, headers: { ...built.headers, ...next.headers } } : {}) };
    };
  }
  const settings: autocannon.Options = {
    url: `${ctx.baseUrl}${options.path}`,
    method: options.method ?? 'GET',
    headers: { ...BROWSER_HEADERS, ...options.headers, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
    connections: options.connections,
    duration: durationSeconds,
    timeout: options.timeoutSeconds ?? 10,
    requests: [request],
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  };
  let instance: autocannon.Instance | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(settings, (error, result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(result)));
  });
  instance?.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    const sentAt = performance.now() - responseTimeMs;
    if (!counting(sentAt)) return;
    seen.responses += 1;
    seen.statusCodes[statusCode] = (seen.statusCodes[statusCode] ?? 0) + 1;
    seen.answered.push({ sentAt, ms: responseTimeMs });
    if (isSuccess(statusCode)) seen.latencies.push(responseTimeMs);
    else seen.unexpected += 1;
  });
  instance?.on('reqError', (error: Error) => {
    if (!counting(performance.now())) return;
    seen.transportErrors += 1;
    seen.errorMessages.set(error.message, (seen.errorMessages.get(error.message) ?? 0) + 1);
  });
  return { seen, done, stop: () => instance?.stop() };
}

async function phase(ctx: ScenarioContext, options: LoadOptions, durationSeconds: number) {
  const { seen, done } = startLoad(ctx, options, durationSeconds);
  const result = await done;
  return { ...seen, seconds: result.duration, transportErrors: result.errors };
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

export type WindowFigures = Awaited<ReturnType<typeof duringLoad>>['load'];

export async function duringLoad<T>(ctx: ScenarioContext, options: LoadOptions, operation: () => Promise<T>) {
  let measuring = false;
  let started = Infinity;
  // Only requests sent inside the window: the first burst of every connection at once, sent in
  // the warm-up, is answered slowly whatever runs (4 s with no backup at 100k records on PGlite),
  // and answered in the window it was the window's slowest, not what the operation did.
  const { seen, done, stop } = startLoad(ctx, options, MAX_WINDOW_SECONDS, (sentAt) => measuring && sentAt >= started);
  await sleep(Math.max(500, ctx.warmupSeconds * 1000)); // at least 0.5 s: every connection busy before the window opens
  measuring = true;
  started = performance.now();
  let value: T;
  let cpu: { start: CpuMark; end: CpuMark };
  try {
    const start = await cpuMark(ctx);
    value = await operation();
    cpu = { start, end: await cpuMark(ctx) };
  } finally {
    measuring = false;
    stop();
  }
  const seconds = (performance.now() - started) / 1000;
  await done;
  const slowest = seen.answered.sort((a, b) => b.ms - a.ms).slice(0, 5);
  return {
    value,
    load: {
      seconds: round(seconds),
      requests: seen.responses,
      throughput: round(seconds > 0 ? seen.responses / seconds : 0, 1),
      latencyMs: summarizeLatencies(seen.latencies),
      statusCodes: seen.statusCodes,
      non2xx: countNon2xx(seen.statusCodes),
      errors: seen.transportErrors,
      firstUnexpected: seen.firstUnexpected,
      slowest: slowest.map((r) => ({ sentAtSeconds: (r.sentAt - started) / 1000, ms: r.ms })),
      cpu,
    },
  };
}

export function windowProblem(label: string, load: WindowFigures): string | null {
  if (load.errors + load.non2xx === 0) return null;
  const first = load.firstUnexpected ? ` (first: HTTP ${load.firstUnexpected.status} ${load.firstUnexpected.body})` : '';
  return `${label}: ${load.errors} errors, ${load.non2xx} non-2xx${first}`;
}
