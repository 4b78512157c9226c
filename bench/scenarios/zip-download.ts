/**
 * The records view's "download selected" zip of 50 (the figure), 10 and 200 photos, then 4 at once: the RSS rise must
 * not follow N. Each beside the same zip from yazl alone (bare/start.ts); the ratio is the median 50-photo zip's.
 */
import { BARE_ZIP_PATH, startBareZipServer } from '../bare/start.js';
import { withRss } from '../lib/memory.js';
import { inspectionPage } from '../lib/records.js';
import { median, round } from '../lib/stats.js';
import { mib, RunBook, rssRise, timedDownload, type TimedDownload } from '../lib/timer.js';
import type { Scenario } from '../lib/types.js';

const PATH = '/api/images/download';
const SIZES = [50, 10, 200] as const;
const REPEATS = 5;
const PARALLEL = 4;
const BARE_DESCRIPTION = 'bare yazl zip of the same photo files (stored, opened lazily, size up front) from a bare Fastify route in its own process';

interface ZipRun extends TimedDownload {
  entries: number | null;
  rssBeforeMb: number;
  rssPeakMb: number;
}

const sideOf = (url: string, headers: Record<string, string>, pid: number) => ({ url, headers, pid, book: new RunBook(), runs: new Map<number, ZipRun[]>(SIZES.map((size) => [size, []])) });
type ZipSide = ReturnType<typeof sideOf>;

function zipEntries(tail: Buffer): number | null {
  for (let at = tail.length - 22; at >= 0; at--) if (tail.readUInt32LE(at) === 0x06054b50) return tail.readUInt16LE(at + 10);
  return null;
}

async function download(side: ZipSide, ids: readonly string[]): Promise<TimedDownload & { entries: number | null }> {
  let tail = Buffer.alloc(0);
  const init = { method: 'POST', headers: { ...side.headers, 'content-type': 'application/json' }, body: JSON.stringify({ imageIds: ids }), signal: AbortSignal.timeout(120_000) };
  const answer = await timedDownload(side.url, init, (chunk) => (tail = Buffer.concat([tail, chunk]).subarray(-65_600)));
  if (answer.status !== 200) throw new Error(`POST ${PATH} with ${ids.length} IDs answered HTTP ${answer.status}: ${tail.toString('utf8').slice(0, 300)}`);
  return { ...answer, entries: zipEntries(tail) };
}

async function timedRun(side: ZipSide, size: number, slice: readonly string[]): Promise<void> {
  const run = await side.book.attempt(() => withRss(side.pid, () => download(side, slice)));
  if (!run) return;
  side.book.status(run.value.status);
  if (run.value.entries !== null && run.value.entries !== size) side.book.problems.push(`a zip of ${size} IDs has ${run.value.entries} entries`);
  side.runs.get(size)?.push({ ...run.value, rssBeforeMb: run.rssBeforeMb, rssPeakMb: run.rssPeakMb });
}

async function parallelRun(side: ZipSide, ids: readonly string[], who: string): Promise<string> {
  const run = await side.book.attempt(() => withRss(side.pid, () => Promise.all(Array.from({ length: PARALLEL }, () => download(side, ids)))));
  if (!run) return `${who}: failed`;
  const { value, rssBeforeMb, rssPeakMb } = run;
  for (const answer of value) side.book.status(answer.status);
  return (
    `${who}: ${round(mib(value.reduce((s, r) => s + r.bytes, 0)), 1)} MB in ${round(Math.max(...value.map((r) => r.ms)) / 1000, 2)} s, ` +
    `RSS ${round(rssBeforeMb, 0)} -> peak ${round(rssPeakMb, 0)} MB (+${round(rssPeakMb - rssBeforeMb, 1)} MB)`
  );
}

const medianMsOf = (list: readonly ZipRun[]) => median(list.map((r) => r.ms));
const largestRise = (list: readonly ZipRun[]) => Math.max(0, ...list.map(rssRise));

