import { BARE_ZIP_PATH, startBareZipServer } from '../bare/start.js';
import { withRss } from '../lib/memory.js';
import { inspectionPage } from '../lib/records.js';
import { median, round } from '../lib/stats.js';
import { sequentialResult, timedDownload } from '../lib/timer.js';
import type { Scenario } from '../lib/types.js';

const PATH = '/api/images/download';
/** The figure first; the others show whether memory follows the number of photos. */
const SIZES = [50, 10, 200] as const;
/** Each size this many times, each followed by the bare zip: the median 50-photo zip is the ratio's figure. */
const REPEATS = 5;
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

/** Where a zip is asked for: the server (as the demo Admin) or the bare ceiling. */
interface ZipTarget {
  url: string;
  headers: Record<string, string>;
  pid: number;
}

/** One download, read to the end and dropped as it arrives (the client keeps nothing but the tail). */
async function download(target: ZipTarget, ids: readonly string[]): Promise<Omit<ZipRun, 'rssBeforeMb' | 'rssPeakMb'>> {
  let tail = Buffer.alloc(0);
  const init = {
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ imageIds: ids }),
    signal: AbortSignal.timeout(120_000),
  };
  const { status, ms, firstByteMs, bytes } = await timedDownload(target.url, init, (chunk) => {
    tail = Buffer.concat([tail, chunk]).subarray(-65_600);
  });
  if (status !== 200) {
    throw new Error(`POST ${PATH} with ${ids.length} IDs answered HTTP ${status}: ${tail.toString('utf8').slice(0, 300)}`);
  }
  return { status, ms, firstByteMs, bytes, entries: zipEntries(tail) };
}

const mb = (bytes: number) => bytes / 1024 / 1024;

const BARE_DESCRIPTION = 'bare yazl zip of the same photo files (stored, opened lazily, size up front) from a bare Fastify route in its own process';

/** Runs of each size, one at a time, and the errors met. */
interface Series {
  runs: Map<number, ZipRun[]>;
  statusCodes: Record<string, number>;
  errors: string[];
}

const newSeries = (): Series => ({ runs: new Map(SIZES.map((size) => [size, []])), statusCodes: {}, errors: [] });

async function timedRun(target: ZipTarget, series: Series, size: number, slice: readonly string[]): Promise<void> {
  try {
    const { value, rssBeforeMb, rssPeakMb } = await withRss(target.pid, () => download(target, slice));
    series.statusCodes[String(value.status)] = (series.statusCodes[String(value.status)] ?? 0) + 1;
    if (value.entries !== null && value.entries !== size) series.errors.push(`a zip of ${size} IDs has ${value.entries} entries`);
    series.runs.get(size)?.push({ ...value, rssBeforeMb, rssPeakMb });
  } catch (error) {
    series.errors.push(error instanceof Error ? error.message : String(error));
  }
}

async function parallelRun(target: ZipTarget, series: Series, ids: readonly string[], who: string): Promise<string> {
  try {
    const { value, rssBeforeMb, rssPeakMb } = await withRss(target.pid, () => Promise.all(Array.from({ length: PARALLEL }, () => download(target, ids))));
    for (const r of value) series.statusCodes[String(r.status)] = (series.statusCodes[String(r.status)] ?? 0) + 1;
    const total = value.reduce((s, r) => s + r.bytes, 0);
    return (
      `${who}: ${round(mb(total), 1)} MB in ${round(Math.max(...value.map((r) => r.ms)) / 1000, 2)} s, ` +
      `RSS ${round(rssBeforeMb, 0)} -> peak ${round(rssPeakMb, 0)} MB (+${round(rssPeakMb - rssBeforeMb, 1)} MB)`
    );
  } catch (error) {
    series.errors.push(error instanceof Error ? error.message : String(error));
    return `${who}: failed`;
  }
}

const medianMsOf = (list: readonly ZipRun[]) => median(list.map((r) => r.ms));
const largestRise = (list: readonly ZipRun[]) => Math.max(0, ...list.map((r) => r.rssPeakMb - r.rssBeforeMb));

/**
 * The records view's "download selected": one zip of N photos, streamed. Timed one at a time
 * for 50 photos (the figure), then 10 and 200, each a few times, sampling the
 * server's RSS every 20 ms during each download: if the server held the photos in memory,
 * the RSS rise would grow with N. Then PARALLEL zips of 200 at once. Each run is followed by
 * the same zip from the bare ceiling (yazl alone over the same photo files, in its own
 * process, its RSS sampled the same way): the table's ratio is the median 50-photo zip's time
 * over the bare one's.
 */
