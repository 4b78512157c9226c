/**
 * The PDF photo report over 200 and 1,000 records with their own photos, cold and warm (judged warm), beside bare pdfkit on
 * the same print copies (bare/jobs.ts); then the records list under a steady load during a 1,000-photo report (README).
 */
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { addDays } from '../../common/rules/dates.js';
import type { Curve } from '../../common/schemas/curve.js';
import { INSPECTION_PAGE_MAX, type InspectionLog, inspectionListResponseSchema } from '../../common/schemas/inspection.js';
import { reportJobResponseSchema, reportSummarySchema } from '../../common/schemas/reports.js';
import { type JobBaseline, type PdfFigures, type PdfInput, startPdfBaseline, type WithRssFigures } from '../bare/jobs.js';
import { duringLoad, recordsListLoad, type WindowFigures, windowProblem } from '../lib/load.js';
import { fieldPhotoMaker } from '../lib/pdf-photos.js';
import { getParsed, postParsed } from '../lib/records.js';
import { curvePage } from '../lib/register.js';
import { median, round } from '../lib/stats.js';
import { formatTable } from '../lib/table.js';
import { RunBook, series, timedDownload, withServerFigures } from '../lib/timer.js';
import type { Scenario, ScenarioContext, ScenarioResult } from '../lib/types.js';
import { numberVariable } from '../lib/variables.js';
import { uploadVisit } from '../lib/visits.js';

const POST_PATH = '/api/reports/generate';
const DIVISION = 'RTM/WR';
const TYPE = 'Service';
const PHOTOS = 1000;
const SMALL = 200;
const PER_DAY = 5;
const FIRST_DAY = '2015-01-01'; // before the generated records and the demo seed's: the report's records are ours alone
const WARMUP_DAY = '2014-06-02';
const WARMUP_PHOTOS = 4;
const REPEATS = 5;
const TIME_BUDGET = 1.5;
const RSS_BUDGET_MB = 64;
const PHOTO_SEED = 0x5044_4652;
const UPLOADS_AT_ONCE = 4;
const POLL_MS = 50;
const STEP_TIMEOUT_MS = 600_000;
const LIST_CONNECTIONS = 10;
const LIST_RATE = 50; // steady, not a flood: a flood fills the event loop and starves the report (README)
const IDLE_MAX_SECONDS = 60;
const SIZES = [SMALL, PHOTOS] as const;

interface Range {
  fromDate: string;
  toDate: string;
}

async function seedVisits(ctx: ScenarioContext, cookie: string, curves: readonly Curve[], make: (index: number) => Promise<{ bytes: Buffer }>, first: number, count: number, dateOf: (i: number) => string) {
  const seeded = new Array<{ index: number; hash: string; bytes: number }>(count);
  let next = 0;
  const uploader = async () => {
    while (next < count) {
      const i = next++;
      const index = first + i;
      const { bytes } = await make(index);
      const { divisionRailway, section, curveNumber, line, station1, station2 } = curves[index % curves.length] as Curve;
      const greaseDepth = (1 + (index % 60) / 10).toFixed(1);
      const fields = { date: dateOf(i), type: TYPE, divisionRailway, section, curveNumber, line, station1, station2, serviceUpdate: 'working-fine', isMachineWorking: 'yes', greaseDepth };
      seeded[i] = { index, hash: (await uploadVisit(ctx, cookie, bytes, fields)).imageHash, bytes: bytes.length };
    }
  };
  await Promise.all(Array.from({ length: UPLOADS_AT_ONCE }, uploader));
  return seeded;
}

const printCopyOf = (ctx: ScenarioContext, hash: string) => path.join(ctx.dataDir, 'blobs', hash.slice(0, 2), hash.slice(2, 4), `${hash}.print-1200.jpg`);
const sizeOf = (file: string) => stat(file).then((s) => s.size, () => null);
/** The seeded records as the API answers them, by photo hash: the baseline prints their texts. */
async function recordsByHash(ctx: ScenarioContext, cookie: string, fromDate: string, toDate: string, count: number) {
  const byHash = new Map<string, InspectionLog>();
  for (let offset = 0; offset < count; offset += INSPECTION_PAGE_MAX) {
    const query = `type=${TYPE}&division=${encodeURIComponent(DIVISION)}&from=${fromDate}&to=${toDate}&limit=${INSPECTION_PAGE_MAX}&offset=${offset}`;
    const { logs } = (await getParsed(ctx, `/api/inspections?${query}`, cookie, inspectionListResponseSchema)).body;
    for (const log of logs) if (log.imageHash) byHash.set(log.imageHash, log);
  }
  return byHash;
}
const statusOf = async (ctx: ScenarioContext, cookie: string, reportId: string) => (await getParsed(ctx, `/api/reports/${reportId}`, cookie, reportSummarySchema)).body;

