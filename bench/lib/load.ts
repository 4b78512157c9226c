/**
 * HTTP load with autocannon: a short unmeasured warm-up, then a measured run. Latencies are
 * taken from every response (sub-millisecond, 2xx only) rather than autocannon's
 * whole-millisecond histogram; statuses and errors are counted for the pass/fail check.
 */
import autocannon from 'autocannon';
import { countNon2xx, round, summarizeLatencies } from './stats.js';
import type { ScenarioContext, ScenarioResult } from './types.js';

export interface LoadOptions {
  /** Path and query, e.g. '/api/health'. */
  path: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** Sent as JSON with content-type application/json. */
  json?: unknown;
  connections: number;
  /** Throughput unit for the table; default 'req/s'. */
  unit?: string;
  /** Seconds before a request counts as a timeout (autocannon's default is 10). */
  timeoutSeconds?: number;
}

interface Phase {
  result: autocannon.Result;
  latencies: number[];
  statusCodes: Record<string, number>;
  responses: number;
  errorMessages: Map<string, number>;
}

async function phase(ctx: ScenarioContext, options: LoadOptions, durationSeconds: number): Promise<Phase> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  const instance = autocannon({
    url: `${ctx.baseUrl}${options.path}`,
    method: options.method ?? 'GET',
    headers,
    body,
    connections: options.connections,
    duration: durationSeconds,
    timeout: options.timeoutSeconds ?? 10,
  });
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const errorMessages = new Map<string, number>();
  let responses = 0;
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    responses += 1;
    const code = String(statusCode);
    statusCodes[code] = (statusCodes[code] ?? 0) + 1;
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
  });
  instance.on('reqError', (error) => {
    errorMessages.set(error.message, (errorMessages.get(error.message) ?? 0) + 1);
  });
  const result = await instance;
  return { result, latencies, statusCodes, responses, errorMessages };
}

export async function runLoad(ctx: ScenarioContext, options: LoadOptions): Promise<ScenarioResult> {
  const notes: string[] = [];
  if (ctx.warmupSeconds > 0) {
    const warm = await phase(ctx, options, ctx.warmupSeconds);
    const bad = warm.result.errors + countNon2xx(warm.statusCodes);
    if (bad > 0) notes.push(`warm-up: ${bad} of ${warm.responses + warm.result.errors} requests failed`);
  }
  const measured = await phase(ctx, options, ctx.durationSeconds);
  const { result } = measured;
  const non2xx = countNon2xx(measured.statusCodes);
  for (const [message, count] of measured.errorMessages) notes.push(`${count} x ${message}`);
  const durationSeconds = result.duration > 0 ? result.duration : ctx.durationSeconds;
  return {
    unit: options.unit ?? 'req/s',
    connections: options.connections,
    durationSeconds: round(durationSeconds),
    requests: measured.responses,
    throughput: round(measured.responses / durationSeconds, 1),
    latencyMs: summarizeLatencies(measured.latencies),
    non2xx,
    errors: result.errors,
    statusCodes: measured.statusCodes,
    notes,
  };
}
