/**
 * Plain timers, for scenarios that are not a flood of small requests (a report that takes
 * seconds, an upload of a large file): run an operation a number of times, some at once,
 * and time each with performance.now().
 */
import { performance } from 'node:perf_hooks';
import { countNon2xx, round, summarizeLatencies } from './stats.js';
import type { ScenarioResult } from './types.js';

export interface TimedOptions {
  /** How many operations in all. */
  iterations: number;
  /** How many run at once (default 1: one after another). */
  concurrency?: number;
  /** Throughput unit for the table, e.g. 'reports/s'. */
  unit: string;
  /**
   * One operation. Resolve to the HTTP status it got (anything outside 200-299 counts as
   * non-2xx); throw for a transport error.
   */
  operation(index: number): Promise<number>;
}

export async function runTimed(options: TimedOptions): Promise<ScenarioResult> {
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const errorMessages = new Map<string, number>();
  let errors = 0;
  let next = 0;
  const worker = async () => {
    while (next < options.iterations) {
      const index = next++;
      const started = performance.now();
      try {
        const status = await options.operation(index);
        const code = String(status);
        statusCodes[code] = (statusCodes[code] ?? 0) + 1;
        if (status >= 200 && status < 300) latencies.push(performance.now() - started);
      } catch (error) {
        errors += 1;
        const message = error instanceof Error ? error.message : String(error);
        errorMessages.set(message, (errorMessages.get(message) ?? 0) + 1);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const responses = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  const non2xx = countNon2xx(statusCodes);
  return {
    unit: options.unit,
    connections: concurrency,
    durationSeconds: round(seconds),
    requests: responses,
    throughput: round(seconds > 0 ? responses / seconds : 0, 1),
    latencyMs: summarizeLatencies(latencies),
    non2xx,
    errors,
    statusCodes,
    notes: [...errorMessages].map(([message, count]) => `${count} x ${message}`),
  };
}

/** A fetch that returns only the status and reads (and drops) the body, so timing includes it. */
export async function fetchStatus(url: string, init?: RequestInit): Promise<number> {
  const response = await fetch(url, init);
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
  }
  return response.status;
}

export interface TimedDownload {
  status: number;
  body: Buffer;
  bytes: number;
  /** From the request to the first byte of the body. */
  firstByteMs: number;
  /** From the request to the last byte. */
  ms: number;
}

/**
 * GETs a file and reads it to its end as it arrives, timing the first and the last byte; an
 * answer other than 200, or one that is not a zip (XLSX files are), is an error.
 */
export async function downloadZip(url: string, headers: Record<string, string>, timeoutMs: number): Promise<TimedDownload> {
  const started = performance.now();
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  let firstByteMs = performance.now() - started;
  let bytes = 0;
  const chunks: Uint8Array[] = [];
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += value.byteLength;
      chunks.push(value);
    }
  }
  const ms = performance.now() - started;
  const body = Buffer.concat(chunks);
  const path = new URL(url).pathname;
  if (response.status !== 200) throw new Error(`GET ${path} answered HTTP ${response.status}: ${body.toString('utf8').slice(0, 300)}`);
  if (body.subarray(0, 2).toString('latin1') !== 'PK') throw new Error(`GET ${path}: the answer does not start with PK (not a zip)`);
  return { status: response.status, body, bytes, firstByteMs, ms };
}

/**
 * The table's figures of operations run one at a time and timed (each `ms`): throughput is
 * operations over their summed time, latencies are theirs, statuses and errors as counted.
 */
export function sequentialResult(unit: string, runsMs: readonly number[], statusCodes: Record<string, number>, errors: number, decimals = 3): ScenarioResult {
  const seconds = runsMs.reduce((sum, ms) => sum + ms, 0) / 1000;
  return {
    unit,
    connections: 1,
    durationSeconds: round(seconds),
    requests: Object.values(statusCodes).reduce((sum, n) => sum + n, 0),
    throughput: round(seconds > 0 ? runsMs.length / seconds : 0, decimals),
    latencyMs: summarizeLatencies([...runsMs]),
    non2xx: countNon2xx(statusCodes),
    errors,
    statusCodes,
    notes: [],
  };
}