async function downloadPdf(url: string, cookie: string) {
  let head = '';
  let tail = '';
  // '/Type /Pages' (the page tree) also starts with '/Type /Page': counted apart and taken off.
  const needles = ['/Type /Page', '/Type /Pages', '/Subtype /Image'];
  const counts = [0, 0, 0];
  const download = await timedDownload(url, { headers: { cookie }, signal: AbortSignal.timeout(STEP_TIMEOUT_MS) }, (chunk) => {
    const text = tail + Buffer.from(chunk).toString('latin1');
    needles.forEach((needle, i) => {
      // Matches that end inside the carried tail were counted with the chunk before.
      for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) if (at + needle.length > tail.length) counts[i] = (counts[i] ?? 0) + 1;
    });
    if (head.length < 8) head = text.slice(0, 8);
    tail = text.slice(-64);
  });
  const pathname = new URL(url).pathname;
  if (download.status !== 200) throw new Error(`GET ${pathname} answered HTTP ${download.status}: ${tail}`);
  if (!head.startsWith('%PDF-')) throw new Error(`GET ${pathname}: the answer does not start with %PDF-`);
  if (!tail.includes('%%EOF')) throw new Error(`GET ${pathname}: the answer does not end with %%EOF (cut short?)`);
  const [page = 0, pageTree = 0, images = 0] = counts;
  return { ...download, pages: page - pageTree, images };
}

async function makeReport(ctx: ScenarioContext, cookie: string, range: Range, expected: number) {
  const started = performance.now();
  const request = { type: TYPE, division: DIVISION, fromDate: range.fromDate, toDate: range.toDate, format: 'images' };
  const { status: postStatus, ms: postMs, body: answer } = await postParsed(ctx, POST_PATH, cookie, request, reportJobResponseSchema, STEP_TIMEOUT_MS);
  if (answer.recordCount !== expected) {
    throw new Error(`POST ${POST_PATH} ${range.fromDate}..${range.toDate} counted ${answer.recordCount} records, expected ${expected}: other ${TYPE} records of ${DIVISION} in the range?`);
  }
  for (let status = answer.status; status !== 'done'; status = (await statusOf(ctx, cookie, answer.reportId)).status) {
    if (status === 'failed') throw new Error(`report ${answer.reportId} failed: ${(await statusOf(ctx, cookie, answer.reportId)).error ?? 'no reason given'}`);
    if (performance.now() - started > STEP_TIMEOUT_MS) throw new Error(`report ${answer.reportId} not done after ${STEP_TIMEOUT_MS / 1000} s`);
    await sleep(POLL_MS);
  }
  const readyMs = performance.now() - started;
  const { ms: downloadMs, ...download } = await downloadPdf(`${ctx.baseUrl}${answer.pdfUrl}`, cookie);
  return { reportId: answer.reportId, postStatus, postMs, readyMs, downloadMs, ms: readyMs + downloadMs, ...download };
}

async function measuredReport(ctx: ScenarioContext, cookie: string, label: string, range: Range, photos: number) {
  const { value: made, ...figures } = await withServerFigures(ctx, () => makeReport(ctx, cookie, range, photos));
  const { summary } = await statusOf(ctx, cookie, made.reportId);
  return { label, photos, ...range, ...made, summary, ...figures };
}
type ReportRun = Awaited<ReturnType<typeof measuredReport>>;
type BareRun = WithRssFigures<PdfFigures> & { ms: number };
const ofSize = <T extends { photos: number }>(runs: readonly T[], photos: number) => runs.filter((r) => r.photos === photos);

