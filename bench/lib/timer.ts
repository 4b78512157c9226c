/**
 * Timers for work that is not a flood of small requests (a report, an export, a zip): a
 * download read to its end and timed to its first and last byte, and the table's figures of
 * such runs made one at a time.
 */
import { performance } from 'node:perf_hooks';
import * as yauzl from 'yauzl';
import { countNon2xx, round, summarizeLatencies } from './stats.js';
import type { ScenarioResult } from './types.js';

export interface TimedDownload {
  status: number;
  bytes: number;
  /** From the request to the first byte of the body. */
  firstByteMs: number;
  /** From the request to the last byte. */
  ms: number;
}

/**
 * Sends the request and reads the answer to its end as it arrives, each chunk handed to
 * `onChunk` (which keeps what its caller checks: the whole file, its head and tail, counts)
 * and then dropped, so the time includes the whole body and the client holds no more of it.
 */
export async function timedDownload(url: string, init: RequestInit, onChunk: (chunk: Uint8Array) => void = () => {}): Promise<TimedDownload> {
  const started = performance.now();
  const response = await fetch(url, init);
  let firstByteMs = performance.now() - started;
  let bytes = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += value.byteLength;
      onChunk(value);
    }
  }
  return { status: response.status, bytes, firstByteMs, ms: performance.now() - started };
}

/**
 * GETs a file and reads it to its end as it arrives, timing the first and the last byte; an
 * answer other than 200, or one that is not a zip (XLSX files are), is an error.
 */
export async function downloadZip(url: string, headers: Record<string, string>, timeoutMs: number): Promise<TimedDownload & { body: Buffer }> {
  const chunks: Uint8Array[] = [];
  const download = await timedDownload(url, { headers, signal: AbortSignal.timeout(timeoutMs) }, (chunk) => chunks.push(chunk));
  const body = Buffer.concat(chunks);
  const path = new URL(url).pathname;
  if (download.status !== 200) throw new Error(`GET ${path} answered HTTP ${download.status}: ${body.toString('utf8').slice(0, 300)}`);
  if (body.subarray(0, 2).toString('latin1') !== 'PK') throw new Error(`GET ${path}: the answer does not start with PK (not a zip)`);
  return { ...download, body };
}

/** `<row ` elements of each worksheet of an XLSX file (by entry name), counted as each inflates. */
export async function worksheetRowCounts(body: Buffer): Promise<Map<string, number>> {
  const zip = await yauzl.fromBufferPromise(body, { lazyEntries: true });
  const rows = new Map<string, number>();
  for await (const entry of zip.eachEntry()) {
    if (!/^xl\/worksheets\/sheet\d+\.xml$/.test(entry.fileName)) continue;
    const stream = await zip.openReadStreamPromise(entry);
    let count = 0;
    let carry = '';
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const text = carry + chunk.toString('latin1');
      for (let at = text.indexOf('<row '); at !== -1; at = text.indexOf('<row ', at + 5)) count += 1;
      carry = text.slice(-4);
    }
    rows.set(entry.fileName, count);
  }
  return rows;
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
