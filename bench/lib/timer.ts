/** Timed pieces of work made one at a time (reports, exports, zips): downloads timed to first and last byte, server RSS and CPU. */
import { performance } from 'node:perf_hooks';
import * as yauzl from 'yauzl';
import { withRss } from './memory.js';
import { cpuMark, cpuSpent } from './records.js';
import { countNon2xx, type Figure, median, note, round, summarizeLatencies } from './stats.js';
import type { ScenarioContext, ScenarioResult } from './types.js';

export async function timedDownload(url: string, init: RequestInit, onChunk: (chunk: Uint8Array) => void = () => {}) {
  const started = performance.now();
  const response = await fetch(url, init);
  let firstByteMs = performance.now() - started;
  let bytes = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += chunk.byteLength;
      onChunk(chunk);
    }
  }
  return { status: response.status, bytes, firstByteMs, ms: performance.now() - started };
}

export type TimedDownload = Awaited<ReturnType<typeof timedDownload>>;

export async function downloadZip(url: string, headers: Record<string, string>, timeoutMs: number): Promise<TimedDownload & { body: Buffer }> {
  const chunks: Uint8Array[] = [];
  const download = await timedDownload(url, { headers, signal: AbortSignal.timeout(timeoutMs) }, (chunk) => chunks.push(chunk));
  const body = Buffer.concat(chunks);
  const path = new URL(url).pathname;
  if (download.status !== 200) throw new Error(`GET ${path} answered HTTP ${download.status}: ${body.toString('utf8').slice(0, 300)}`);
  if (body.subarray(0, 2).toString('latin1') !== 'PK') throw new Error(`GET ${path}: the answer does not start with PK (not a zip)`);
  return { ...download, body };
}

export async function worksheetRowCounts(body: Buffer): Promise<Map<string, number>> {
  const zip = await yauzl.fromBufferPromise(body, { lazyEntries: true });
  const rows = new Map<string, number>();
  for await (const entry of zip.eachEntry()) {
    if (!/^xl\/worksheets\/sheet\d+\.xml$/.test(entry.fileName)) continue;
    let count = 0;
    let carry = '';
    for await (const chunk of (await zip.openReadStreamPromise(entry)) as AsyncIterable<Buffer>) {
      const text = carry + chunk.toString('latin1');
      for (let at = text.indexOf('<row '); at !== -1; at = text.indexOf('<row ', at + 5)) count += 1;
      carry = text.slice(-4);
    }
    rows.set(entry.fileName, count);
  }
  return rows;
}

export async function withServerFigures<T>(ctx: ScenarioContext, work: () => Promise<T>) {
  const start = await cpuMark(ctx);
  const measured = await withRss(ctx.serverPid, work);
  const end = await cpuMark(ctx);
  const { server, main, database } = cpuSpent(start, end);
  return { ...measured, serverCpu: server, serverMainCpu: main, databaseCpu: database };
}

export interface TimedRun {
  ms: number;
  firstByteMs: number;
  bytes: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  serverCpu: number | null;
  databaseCpu: number | null;
}

export const mib = (bytes: number) => bytes / 1024 / 1024;
export const series = (values: readonly number[], decimals: number, signed = false) =>
  values.map((v) => `${signed && v >= 0 ? '+' : ''}${round(v, decimals)}`).join(' / ');
export const rssRise = (run: { rssPeakMb: number; rssBeforeMb: number }) => Math.max(0, run.rssPeakMb - run.rssBeforeMb);

export function runsNote(label: string, runs: readonly TimedRun[], extra: Readonly<Record<string, Figure>> = {}): string {
  if (runs.length === 0) return `${label}: no successful run`;
  // The median of the known values (PostgreSQL's CPU is unknown on PGlite).
  const cpu = (pick: (run: TimedRun) => number | null) => {
    const known = runs.flatMap((run) => pick(run) ?? []);
    return known.length ? `${round(median(known), 2)} s` : null;
  };
  return note(label, {
    '': `${series(runs.map((r) => r.ms / 1000), 2)} s, median ${round(median(runs.map((r) => r.ms)) / 1000, 2)} s`,
    'first byte (median)': `${round(median(runs.map((r) => r.firstByteMs)), 0)} ms`,
    size: `${round(mib(median(runs.map((r) => r.bytes))), 2)} MB`,
    ...extra,
    'server RSS before': `${series(runs.map((r) => r.rssBeforeMb), 0)} MB`,
    peak: `${series(runs.map((r) => r.rssPeakMb), 0)} MB`,
    rise: `${series(runs.map(rssRise), 1, true)} MB`,
    'CPU (median) server': cpu((r) => r.serverCpu),
    PostgreSQL: cpu((r) => r.databaseCpu),
  });
}

export class RunBook {
  readonly statusCodes: Record<string, number> = {};
  readonly problems: string[] = [];
  readonly seen = new Set<string>();
  status(code: number): void {
    this.statusCodes[String(code)] = (this.statusCodes[String(code)] ?? 0) + 1;
  }
  expectNew(id: string, label: string): void {
    if (this.seen.has(id)) this.problems.push(`${label}: answered ${id} again: not made anew`);
    this.seen.add(id);
  }
  async attempt<T>(work: () => Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch (error) {
      this.problems.push(error instanceof Error ? error.message : String(error));
      return null;
    }
  }
  errorNotes(limit = 5, label = 'error'): string[] {
    return this.problems.slice(0, limit).map((message) => `${label}: ${message}`);
  }
  /** The table's figures of these runs; throughput in `perRun` units (e.g. rows) a second. */
  result(unit: string, runsMs: readonly number[], decimals = 3, perRun = 1): ScenarioResult {
    const seconds = runsMs.reduce((sum, ms) => sum + ms, 0) / 1000;
    return {
      unit,
      connections: 1,
      durationSeconds: round(seconds),
      requests: Object.values(this.statusCodes).reduce((sum, n) => sum + n, 0),
      throughput: round(seconds > 0 ? (runsMs.length * perRun) / seconds : 0, decimals),
      latencyMs: summarizeLatencies([...runsMs]),
      non2xx: countNon2xx(this.statusCodes),
      errors: this.problems.length,
      statusCodes: this.statusCodes,
      notes: [],
    };
  }
}
