import { performance } from 'node:perf_hooks';
import { readRssMb, recordRss } from '../lib/memory.js';
import { inspectionPage } from '../lib/records.js';
import { round } from '../lib/stats.js';
import { sequentialResult } from '../lib/timer.js';
import type { Scenario, ScenarioContext } from '../lib/types.js';

const PATH = '/api/images/download';
/** The figure first; the others show whether memory follows the number of photos. */
const SIZES = [50, 10, 200] as const;
const REPEATS = 3;
/** Several big zips at once: memory must stay flat in the number of downloads in flight too. */
const PARALLEL = 4;

interface ZipRun {
  status: number;
  ms: number;
  firstByteMs: number;
  bytes: number;
  /** Entries named by the zip's end-of-central-directory record; null if it has none. */
  entries: number | null;
  rssBeforeMb: number;
  rssPeakMb: number;
}

/** The entry count in the end-of-central-directory record (the last 22+ bytes of a zip). */
function zipEntries(tail: Buffer): number | null {
  for (let at = tail.length - 22; at >= 0; at--) {
    if (tail.readUInt32LE(at) === 0x06054b50) {
      const entries = tail.readUInt16LE(at + 10);
      // ZIP64 puts 0xffff here and the real count in its own record; fine for this check.
      return entries;
    }
  }
  return null;
}