const s2 = (ms: number) => (ms / 1000).toFixed(2);
const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);
const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : '-');
const loadText = (connections: number, rate: number) => `${connections} connections, ${rate > 0 ? `${rate} req/s in all` : 'each sending as soon as it is answered'}`;
const printed = (run: ReportRun) => {
  const summary = run.summary as { photosPrinted?: unknown; pages?: unknown } | null;
  return { photos: typeof summary?.photosPrinted === 'number' ? summary.photosPrinted : null, pages: typeof summary?.pages === 'number' ? summary.pages : null };
};

export const pdfReport: Scenario = {
  name: 'pdf-report',
  description: `POST ${POST_PATH} {type: ${TYPE}, division: ${DIVISION}} over ${SMALL} and ${PHOTOS} records with ~300 KB photos + the download, as the demo Admin; cold and warm (x${REPEATS}); bare pdfkit baseline in turn; the records list under load during the ${PHOTOS}-photo report`,
  budget: {
    description:
      `PDF report with 1,000 photos: POST to the last byte <= ${TIME_BUDGET}x bare pdfkit embedding the same print-size photos with the same fonts and texts (warm: print copies already kept), in the same run; ` +
      `peak RSS within ${RSS_BUDGET_MB} MB between 200 and 1,000 photos (judged in the notes) (docs/architecture.md, 'Budgets')`,
    maxRatioToBaseline: TIME_BUDGET,
  },
  dataset: 'records',
  async run(ctx) {
    const listRate = numberVariable('BENCH_PDF_LIST_RATE', LIST_RATE, { allowZero: true, integer: true });
    const admin = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
    const technician = await ctx.signIn(ctx.demo.byRole('Technician').employeeId);
    const { curves } = await curvePage(ctx, admin, `division=${encodeURIComponent(DIVISION)}&limit=200`);
    if (curves.length === 0) throw new Error(`GET /api/consolidated-curves returned no curve of ${DIVISION}`);
    const book = new RunBook();
    const { problems } = book;
    const mark = performance.now();
    const maker = await fieldPhotoMaker({ seed: PHOTO_SEED });
    const lastDay = addDays(FIRST_DAY, PHOTOS / PER_DAY - 1);
    const smallLastDay = addDays(FIRST_DAY, SMALL / PER_DAY - 1);
    ctx.log(`pdf-report: making and uploading ${PHOTOS + WARMUP_PHOTOS} photos (${DIVISION} ${TYPE} records ${FIRST_DAY}..${lastDay}) ...`);
    const seeded = await seedVisits(ctx, technician, curves, maker.make, 0, PHOTOS, (i) => addDays(FIRST_DAY, Math.floor(i / PER_DAY)));
    const warmupSeeded = await seedVisits(ctx, technician, curves, maker.make, PHOTOS, WARMUP_PHOTOS, () => WARMUP_DAY);
    const seedSeconds = (performance.now() - mark) / 1000;
    const photoKb = seeded.map((p) => p.bytes / 1024);
    ctx.log(`pdf-report: ${seeded.length} photos uploaded in ${seedSeconds.toFixed(1)} s (mean ${Math.round(mean(photoKb))} KB)`);
    // Inside the scratch DATA_DIR (not the server's blobs): removed with it, even on Ctrl-C.
    const photosDir = path.join(ctx.dataDir, 'bench-pdf-baseline-photos');
    await mkdir(photosDir, { recursive: true });
    // The photo worker makes every uploaded photo's print copy in the lull after the uploads: wait
    // for it to finish, then remove the seeded photos' copies, so the cold runs make them again.
    let records = await recordsByHash(ctx, admin, WARMUP_DAY, lastDay, PHOTOS + WARMUP_PHOTOS);
    const decodesBy = performance.now() + STEP_TIMEOUT_MS;
    while ([...records.values()].some((record) => record.photoState === 'pending')) {
      if (performance.now() > decodesBy) throw new Error('the photo worker did not decode the uploaded photos in time');
      await sleep(500);
      records = await recordsByHash(ctx, admin, WARMUP_DAY, lastDay, PHOTOS + WARMUP_PHOTOS);
    }
    for (const photo of seeded) await rm(printCopyOf(ctx, photo.hash), { force: true });
    const recordOf = (hash: string) => {
      const record = records.get(hash);
      if (!record) throw new Error(`GET /api/inspections did not answer the record of photo ${hash}`);
      return record;
    };
    let baseline: JobBaseline<PdfInput, PdfFigures> | null = null;
    const [cold, warm, bare] = [[] as ReportRun[], [] as ReportRun[], [] as BareRun[]];
    let loaded: { run: ReportRun; load: WindowFigures; idle: WindowFigures } | null = null;
    let reuse: { ms: number; same: boolean } | null = null;
    const printKb: number[] = [];
    // fromDate one day earlier each run (no records there): a report is reused only for the same parameters, so each is made anew.
    let shift = 0;
    const report = async (label: string, photos: number) => {
      const range = { fromDate: addDays(FIRST_DAY, -shift++), toDate: photos === SMALL ? smallLastDay : lastDay };
      const run = await measuredReport(ctx, admin, label, range, photos);
      book.status(run.postStatus);
      book.expectNew(run.reportId, label);
      const placed = printed(run).photos;
      if (placed !== photos) problems.push(`${label}: the report's summary says ${String(placed)} photos printed of ${photos}`);
      if (run.images !== photos) problems.push(`${label}: the PDF embeds ${run.images} images for ${photos} photos`);
      if (run.pages < photos / 2 + 1) problems.push(`${label}: the PDF has ${run.pages} pages for ${photos} photos two to a page and a first page`);
      ctx.log(
        `pdf-report: ${label}: ${s2(run.ms)} s (ready ${s2(run.readyMs)} s, download ${s2(run.downloadMs)} s), ${mb(run.bytes)} MB, ${run.pages} pages, ${run.images} images, ` +
          `server RSS ${round(run.rssBeforeMb, 0)} -> ${round(run.rssPeakMb, 0)} MB, CPU ${run.serverCpu === null ? '-' : round(run.serverCpu, 1)} s`,
      );
      return run;
    };
    const baselineRun = async (pdfkit: JobBaseline<PdfInput, PdfFigures>, photos: number) => {
      const files = Array.from({ length: photos }, (_, i) => path.join(photosDir, `${String(i).padStart(4, '0')}.jpg`));
      const run = await pdfkit.run({ files, records: seeded.slice(0, photos).map((p) => recordOf(p.hash)) });
      if (run.photos !== photos) problems.push(`baseline ${photos}: placed ${run.photos} photos`);
      bare.push({ ...run, ms: run.seconds * 1000 });
      ctx.log(`pdf-report: baseline ${photos} photos: ${run.seconds.toFixed(2)} s, ${mb(run.bytes)} MB, ${run.pages} pages, RSS ${round(run.rssBeforeMb, 0)} -> ${round(run.rssPeakMb, 0)} MB`);
    };
    try {
      baseline = await startPdfBaseline();
      // Unmeasured: the first report and the first baseline pay for fonts, lazy code and cold caches.
      const first = await makeReport(ctx, admin, { fromDate: WARMUP_DAY, toDate: WARMUP_DAY }, WARMUP_PHOTOS);
      book.status(first.postStatus);
      book.expectNew(first.reportId, 'warm-up report');
      await baseline.run({ files: warmupSeeded.map((p) => printCopyOf(ctx, p.hash)), records: warmupSeeded.map((p) => recordOf(p.hash)) });
      // Cold: the first report over these photos makes (and keeps) their print copies.
      cold.push(await report(`cold ${SMALL} photos (print copies made)`, SMALL));
      const stray = (await Promise.all(seeded.slice(SMALL).map((p) => sizeOf(printCopyOf(ctx, p.hash))))).filter((size) => size !== null).length;
      if (stray > 0) problems.push(`cold ${SMALL}: ${stray} print copies of photos outside the report were made`);
      // Then all 1,000 cold: the 200 copies just made removed first, as if those photos were new.
      for (const photo of seeded.slice(0, SMALL)) await rm(printCopyOf(ctx, photo.hash), { force: true });
      cold.push(await report(`cold ${PHOTOS} photos (print copies made)`, PHOTOS));
      // The baseline gets the very bytes the server made, copied out of its blob store.
      for (const photo of seeded) {
        const copy = printCopyOf(ctx, photo.hash);
        const size = await sizeOf(copy);
        if (size === null) throw new Error(`no print copy of photo ${photo.index} (${copy}) after its cold report`);
        printKb.push(size / 1024);
        await copyFile(copy, path.join(photosDir, `${String(photo.index).padStart(4, '0')}.jpg`));
      }
      // Warm, in pairs (200 then 1,000): the server's RSS creeps up from report to report, so peaks are compared within a pair.
      for (let i = 0; i < REPEATS; i++) {
        for (const photos of SIZES) {
          warm.push(await report(`warm ${photos} photos, run ${i + 1}`, photos));
          await baselineRun(baseline, photos);
        }
      }
      // The same request again with no new data: the report already made, not made again.
      const last = warm.at(-1);
      if (last) {
        const again = await makeReport(ctx, admin, { fromDate: last.fromDate, toDate: last.toDate }, PHOTOS);
        reuse = { ms: again.readyMs, same: again.reportId === last.reportId };
        if (!reuse.same) problems.push('the same request with no new data made a new report instead of answering the one made');
      }
      // The records list while a 1,000-photo report is made, then the same load alone as long.
      const listLoad = recordsListLoad(admin, ctx.connections(LIST_CONNECTIONS), listRate);
      ctx.log(`pdf-report: the records list (${loadText(listLoad.connections, listRate)}) during a ${PHOTOS}-photo report ...`);
      const during = await duringLoad(ctx, listLoad, () => report(`warm ${PHOTOS} photos under the list load`, PHOTOS));
      const idleSeconds = Math.min(IDLE_MAX_SECONDS, during.load.seconds);
      ctx.log(`pdf-report: ... and without a report for ${idleSeconds.toFixed(1)} s`);
      const idle = (await duringLoad(ctx, listLoad, () => sleep(idleSeconds * 1000))).load;
      loaded = { run: during.value, load: during.load, idle };
      for (const problem of [windowProblem('records list during the report', during.load), windowProblem('records list without a report', idle)]) if (problem) problems.push(problem);
    } finally {
      await baseline?.stop();
      await rm(photosDir, { recursive: true, force: true });
    }
    const [warmSmall, warmLarge] = SIZES.map((photos) => ofSize(warm, photos)) as [ReportRun[], ReportRun[]];
    const [bareSmall, bareLarge] = SIZES.map((photos) => ofSize(bare, photos)) as [BareRun[], BareRun[]];
    const med = (runs: readonly { ms: number }[]) => median(runs.map((r) => r.ms)) / 1000;
    const peak = (runs: readonly { rssPeakMb: number }[]) => median(runs.map((r) => r.rssPeakMb));
    const rise = (runs: readonly { rssPeakMb: number; rssBeforeMb: number }[]) => median(runs.map((r) => r.rssPeakMb - r.rssBeforeMb));
    const productSeconds = med(warmLarge);
    const baselineSeconds = med(bareLarge);
    const result: ScenarioResult = {
      ...book.result('reports/s', warmLarge.map((r) => r.ms)),
      baseline: {
        description: `bare pdfkit in its own process, the same ${PHOTOS} print-size photos two to an A4 page with the report's Noto fonts and texts into a file, median of ${bareLarge.length}; the product warm (print copies kept), median of ${warmLarge.length}`,
        productSeconds: round(productSeconds),
        baselineSeconds: round(baselineSeconds),
        productRssRiseMb: round(rise(warmLarge), 1),
        baselineRssRiseMb: round(rise(bareLarge), 1),
      },
    };
    const notes = result.notes;
    const rows = SIZES.flatMap((photos) => {
      const [bareRuns, warmRuns] = [ofSize(bare, photos), ofSize(warm, photos)];
      return ([['cold (copies made)', ofSize(cold, photos)], [`warm (median of ${warmRuns.length})`, warmRuns]] as const)
        .filter(([, runs]) => runs.length > 0)
        .map(([label, runs]) => {
          const cpu = runs.flatMap((r) => r.serverCpu ?? []);
          return [
            label,
            String(photos),
            med(runs).toFixed(2),
            med(bareRuns).toFixed(2),
            ratio(med(runs), med(bareRuns)),
            `${round(median(runs.map((r) => r.rssBeforeMb)), 0)} -> ${round(peak(runs), 0)}`,
            String(round(peak(bareRuns), 0)),
            String(mb(median(runs.map((r) => r.bytes)))),
            cpu.length ? median(cpu).toFixed(1) : '-',
            median(bareRuns.map((r) => r.cpuSeconds)).toFixed(2),
          ];
        });
    });
    const headers = ['report', 'photos', 'product s', 'pdfkit s', 'ratio', 'server RSS MB (before -> peak)', 'pdfkit peak RSS MB', 'PDF MB', 'server CPU s', 'pdfkit CPU s'];
    const table = formatTable(headers.map((header, i) => (i === 0 ? { header } : { header, align: 'right' as const })), rows);
    for (const line of table.split('\n')) notes.push(`| ${line}`);
    // The time budget is judged and printed by the runner (`judge` in lib/report.ts); the memory budget only here: judge has no limit on a difference between two runs.
    if (warmLarge.length > 0 && warmSmall.length > 0) {
      const pairDifferences = (large: readonly { rssPeakMb: number }[], small: readonly { rssPeakMb: number }[]) =>
        large.flatMap((run, i) => (small[i] ? [run.rssPeakMb - small[i].rssPeakMb] : []));
      const pairs = pairDifferences(warmLarge, warmSmall);
      const difference = median(pairs);
      const ok = difference < RSS_BUDGET_MB;
      const peaks = (runs: readonly { rssPeakMb: number }[]) => runs.map((r) => r.rssPeakMb.toFixed(0)).join(' / ');
      const rises = (runs: readonly { rssPeakMb: number; rssBeforeMb: number }[]) => runs.map((r) => `+${(r.rssPeakMb - r.rssBeforeMb).toFixed(0)}`).join(' / ');
      // fromDate moves one day earlier with every report made: newest fromDate = made first.
      const inOrder = [...cold, ...warmSmall, ...warmLarge].sort((a, b) => b.fromDate.localeCompare(a.fromDate));
      const riseDifference = rise(warmLarge) - rise(warmSmall);
      notes.push(
        `budget memory: server peak RSS, ${PHOTOS}-photo report minus the ${SMALL}-photo report made just before it, median of ${pairs.length} pairs: ` +
          `${difference.toFixed(1)} MB ${ok ? '<' : '>='} ${RSS_BUDGET_MB} MB: ${ok ? 'pass' : 'FAIL'} ` +
          `(pairs ${series(pairs, 0, true)} MB; peaks ${PHOTOS}: ${peaks(warmLarge)}, ${SMALL}: ${peaks(warmSmall)} MB; ` +
          `bare pdfkit's peaks ${PHOTOS}: ${peaks(bareLarge)}, ${SMALL}: ${peaks(bareSmall)} MB, pairs median ${median(pairDifferences(bareLarge, bareSmall)).toFixed(1)} MB). ` +
          `Judged here, not by the runner (judge in lib/report.ts has no limit on a difference between two runs)`,
        `memory, run by run: the server's RSS before -> peak, in the order run: ${inOrder.map((r) => `${r.label.startsWith('cold') ? 'cold ' : ''}${r.photos}: ${r.rssBeforeMb.toFixed(0)} -> ${r.rssPeakMb.toFixed(0)}`).join(', ')} MB. ` +
          `Each warm run's rise over the RSS just before it: ${PHOTOS} photos ${rises(warmLarge)} MB, ${SMALL} photos ${rises(warmSmall)} MB, ` +
          `difference of the medians ${riseDifference.toFixed(1)} MB (${riseDifference < RSS_BUDGET_MB ? 'also' : 'NOT'} under ${RSS_BUDGET_MB} MB; for information); ` +
          `bare pdfkit's rises ${PHOTOS}: ${rises(bareLarge)}, ${SMALL}: ${rises(bareSmall)} MB`,
      );
    }
    if (loaded) {
      const { run, load, idle } = loaded;
      const latency = (w: WindowFigures) => `p99 ${w.latencyMs.p99.toFixed(1)} ms (p50 ${w.latencyMs.p50.toFixed(1)}, max ${w.latencyMs.max.toFixed(0)} ms, ${w.throughput} req/s`;
      const when = (list: WindowFigures['slowest']) => list.map((r) => `${r.ms.toFixed(0)} ms sent at ${r.sentAtSeconds.toFixed(2)} s`).join(', ');
      notes.push(
        `records list (GET /api/inspections?limit=50&offset=0..950 as the demo Admin, ${loadText(ctx.connections(LIST_CONNECTIONS), listRate)}) while the ${PHOTOS}-photo report was made: ` +
          `${latency(load)} over ${load.seconds.toFixed(1)} s) vs ${latency(idle)}) without a report, same load as long, right after: ` +
          `p99 ratio ${ratio(load.latencyMs.p99, idle.latencyMs.p99)}, throughput ${idle.throughput > 0 ? `${((100 * load.throughput) / idle.throughput).toFixed(0)}%` : '-'}; ` +
          `the report took ${s2(run.ms)} s under the load (${productSeconds.toFixed(2)} s alone). No budget is given for it (budget: the records view stays within its budget while a big report is made)`,
        `records list, the slowest answers during the report: ${when(load.slowest)} (the window opened with the POST; the report was done at ${s2(run.readyMs)} s, ` +
          `its download ended at ${s2(run.ms)} s); without a report: ${when(idle.slowest.slice(0, 3))}`,
      );
    }
    notes.push(
      `data: ${PHOTOS} ${TYPE} records of ${DIVISION} dated ${FIRST_DAY}..${lastDay} (${PER_DAY} a day; the ${SMALL}-photo report: ${FIRST_DAY}..${smallLastDay}), each with its own photo ` +
        `(1920x1080, every fifth 1080x1920, JPEG q80, ${Math.round(mean(photoKb))} KB mean, ${Math.round(Math.min(...photoKb))}..${Math.round(Math.max(...photoKb))} KB), made and uploaded through POST /api/inspections/upload ` +
        `as the demo Technician before timing (${seedSeconds.toFixed(0)} s); the server's print copies (1200 px, q60) ${Math.round(mean(printKb))} KB mean. ` +
        `Every run asks for the same records with fromDate one day earlier (no records there), so each is made anew (${book.seen.size} distinct reports)` +
        (reuse ? `; the same request again answered the report already made in ${reuse.ms.toFixed(0)} ms (${reuse.same ? 'reused' : 'made again!'})` : ''),
    );
    const made = [...cold, ...warmSmall, ...warmLarge];
    for (const r of [...made, ...(loaded ? [loaded.run] : [])]) {
      notes.push(
        `${r.label}: ${s2(r.ms)} s (POST ${r.postStatus} in ${s2(r.postMs)} s, done after ${s2(r.readyMs)} s, download ${s2(r.downloadMs)} s, first byte ${r.firstByteMs.toFixed(0)} ms; CPU server ${r.serverCpu === null ? '-' : r.serverCpu.toFixed(1)} s` +
          (r.serverMainCpu !== null ? ` (main thread ${r.serverMainCpu.toFixed(1)} s)` : '') +
          // Negative when PostgreSQL processes ended between the two readings: not shown.
          (r.databaseCpu !== null && r.databaseCpu >= 0 ? `, PostgreSQL ${r.databaseCpu.toFixed(1)} s` : '') +
          `; RSS ${r.rssBeforeMb.toFixed(0)} -> ${r.rssPeakMb.toFixed(0)} MB; ${r.pages} pages, ${r.images} images, ${mb(r.bytes)} MB)`,
      );
    }
    const miscounted = made.find((r) => printed(r).pages !== r.pages);
    if (miscounted) notes.push(`odd: the report job's summary says ${String(printed(miscounted).pages)} pages; its PDF has ${miscounted.pages} (${miscounted.label})`);
    for (const photos of SIZES) {
      const runs = ofSize(bare, photos);
      if (runs.length === 0) continue;
      notes.push(
        `bare pdfkit ${photos} photos (own process; reads each print copy from disk, four ahead, places it two to an A4 page under its record's title line and above its fields, with the page's header and footer, in the report's Noto fonts and words, streams into a file): ` +
          `${series(runs.map((b) => b.seconds), 2)} s (waiting for the photos ${series(runs.map((b) => b.readSeconds), 2)} s; CPU ${median(runs.map((b) => b.cpuSeconds)).toFixed(2)} s), ` +
          `${mb(runs[0]?.bytes ?? 0)} MB, ${runs[0]?.pages ?? 0} pages; RSS before ${series(runs.map((b) => b.rssBeforeMb), 0)}, peak ${series(runs.map((b) => b.rssPeakMb), 0)} MB`,
      );
    }
    notes.push(...book.errorNotes());
    return result;
  },
};