export const zipDownload: Scenario = {
  name: 'zip-download',
  description: `POST ${PATH} as the demo Admin: zips of 50 photos (and 10, 200; ${PARALLEL} x 200 at once), one at a time; bare yazl zip of the same files in turn`,
  dataset: 'records',
  async run(ctx) {
    const cookie = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
    const maxSize = Math.max(...SIZES);
    const minSize = Math.min(...SIZES);
    const ids = (await inspectionPage(ctx, cookie, `limit=${maxSize}&offset=100`)).logs.map((l) => l.recordId);
    if (ids.length < maxSize) throw new Error(`expected ${maxSize} record IDs from the list, got ${ids.length}`);
    const mine = sideOf(`${ctx.baseUrl}${PATH}`, { cookie }, ctx.serverPid);
    ctx.log("zip-download: finding the records' photo files for the bare ceiling ...");
    const bare = await startBareZipServer(ctx, cookie, ids).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    const theirs = typeof bare === 'string' ? null : sideOf(`${bare.baseUrl}${BARE_ZIP_PATH}`, {}, bare.pid);
    let parallelNote = '';
    try {
      // One unmeasured download first: the first zip pays for lazy code paths and file caches.
      await download(mine, ids.slice(0, 10));
      if (theirs) await download(theirs, ids.slice(0, 10)).catch(() => undefined);
      for (const size of SIZES) {
        for (let i = 0; i < REPEATS; i++) {
          // Another slice each time, so no two zips are the same request; the bare zip of the same slice right after.
          const slice = [...ids.slice(i * 7), ...ids.slice(0, i * 7)].slice(0, size);
          await timedRun(mine, size, slice);
          if (theirs) await timedRun(theirs, size, slice);
        }
      }
      const parallel = [await parallelRun(mine, ids.slice(0, maxSize), 'server')];
      if (theirs) parallel.push(await parallelRun(theirs, ids.slice(0, maxSize), 'bare'));
      parallelNote = `${PARALLEL} zips of ${maxSize} at once: ${parallel.join('; ')}`;
    } finally {
      if (typeof bare !== 'string') await bare.stop();
    }
    const runsOf = (side: ZipSide | null, size: number) => side?.runs.get(size) ?? [];
    const main = runsOf(mine, 50);
    const bareMain = runsOf(theirs, 50);
    const result = mine.book.result('zips/s', main.map((r) => r.ms), 2);
    if (main.length > 0 && bareMain.length > 0) {
      result.baseline = {
        description: `${BARE_DESCRIPTION}; the 50-photo zip, median of ${bareMain.length}`,
        productSeconds: round(medianMsOf(main) / 1000, 3),
        baselineSeconds: round(medianMsOf(bareMain) / 1000, 3),
        productRssRiseMb: round(median(main.map((r) => r.rssPeakMb - r.rssBeforeMb)), 1),
        baselineRssRiseMb: round(median(bareMain.map((r) => r.rssPeakMb - r.rssBeforeMb)), 1),
      };
    }
    const bySize = [...SIZES].sort((a, b) => a - b).map((size) => {
      const list = runsOf(mine, size);
      if (list.length === 0) return `${size} photos: no successful run`;
      const bytes = median(list.map((r) => r.bytes));
      const ms = medianMsOf(list);
      const bareList = runsOf(theirs, size);
      const bareMs = medianMsOf(bareList);
      const beside =
        bareList.length > 0
          ? `; bare ${round(bareMs, 0)} ms (first byte ${round(median(bareList.map((r) => r.firstByteMs)), 0)} ms), ` +
            `its RSS largest rise +${round(largestRise(bareList), 1)} MB: the server ${bareMs > 0 ? (ms / bareMs).toFixed(2) : '-'}x its time`
          : '';
      return (
        `${size} photos: ${round(mib(bytes), 1)} MB zip (${list[0]?.entries ?? '?'} entries) in ${round(ms, 0)} ms ` +
        `(first byte ${round(median(list.map((r) => r.firstByteMs)), 0)} ms, ${round(mib(bytes) / (ms / 1000), 0)} MB/s), ` +
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
    const small = largestRise(runsOf(mine, minSize));
    const big = largestRise(runsOf(mine, maxSize));
    result.notes.push(
      `memory vs photos: RSS rise ${round(small, 1)} MB for ${minSize} photos, ${round(big, 1)} MB for ${maxSize} ` +
        `(the ${maxSize} photos weigh ${round(mib(median(runsOf(mine, maxSize).map((r) => r.bytes))), 0)} MB: ` +
        `${big - small < 20 ? 'flat: streamed' : 'it grows with the photos: not streamed'})`,
      ...mine.book.errorNotes(),
      ...(theirs?.book.errorNotes(3, 'bare ceiling error') ?? []),
    );
    return result;
  },
};
