/**
 * HTTP load with autocannon: a short unmeasured warm-up, then a measured run. Latencies are
 * taken from every response (sub-millisecond, successes only) rather than autocannon's
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
  /**
   * A new body for every request (instead of `json`), called synchronously just before each
   * send; autocannon copies it into the request, so the caller may reuse and patch one Buffer.
   * Keep it cheap: it runs on the load generator's share of the CPU.
   */
  nextBody?: () => Buffer;
  /**
   * A new path (and query) for every request instead of `path`, called just before each send,
   * e.g. to walk through pages or filters. `path` is still what the report names.
   */
  nextPath?: () => string;
  /**
   * The one status that counts as success (default: any 2xx). Another 2xx is then counted
   * as an error (in `errors`, with a note), and only this status's latencies are kept.
   */
  expectStatus?: number;
  /** Called after the warm-up, right before the measured phase starts. */
  beforeMeasured?: () => Promise<void> | void;
}

interface Phase {
  result: autocannon.Result;
  latencies: number[];
  statusCodes: Record<string, number>;
  responses: number;
  /** Responses that are not the expected status (with `expectStatus`) or not 2xx. */
  unexpected: number;
  /** The status and body of the first such response. */
  firstUnexpected: { status: number; body: string } | null;
  errorMessages: Map<string, number>;
}

/** What every browser sends; the server answers the lists gzipped to it, as it would a phone. */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };

async function phase(ctx: ScenarioContext, options: LoadOptions, durationSeconds: number): Promise<Phase> {
  const headers: Record<string, string> = { ...BROWSER_HEADERS, ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  const isSuccess = (status: number) =>
    options.expectStatus === undefined ? status >= 200 && status < 300 : status === options.expectStatus;
  let firstUnexpected: Phase['firstUnexpected'] = null;
  const { nextBody, nextPath } = options;
  const instance = autocannon({
    url: `${ctx.baseUrl}${options.path}`,
    method: options.method ?? 'GET',
    headers,
    body,
    connections: options.connections,
    duration: durationSeconds,
    timeout: options.timeoutSeconds ?? 10,
    requests: [
      {
        // autocannon rebuilds a request before every send only when it has a setupRequest.
        ...(nextBody || nextPath
          ? {
              setupRequest: (request: autocannon.RequestParams) => ({
                ...request,
                ...(nextBody ? { body: nextBody() } : {}),
                ...(nextPath ? { path: nextPath() } : {}),
              }),
            }
          : {}),
        onResponse(status, responseBody) {
          if (firstUnexpected === null && !isSuccess(status)) firstUnexpected = { status, body: responseBody.slice(0, 500) };
        },
      },
    ],
  });
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const errorMessages = new Map<string, number>();
  let responses = 0;
  let unexpected = 0;
  instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    responses += 1;
    const code = String(statusCode);
    statusCodes[code] = (statusCodes[code] ?? 0) + 1;
    if (isSuccess(statusCode)) latencies.push(responseTimeMs);
    else unexpected += 1;
  });
  instance.on('reqError', (error) => {
    errorMessages.set(error.message, (errorMessages.get(error.message) ?? 0) + 1);
  });
  const result = await instance;
  return { result, latencies, statusCodes, responses, unexpected, firstUnexpected, errorMessages };
}

export async function runLoad(ctx: ScenarioContext, options: LoadOptions): Promise<ScenarioResult> {
  const notes: string[] = [];
  const describe = (first: Phase['firstUnexpected']) => (first ? `; the first: HTTP ${first.status} ${first.body}` : '');
  if (ctx.warmupSeconds > 0) {
    const warm = await phase(ctx, options, ctx.warmupSeconds);
    const bad = warm.result.errors + warm.unexpected;
    if (bad > 0) notes.push(`warm-up: ${bad} of ${warm.responses + warm.result.errors} requests failed${describe(warm.firstUnexpected)}`);
  }
  await options.beforeMeasured?.();
  const measured = await phase(ctx, options, ctx.durationSeconds);
  const { result } = measured;
  const non2xx = countNon2xx(measured.statusCodes);
  // With expectStatus, another 2xx (e.g. 200 for a replayed upload) is a failure too.
  const other2xx = measured.unexpected - non2xx;
  if (other2xx > 0) {
    const codes = Object.entries(measured.statusCodes)
      .filter(([code]) => code.startsWith('2') && code !== String(options.expectStatus))
      .map(([code, count]) => `${count} x HTTP ${code}`);
    notes.push(`expected HTTP ${String(options.expectStatus)} only, got ${codes.join(', ')} (counted as errors)`);
  }
  if (measured.firstUnexpected) notes.push(`first unexpected response: HTTP ${measured.firstUnexpected.status} ${measured.firstUnexpected.body}`);
  for (const [message, count] of measured.errorMessages) notes.push(`${count} x ${message}`);
  const durationSeconds = result.duration > 0 ? result.duration : ctx.durationSeconds;
  // With expectStatus, throughput counts successes only: failing fast must not look fast.
  const successes = measured.responses - measured.unexpected;
  return {
    unit: options.unit ?? 'req/s',
    connections: options.connections,
    durationSeconds: round(durationSeconds),
    requests: measured.responses,
    throughput: round((options.expectStatus === undefined ? measured.responses : successes) / durationSeconds, 1),
    latencyMs: summarizeLatencies(measured.latencies),
    non2xx,
    errors: result.errors + other2xx,
    statusCodes: measured.statusCodes,
    notes,
  };
}
