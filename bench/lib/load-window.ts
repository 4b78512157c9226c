/**
 * An autocannon load measured over a window that something else decides: it runs while an
 * operation (a report being made) runs, after an unmeasured warm-up, and the figures cover
 * only the responses that arrived between the operation's start and its end. The same load
 * over a plain wait gives the figures without the operation, for the comparison. Latencies are
 * taken from every response, successes only, as bench/lib/load.ts takes them (with a fixed rate:
 * from each request's sending, not from when it was due, i.e. without autocannon's correction
 * for coordinated omission).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { countNon2xx, round, summarizeLatencies } from './stats.js';
import type { LatencySummary, ScenarioContext } from './types.js';

export interface WindowLoadOptions {
  /** Path and query of the first request (and the one named). */
  path: string;
  /** A new path for every request, e.g. to walk through pages. */
  nextPath?: () => string;
  headers?: Record<string, string>;
  connections: number;
  /** Requests per second from all connections together; 0 or unset: each sends as soon as it is answered. */
  overallRate?: number;
  timeoutSeconds?: number;
}

export interface WindowFigures {
  seconds: number;
  /** Responses in the window, whatever their status. */
  requests: number;
  /** Responses per second in the window. */
  throughput: number;
  /** Of the 2xx responses in the window, ms. */
  latencyMs: LatencySummary;
  statusCodes: Record<string, number>;
  non2xx: number;
  /** Transport errors and timeouts in the window. */
  errors: number;
  /** The first non-2xx response in the window, if any. */
  firstUnexpected: { status: number; body: string } | null;
  /** The slowest responses, slowest first: when each was sent (seconds after the window opened) and how long it took. */
  slowest: Array<{ sentAtSeconds: number; ms: number }>;
}

/** What every browser sends (as bench/lib/load.ts): the lists are answered gzipped. */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };
/** Longer than any window; the load is stopped when the window ends. */
const MAX_SECONDS = 1800;

/**
 * Runs `operation` under the load: the load starts, `ctx.warmupSeconds` later (at least 0.5 s,
 * so every connection is open and busy) the window opens and `operation` starts; the window
 * closes when it settles. Rejects with the operation's error after stopping the load.
 */
export async function duringLoad<T>(ctx: ScenarioContext, options: WindowLoadOptions, operation: () => Promise<T>): Promise<{ value: T; load: WindowFigures }> {
  let measuring = false;
  let firstUnexpected: WindowFigures['firstUnexpected'] = null;
  const latencies: number[] = [];
  const timed: Array<{ sentAtSeconds: number; ms: number }> = [];
  let started = 0;
  const statusCodes: Record<string, number> = {};
  let requests = 0;
  let errors = 0;
  const { nextPath } = options;
  // overallRate is autocannon's, though bench/autocannon.d.ts does not declare it.
  const settings: autocannon.Options & { overallRate?: number } = {
    url: `${ctx.baseUrl}${options.path}`,
    method: 'GET',
    headers: { ...BROWSER_HEADERS, ...options.headers },
    connections: options.connections,
    duration: MAX_SECONDS,
    timeout: options.timeoutSeconds ?? 10,
    requests: [
      {
        ...(nextPath ? { setupRequest: (request: autocannon.RequestParams) => ({ ...request, path: nextPath() }) } : {}),
        onResponse(status, body) {
          if (measuring && firstUnexpected === null && (status < 200 || status > 299)) firstUnexpected = { status, body: body.slice(0, 300) };
        },
      },
    ],
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  };
  const instance = autocannon(settings);
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    if (!measuring) return;
    requests += 1;
    const code = String(statusCode);
    statusCodes[code] = (statusCodes[code] ?? 0) + 1;
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
    timed.push({ sentAtSeconds: (performance.now() - responseTimeMs - started) / 1000, ms: responseTimeMs });
  });
  instance.on('reqError', () => {
    if (measuring) errors += 1;
  });
  await sleep(Math.max(500, ctx.warmupSeconds * 1000));
  measuring = true;
  started = performance.now();
  const outcome = await operation().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  measuring = false;
  const seconds = (performance.now() - started) / 1000;
  instance.stop();
  await instance;
  if (!outcome.ok) throw outcome.error;
  return {
    value: outcome.value,
    load: {
      seconds: round(seconds),
      requests,
      throughput: round(seconds > 0 ? requests / seconds : 0, 1),
      latencyMs: summarizeLatencies(latencies),
      statusCodes,
      non2xx: countNon2xx(statusCodes),
      errors,
      firstUnexpected,
      slowest: timed.sort((a, b) => b.ms - a.ms).slice(0, 5),
    },
  };
}