/** One download, read to the end and dropped as it arrives (the client keeps nothing but the tail). */
async function download(ctx: ScenarioContext, cookie: string, ids: readonly string[]): Promise<Omit<ZipRun, 'rssBeforeMb' | 'rssPeakMb'>> {
  const started = performance.now();
  const response = await fetch(`${ctx.baseUrl}${PATH}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ imageIds: ids }),
    signal: AbortSignal.timeout(120_000),
  });
  let firstByteMs = performance.now() - started;
  let bytes = 0;
  let tail = Buffer.alloc(0);
  if (response.body) {
    const reader = response.body.getReader();
    let first = true;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (first) {
        firstByteMs = performance.now() - started;
        first = false;
      }
      bytes += value.byteLength;
      tail = Buffer.concat([tail, Buffer.from(value)]).subarray(-65_600);
    }
  }
  const ms = performance.now() - started;
  if (response.status !== 200) {
    throw new Error(`POST ${PATH} with ${ids.length} IDs answered HTTP ${response.status}: ${tail.toString('utf8').slice(0, 300)}`);
  }
  return { status: response.status, ms, firstByteMs, bytes, entries: zipEntries(tail) };
}

async function measured<T>(ctx: ScenarioContext, work: () => Promise<T>): Promise<{ value: T; rssBeforeMb: number; rssPeakMb: number }> {
  const rssBeforeMb = (await readRssMb(ctx.serverPid)) ?? 0;
  const recorder = recordRss(ctx.serverPid, 20);
  const value = await work();
  const samples = await recorder.stop();
  const rssPeakMb = Math.max(rssBeforeMb, ...samples.map((s) => s.mb));
  return { value, rssBeforeMb, rssPeakMb };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mb = (bytes: number) => bytes / 1024 / 1024;

/**
 * The records view's "download selected": one zip of N photos, streamed. Timed one at a time
 * for 50 photos (the figure), then 10 and 200, each a few times, sampling the
 * server's RSS every 20 ms during each download: if the server held the photos in memory,
 * the RSS rise would grow with N. Then PARALLEL zips of 200 at once.
 */
export const zipDownload: Scenario = {
  name: 'zip-download',
  description: `POST ${PATH} as the demo Admin: zips of 50 photos (and 10, 200; ${PARALLEL} x 200 at once), one at a time`,
  dataset: 'records',
  async run(ctx) {
    const admin = ctx.demo.byRole('Admin');
    const cookie = await ctx.signIn(admin.employeeId);
    const maxSize = Math.max(...SIZES);
    const ids = (await inspectionPage(ctx, cookie, `limit=${maxSize}&offset=100`)).logs.map((l) => l.recordId);
    if (ids.length < maxSize) throw new Error(`expected ${maxSize} record IDs from the list, got ${ids.length}`);

    // One unmeasured download first: the first zip pays for lazy code paths and file caches.
    await download(ctx, cookie, ids.slice(0, 10));

    const runs = new Map<number, ZipRun[]>();
    const statusCodes: Record<string, number> = {};
    let errors = 0;
    const errorMessages: string[] = [];
    for (const size of SIZES) {
      const list: ZipRun[] = [];
      for (let i = 0; i < REPEATS; i++) {
        try {
          // Another slice each time, so no two zips are the same request.
          const slice = [...ids.slice(i * 7), ...ids.slice(0, i * 7)].slice(0, size);
          const { value, rssBeforeMb, rssPeakMb } = await measured(ctx, () => download(ctx, cookie, slice));
          statusCodes[String(value.status)] = (statusCodes[String(value.status)] ?? 0) + 1;
          if (value.entries !== null && value.entries !== size) {
            errors += 1;
            errorMessages.push(`a zip of ${size} IDs has ${value.entries} entries`);
          }
          list.push({ ...value, rssBeforeMb, rssPeakMb });
        } catch (error) {
          errors += 1;
          errorMessages.push(error instanceof Error ? error.message : String(error));
        }
      }
      runs.set(size, list);
    }

    let parallelNote = '';
    try {
      const { value, rssBeforeMb, rssPeakMb } = await measured(ctx, () =>
        Promise.all(Array.from({ length: PARALLEL }, () => download(ctx, cookie, ids.slice(0, maxSize)))),
      );
      for (const r of value) statusCodes[String(r.status)] = (statusCodes[String(r.status)] ?? 0) + 1;
      const total = value.reduce((s, r) => s + r.bytes, 0);
      parallelNote =
        `${PARALLEL} zips of ${maxSize} at once: ${round(mb(total), 1)} MB in ${round(Math.max(...value.map((r) => r.ms)) / 1000, 2)} s, ` +
        `server RSS ${round(rssBeforeMb, 0)} -> peak ${round(rssPeakMb, 0)} MB (+${round(rssPeakMb - rssBeforeMb, 1)} MB)`;
    } catch (error) {
      errors += 1;
      errorMessages.push(error instanceof Error ? error.message : String(error));
    }

    const main = runs.get(50) ?? [];
    const result = sequentialResult('zips/s', main.map((r) => r.ms), statusCodes, errors, 2);
    const bySize = [...runs.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([size, list]) => {
        if (list.length === 0) return `${size} photos: no successful run`;
        const bytes = median(list.map((r) => r.bytes));
        const ms = median(list.map((r) => r.ms));
        const rise = Math.max(...list.map((r) => r.rssPeakMb - r.rssBeforeMb));
        return (
          `${size} photos: ${round(mb(bytes), 1)} MB zip (${list[0]?.entries ?? '?'} entries) in ${round(ms, 0)} ms ` +
          `(first byte ${round(median(list.map((r) => r.firstByteMs)), 0)} ms, ${round(mb(bytes) / (ms / 1000), 0)} MB/s), ` +
          `server RSS before ${round(median(list.map((r) => r.rssBeforeMb)), 0)} MB, largest rise during one +${round(rise, 1)} MB`
        );
      });
    result.notes.push(`one at a time, ${REPEATS} of each, median: ${bySize.join('; ')}`);
    if (parallelNote) result.notes.push(parallelNote);
    const rises = [...runs.entries()].map(([size, list]) => [size, Math.max(0, ...list.map((r) => r.rssPeakMb - r.rssBeforeMb))] as const);
    const small = rises.find(([size]) => size === Math.min(...SIZES))?.[1] ?? 0;
    const big = rises.find(([size]) => size === maxSize)?.[1] ?? 0;
    result.notes.push(
      `memory vs photos: RSS rise ${round(small, 1)} MB for ${Math.min(...SIZES)} photos, ${round(big, 1)} MB for ${maxSize} ` +
        `(the ${maxSize} photos weigh ${round(mb(median((runs.get(maxSize) ?? []).map((r) => r.bytes))), 0)} MB: ` +
        `${big - small < 20 ? 'flat: streamed' : 'it grows with the photos: not streamed'})`,
    );
    for (const message of errorMessages.slice(0, 5)) result.notes.push(`error: ${message}`);
    return result;
  },
};
