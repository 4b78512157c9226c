/**
 * An autocannon load measured over a window an operation decides: after a warm-up, only the responses while it runs count.
 * Latencies from each request's sending (with a fixed rate, without autocannon's coordinated-omission correction).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { inTurn, RECORDS_LIST_PATHS } from './load.js';
import { cpuMark, type CpuMark } from './records.js';
import { countNon2xx, round, summarizeLatencies } from './stats.js';
import type { ScenarioContext } from './types.js';

export function recordsListLoad(cookie: string, connections: number, overallRate = 0) {
  return { ...inTurn(RECORDS_LIST_PATHS), headers: { cookie }, connections, overallRate };
}
export type WindowLoadOptions = ReturnType<typeof recordsListLoad>;
export type WindowFigures = Awaited<ReturnType<typeof duringLoad>>['load'];

const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };
const MAX_SECONDS = 1800; // longer than any window; the load is stopped when the window ends

export async function duringLoad<T>(ctx: ScenarioContext, options: WindowLoadOptions, operation: () => Promise<T>) {
  let measuring = false;
  // Set inside autocannon's callback: typed apart so that TypeScript does not narrow it to null.
  let firstUnexpected = null as { status: number; body: string } | null;
  const latencies: number[] = [];
  const timed: Array<{ sentAtSeconds: number; ms: number }> = [];
  const statusCodes: Record<string, number> = {};
  let started = 0;
  let requests = 0;
  let errors = 0;
  const { nextPath } = options;
  const settings: autocannon.Options = {
    url: `${ctx.baseUrl}${options.path}`,
    method: 'GET',
    headers: { ...BROWSER_HEADERS, ...options.headers },
    connections: options.connections,
    duration: MAX_SECONDS,
    timeout: 10,
    requests: [
      {
        setupRequest: (request) => ({ ...request, path: nextPath() }),
        onResponse(status, body) {
          if (measuring && firstUnexpected === null && (status < 200 || status > 299)) firstUnexpected = { status, body: body.slice(0, 300) };
        },
      },
    ],
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  };
  let settle: (error: unknown) => void = () => {};
  const finished = new Promise<void>((resolve, reject) => {
    settle = (error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve());
  });
  const instance = autocannon(settings, (error: unknown) => settle(error));
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    if (!measuring) return;
    requests += 1;
    statusCodes[String(statusCode)] = (statusCodes[String(statusCode)] ?? 0) + 1;
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
    timed.push({ sentAtSeconds: (performance.now() - responseTimeMs - started) / 1000, ms: responseTimeMs });
  });
  instance.on('reqError', () => {
    if (measuring) errors += 1;
  });
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
    instance.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  await finished;
  return {
    value,
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
      cpu,
    },
  };
}

export function windowProblem(label: string, load: WindowFigures): string | null {
  if (load.errors + load.non2xx === 0) return null;
  const first = load.firstUnexpected ? ` (first: HTTP ${load.firstUnexpected.status} ${load.firstUnexpected.body})` : '';
  return `${label}: ${load.errors} errors, ${load.non2xx} non-2xx${first}`;
}