export const zipDownload: Scenario = {
  name: 'zip-download',
  description: `POST ${PATH} as the demo Admin: zips of 50 photos (and 10, 200; ${PARALLEL} x 200 at once), one at a time; bare yazl zip of the same files in turn`,
  dataset: 'records',
  async run(ctx) {
    const admin = ctx.demo.byRole('Admin');
    const cookie = await ctx.signIn(admin.employeeId);
    const maxSize = Math.max(...SIZES);
    const ids = (await inspectionPage(ctx, cookie, `limit=${maxSize}&offset=100`)).logs.map((l) => l.recordId);
    if (ids.length < maxSize) throw new Error(`expected ${maxSize} record IDs from the list, got ${ids.length}`);
    const product: ZipTarget = { url: `${ctx.baseUrl}${PATH}`, headers: { cookie }, pid: ctx.serverPid };

    ctx.log('zip-download: finding the records\' photo files for the bare ceiling ...');
    const bare = await startBareZipServer(ctx, cookie, ids).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    const bareTarget: ZipTarget | null = typeof bare === 'string' ? null : { url: `${bare.baseUrl}${BARE_ZIP_PATH}`, headers: {}, pid: bare.pid };
    const mine = newSeries();
    const theirs = newSeries();
    let parallelNote = '';
    try {
      // One unmeasured download first: the first zip pays for lazy code paths and file caches.
      await download(product, ids.slice(0, 10));
      if (bareTarget) await download(bareTarget, ids.slice(0, 10)).catch(() => undefined);
      for (const size of SIZES) {
        for (let i = 0; i < REPEATS; i++) {
          // Another slice each time, so no two zips are the same request; the bare zip of the same slice right after.
          const slice = [...ids.slice(i * 7), ...ids.slice(0, i * 7)].slice(0, size);
          await timedRun(product, mine, size, slice);
          if (bareTarget) await timedRun(bareTarget, theirs, size, slice);
        }
      }
      const parallel = [await parallelRun(product, mine, ids.slice(0, maxSize), 'server')];
      if (bareTarget) parallel.push(await parallelRun(bareTarget, theirs, ids.slice(0, maxSize), 'bare'));
      parallelNote = `${PARALLEL} zips of ${maxSize} at once: ${parallel.join('; ')}`;
    } finally {
      if (typeof bare !== 'string') await bare.stop();
    }

    const main = mine.runs.get(50) ?? [];
    const result = sequentialResult('zips/s', main.map((r) => r.ms), mine.statusCodes, mine.errors.length, 2);
    const bareMain = theirs.runs.get(50) ?? [];
    if (main.length > 0 && bareMain.length > 0) {
      result.baseline = {
        description: `${BARE_DESCRIPTION}; the 50-photo zip, median of ${bareMain.length}`,
        productSeconds: round(medianMsOf(main) / 1000, 3),
        baselineSeconds: round(medianMsOf(bareMain) / 1000, 3),
        productRssRiseMb: round(median(main.map((r) => r.rssPeakMb - r.rssBeforeMb)), 1),
        baselineRssRiseMb: round(median(bareMain.map((r) => r.rssPeakMb - r.rssBeforeMb)), 1),
      };
    }
    const bySize = [...mine.runs.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([size, list]) => {
        if (list.length === 0) return `${size} photos: no successful run`;
        const bytes = median(list.map((r) => r.bytes));
        const ms = medianMsOf(list);
        const bareList = theirs.runs.get(size) ?? [];
        const bareMs = medianMsOf(bareList);
        const beside =
          bareList.length > 0
            ? `; bare ${round(bareMs, 0)} ms (first byte ${round(median(bareList.map((r) => r.firstByteMs)), 0)} ms), ` +
              `its RSS largest rise +${round(largestRise(bareList), 1)} MB: the server ${bareMs > 0 ? (ms / bareMs).toFixed(2) : '-'}x its time`
            : '';
        return (
          `${size} photos: ${round(mb(bytes), 1)} MB zip (${list[0]?.entries ?? '?'} entries) in ${round(ms, 0)} ms ` +
          `(first byte ${round(median(list.map((r) => r.firstByteMs)), 0)} ms, ${round(mb(bytes) / (ms / 1000), 0)} MB/s), ` +
          `server RSS before ${round(median(list.map((r) => r.rssBeforeMb)), 0)} MB, largest rise during one +${round(largestRise(list), 1)} MB${beside}`
        );
      });
    result.notes.push(`one at a time, ${REPEATS} of each, median (each followed by the bare zip of the same records): ${bySize.join('; ')}`);
    if (parallelNote) result.notes.push(parallelNote);
    result.notes.push(
      typeof bare === 'string'
        ? `bare ceiling FAILED: ${bare.slice(0, 600)}`
        : `bare ceiling: ${BARE_DESCRIPTION}; the ${ids.length} records share ${bare.distinctFiles} distinct photo files (the generated records' photos), ` +
            'found through GET /api/image/download/:id (sha256: their place in DATA_DIR/blobs); no sign-in, database read or access check',
    );
    const small = largestRise(mine.runs.get(Math.min(...SIZES)) ?? []);
    const big = largestRise(mine.runs.get(maxSize) ?? []);
    result.notes.push(
      `memory vs photos: RSS rise ${round(small, 1)} MB for ${Math.min(...SIZES)} photos, ${round(big, 1)} MB for ${maxSize} ` +
        `(the ${maxSize} photos weigh ${round(mb(median((mine.runs.get(maxSize) ?? []).map((r) => r.bytes))), 0)} MB: ` +
        `${big - small < 20 ? 'flat: streamed' : 'it grows with the photos: not streamed'})`,
    );
    for (const message of mine.errors.slice(0, 5)) result.notes.push(`error: ${message}`);
    for (const message of theirs.errors.slice(0, 3)) result.notes.push(`bare ceiling error: ${message}`);
    return result;
  },
};
