import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { addDays } from '../../common/rules/dates.js';
import { type JobBaseline, type PdfFigures, startPdfBaseline, type WithRssFigures } from '../bare/jobs.js';
import { duringLoad, type WindowFigures } from '../lib/load-window.js';
import { fieldPhotoMaker } from '../lib/pdf-photos.js';
import { RunBook, series } from '../lib/runs.js';
import { median, round } from '../lib/stats.js';
import { DIVISION, divisionCurves, makeReport, measuredReport, POST_PATH, printCopyOf, type ReportRun, type SeededPhoto, seedVisits, sizeOf, TYPE } from '../lib/pdf-report-run.js';
import { formatTable } from '../lib/table.js';
import { sequentialResult } from '../lib/timer.js';
import type { Scenario, ScenarioResult } from '../lib/types.js';

const PHOTOS = 1000;
const SMALL = 200;
const PER_DAY = 5;
/** Years before the generated records (three years up to today) and the demo seed's: the report's records are ours alone. */
const FIRST_DAY = '2015-01-01';
/** A few records of their own for the unmeasured first report (fonts, code paths). */
const WARMUP_DAY = '2014-06-02';
const WARMUP_PHOTOS = 4;
/** Warm reports of each size, each in turn with the baseline on the same photos; the median counts. */
const REPEATS = 5;
const TIME_BUDGET = 3;
const RSS_BUDGET_MB = 64;
const LIST_PAGE = 50;
/** The records view's list, as inspections-page walks it: the first 20 pages in turn. */
const LIST_PAGES = 20;
const PHOTO_SEED = 0x5044_4652;
/**
 * The records-list load during the report: a steady rate from a few connections (a busy
 * zone's admins and clients paging through records), not a flood: a flood of reads that
 * keeps the server's event loop full starves the report, whose every step waits its turn
 * (BENCH_PDF_LIST_RATE=0 floods; see README).
 */
const LIST_CONNECTIONS = 10;
const LIST_RATE = 50;
/** The same load without a report runs as long as the report did, but no longer than this. */
const IDLE_MAX_SECONDS = 60;

const loadText = (load: { connections: number; overallRate: number }) =>
  `${load.connections} connections, ${load.overallRate > 0 ? `${load.overallRate} req/s in all` : 'each sending as soon as it is answered'}`;

const s2 = (ms: number) => (ms / 1000).toFixed(2);
const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);
/** What the report's job says it printed (GET /api/reports/{id} summary). */
const printed = (run: ReportRun) => {
  const summary = run.summary as { photosPrinted?: unknown; pages?: unknown } | null;
  return { photos: typeof summary?.photosPrinted === 'number' ? summary.photosPrinted : null, pages: typeof summary?.pages === 'number' ? summary.pages : null };
};
/** BENCH_PDF_LIST_RATE: requests per second of the records-list load (0: as fast as it answers). */
function listRate(): number {
  const raw = process.env.BENCH_PDF_LIST_RATE?.trim();
  if (!raw) return LIST_RATE;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`BENCH_PDF_LIST_RATE must be a whole number >= 0, got '${raw}'`);
  return value;
}

/**
 * The PDF photo report at a division's month-to-half-year scale (docs/architecture.md, 'Budgets'): POST
 * /api/reports/generate {type: Service, division: RTM/WR, fromDate, toDate, format: images} as
 * the demo Admin over 200 and over 1,000 records, each with its own ~300 KB photo (uploaded
 * through the product before timing), followed until done and downloaded to the last byte,
 * beside bare pdfkit embedding the same print-size photos in its own process. Cold (the print
 * copies made during the report) and warm (kept); the budget is judged warm. Then the records
 * list under load while a 1,000-photo report is made, and the same load without one.
 */
export const pdfReport: Scenario = {
  name: 'pdf-report',
  description: `POST ${POST_PATH} {type: ${TYPE}, division: ${DIVISION}} over ${SMALL} and ${PHOTOS} records with ~300 KB photos + the download, as the demo Admin; cold and warm (x${REPEATS}); bare pdfkit baseline in turn; the records list under load during the ${PHOTOS}-photo report`,
  budget: {
    description:
      `PDF report with 1,000 photos: POST to the last byte <= ${TIME_BUDGET}x bare pdfkit embedding the same print-size photos (warm: print copies already kept), in the same run; ` +
      `peak RSS within ${RSS_BUDGET_MB} MB between 200 and 1,000 photos (judged in the notes) (docs/architecture.md, 'Budgets')`,
    maxRatioToBaseline: TIME_BUDGET,
  },
  dataset: 'records',
  async run(ctx) {
    const admin = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
    const technician = await ctx.signIn(ctx.demo.byRole('Technician').employeeId);
    const curves = await divisionCurves(ctx, admin);
    const book = new RunBook();
    const { problems } = book;
    const count = (run: { reportId: string; postStatus: number; label: string }) => {
      book.status(run.postStatus);
      book.expectNew(run.reportId, run.label);
    };

    // The data: 1,000 records of one division, five a day, each with its own photo.
    const mark = performance.now();
    const maker = await fieldPhotoMaker({ seed: PHOTO_SEED });
    const lastDay = addDays(FIRST_DAY, PHOTOS / PER_DAY - 1);
    const smallLastDay = addDays(FIRST_DAY, SMALL / PER_DAY - 1);
    ctx.log(`pdf-report: making and uploading ${PHOTOS + WARMUP_PHOTOS} photos (${DIVISION} ${TYPE} records ${FIRST_DAY}..${lastDay}) ...`);
    const seeded = await seedVisits(ctx, technician, curves, maker.make, 0, PHOTOS, (i) => addDays(FIRST_DAY, Math.floor(i / PER_DAY)));
    const warmupSeeded = await seedVisits(ctx, technician, curves, maker.make, PHOTOS, WARMUP_PHOTOS, () => WARMUP_DAY);
    const seedSeconds = (performance.now() - mark) / 1000;
    const photoKb = seeded.map((p) => p.bytes / 1024);
    ctx.log(`pdf-report: ${seeded.length} photos uploaded in ${seedSeconds.toFixed(1)} s (mean ${Math.round(photoKb.reduce((a, b) => a + b, 0) / photoKb.length)} KB)`);

    // Inside the scratch DATA_DIR (not the server's blobs): removed with it, even on Ctrl-C.
    const photosDir = path.join(ctx.dataDir, 'bench-pdf-baseline-photos');
    await mkdir(photosDir, { recursive: true });
    let baseline: JobBaseline<string[], PdfFigures> | null = null;
    const cold: ReportRun[] = [];
    const warm: Record<number, ReportRun[]> = { [SMALL]: [], [PHOTOS]: [] };
    const bare: Record<number, WithRssFigures<PdfFigures>[]> = { [SMALL]: [], [PHOTOS]: [] };
    let loaded: { run: ReportRun; load: WindowFigures } | null = null;
    let idle: WindowFigures | null = null;
    let reuse: { ms: number; same: boolean } | null = null;
    const printKb: number[] = [];
    // Each run asks for the same records under new parameters (fromDate one day earlier, where
    // there are none): a report is reused only for the same parameters and data, so each is made.
    let shift = 0;
    const range = (photos: number) => ({ fromDate: addDays(FIRST_DAY, -shift++), toDate: photos === SMALL ? smallLastDay : lastDay });
    const report = async (label: string, photos: number) => {
      const run = await measuredReport(ctx, admin, label, range(photos), photos);
      count(run);
      const { photos: placed } = printed(run);
      if (placed !== photos) problems.push(`${label}: the report's summary says ${String(placed)} photos printed of ${photos}`);
      if (run.images !== photos) problems.push(`${label}: the PDF embeds ${run.images} images for ${photos} photos`);
      if (run.pages < photos / 2 + 1) problems.push(`${label}: the PDF has ${run.pages} pages for ${photos} photos two to a page and a first page`);
      ctx.log(
        `pdf-report: ${label}: ${s2(run.ms)} s (ready ${s2(run.readyMs)} s, download ${s2(run.downloadMs)} s), ${mb(run.bytes)} MB, ${run.pages} pages, ${run.images} images, ` +
          `server RSS ${round(run.rssBeforeMb, 0)} -> ${round(run.rssPeakMb, 0)} MB, CPU ${run.serverCpu === null ? '-' : round(run.serverCpu, 1)} s`,
      );
      return run;
    };
    const baselineRun = async (photos: number) => {
      if (!baseline) throw new Error('no baseline');
      const files = Array.from({ length: photos }, (_, i) => path.join(photosDir, `${String(i).padStart(4, '0')}.jpg`));
      const run = await baseline.run(files);
      if (run.photos !== photos) problems.push(`baseline ${photos}: placed ${run.photos} photos`);
      bare[photos]?.push(run);
      ctx.log(`pdf-report: baseline ${photos} photos: ${run.seconds.toFixed(2)} s, ${mb(run.bytes)} MB, ${run.pages} pages, RSS ${round(run.rssBeforeMb, 0)} -> ${round(run.rssPeakMb, 0)} MB`);
      return run;
    };

    try {
      baseline = await startPdfBaseline();
      // Unmeasured: the first report and the first baseline pay for fonts, lazy code and cold caches.
      const first = await makeReport(ctx, admin, { fromDate: WARMUP_DAY, toDate: WARMUP_DAY }, WARMUP_PHOTOS);
      count({ ...first, label: 'warm-up report' });
      const warmupFiles = warmupSeeded.map((p) => printCopyOf(ctx, p.hash));
      await baseline.run(warmupFiles);

      // Cold, each size: the first report over these photos makes (and keeps) their print
      // copies; the baseline then gets the very bytes the server made, copied out of its blob store.
      const copies = async (photos: readonly SeededPhoto[]) => {
        for (const photo of photos) {
          const copy = printCopyOf(ctx, photo.hash);
          const size = await sizeOf(copy);
          if (size === null) throw new Error(`no print copy of photo ${photo.index} (${copy}) after its cold report`);
          if (photos.length === PHOTOS) printKb.push(size / 1024);
          await copyFile(copy, path.join(photosDir, `${String(photo.index).padStart(4, '0')}.jpg`));
        }
      };
      cold.push(await report(`cold ${SMALL} photos (print copies made)`, SMALL));
      const stray = (await Promise.all(seeded.slice(SMALL).map((p) => sizeOf(printCopyOf(ctx, p.hash))))).filter((size) => size !== null).length;
      if (stray > 0) problems.push(`cold ${SMALL}: ${stray} print copies of photos outside the report were made`);
      // Then all 1,000 cold: the 200 copies just made removed first, as if those photos were new.
      for (const photo of seeded.slice(0, SMALL)) await rm(printCopyOf(ctx, photo.hash), { force: true });
      cold.push(await report(`cold ${PHOTOS} photos (print copies made)`, PHOTOS));
      await copies(seeded);

      // Warm, in pairs (200 then 1,000 right after, each in turn with the baseline): the
      // budget's figures. The server's RSS creeps up from report to report and does not come
      // back down, so peaks are compared within a pair, two reports apart, not across the run.
      for (let i = 0; i < REPEATS; i++) {
        for (const photos of [SMALL, PHOTOS]) {
          warm[photos]?.push(await report(`warm ${photos} photos, run ${i + 1}`, photos));
          await baselineRun(photos);
        }
      }

      // The same request again with no new data: the report already made, not made again.
      const last = warm[PHOTOS]?.at(-1);
      if (last) {
        const again = await makeReport(ctx, admin, { fromDate: last.fromDate, toDate: last.toDate }, PHOTOS);
        reuse = { ms: again.readyMs, same: again.reportId === last.reportId };
        if (!reuse.same) problems.push('the same request with no new data made a new report instead of answering the one made');
      }

      // The records list while a 1,000-photo report is made, then the same load alone as long.
      let turn = 0;
      const listLoad = {
        path: `/api/inspections?limit=${LIST_PAGE}&offset=0`,
        nextPath: () => `/api/inspections?limit=${LIST_PAGE}&offset=${(turn++ % LIST_PAGES) * LIST_PAGE}`,
        headers: { cookie: admin },
        connections: ctx.connections(LIST_CONNECTIONS),
        overallRate: listRate(),
      };
      ctx.log(`pdf-report: the records list (${loadText(listLoad)}) during a ${PHOTOS}-photo report ...`);
      const during = await duringLoad(ctx, listLoad, () => report(`warm ${PHOTOS} photos under the list load`, PHOTOS));
      loaded = { run: during.value, load: during.load };
      const idleSeconds = Math.min(IDLE_MAX_SECONDS, during.load.seconds);
      ctx.log(`pdf-report: ... and without a report for ${idleSeconds.toFixed(1)} s`);
      idle = (await duringLoad(ctx, listLoad, () => sleep(idleSeconds * 1000))).load;
      for (const [label, figures] of [
        ['during the report', during.load],
        ['without a report', idle],
      ] as const) {
        if (figures.errors + figures.non2xx > 0) {
          problems.push(
            `records list ${label}: ${figures.errors} errors, ${figures.non2xx} non-2xx` + (figures.firstUnexpected ? ` (first: HTTP ${figures.firstUnexpected.status} ${figures.firstUnexpected.body})` : ''),
          );
        }
      }
    } finally {
      await baseline?.stop();
      await rm(photosDir, { recursive: true, force: true });
    }
    const listText = loadText({ connections: ctx.connections(LIST_CONNECTIONS), overallRate: listRate() });

    // The figures.
    const warmLarge = warm[PHOTOS] ?? [];
    const warmSmall = warm[SMALL] ?? [];
    const bareLarge = bare[PHOTOS] ?? [];
    const bareSmall = bare[SMALL] ?? [];
    const med = (runs: readonly { ms: number }[]) => median(runs.map((r) => r.ms)) / 1000;
    const medBare = (runs: readonly WithRssFigures<PdfFigures>[]) => median(runs.map((r) => r.seconds));
    const peak = (runs: readonly { rssPeakMb: number }[]) => median(runs.map((r) => r.rssPeakMb));
    const rise = (runs: readonly { rssPeakMb: number; rssBeforeMb: number }[]) => median(runs.map((r) => r.rssPeakMb - r.rssBeforeMb));
    const productSeconds = med(warmLarge);
    const baselineSeconds = medBare(bareLarge);

    const result: ScenarioResult = {
      ...sequentialResult('reports/s', warmLarge.map((r) => r.ms), book.statusCodes, problems.length),
      baseline: {
        description: `bare pdfkit in its own process, the same ${PHOTOS} print-size photos two to an A4 page into a file, median of ${bareLarge.length}; the product warm (print copies kept), median of ${warmLarge.length}`,
        productSeconds: round(productSeconds),
        baselineSeconds: round(baselineSeconds),
        productRssRiseMb: round(rise(warmLarge), 1),
        baselineRssRiseMb: round(rise(bareLarge), 1),
      },
    };
    const notes = result.notes;
    const coldOf = (photos: number) => cold.find((r) => r.photos === photos);
    const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : '-');
    const rows: string[][] = [];
    for (const photos of [SMALL, PHOTOS]) {
      const bareRuns = bare[photos] ?? [];
      const b = medBare(bareRuns);
      const bPeak = peak(bareRuns);
      const bCpu = median(bareRuns.map((r) => r.cpuSeconds));
      // The cold run (one) and the warm runs (their medians), each beside the baseline's medians.
      const c = coldOf(photos);
      const w = warm[photos] ?? [];
      for (const [label, runs] of [
        ['cold (copies made)', c ? [c] : []],
        [`warm (median of ${w.length})`, w],
      ] as const) {
        if (runs.length === 0) continue;
        const cpu = runs.flatMap((r) => (r.serverCpu === null ? [] : [r.serverCpu]));
        rows.push([
          label,
          String(photos),
          med(runs).toFixed(2),
          b.toFixed(2),
          ratio(med(runs), b),
          `${round(median(runs.map((r) => r.rssBeforeMb)), 0)} -> ${round(peak(runs), 0)}`,
          String(round(bPeak, 0)),
          String(mb(median(runs.map((r) => r.bytes)))),
          cpu.length ? median(cpu).toFixed(1) : '-',
          bCpu.toFixed(2),
        ]);
      }
    }
    const table = formatTable(
      [
        { header: 'report' },
        { header: 'photos', align: 'right' },
        { header: 'product s', align: 'right' },
        { header: 'pdfkit s', align: 'right' },
        { header: 'ratio', align: 'right' },
        { header: 'server RSS MB (before -> peak)', align: 'right' },
        { header: 'pdfkit peak RSS MB', align: 'right' },
        { header: 'PDF MB', align: 'right' },
        { header: 'server CPU s', align: 'right' },
        { header: 'pdfkit CPU s', align: 'right' },
      ],
      rows,
    );
    for (const line of table.split('\n')) notes.push(`| ${line}`);

    // Budget 1 (also judged by the runner), budget 2 (judged here: lib/budget.ts has no limit on a difference between two runs).
    if (productSeconds > 0 && baselineSeconds > 0) {
      const r = productSeconds / baselineSeconds;
      notes.push(`budget time: warm ${PHOTOS}-photo report ${productSeconds.toFixed(2)} s vs bare pdfkit ${baselineSeconds.toFixed(2)} s = ${r.toFixed(2)}x ${r <= TIME_BUDGET ? '<=' : '>'} ${TIME_BUDGET}x: ${r <= TIME_BUDGET ? 'pass' : 'FAIL'} (judged warm: the baseline embeds photos already print-sized)`);
    }
    if (warmLarge.length > 0 && warmSmall.length > 0) {
      // Pair i: the 200-photo report and the 1,000-photo report made right after it.
      const peakDifferences = (large: readonly { rssPeakMb: number }[], small: readonly { rssPeakMb: number }[]) =>
        large.flatMap((run, i) => {
          const before = small[i];
          return before ? [run.rssPeakMb - before.rssPeakMb] : [];
        });
      const pairs = peakDifferences(warmLarge, warmSmall);
      const barePairs = peakDifferences(bareLarge, bareSmall);
      const difference = median(pairs);
      const ok = difference < RSS_BUDGET_MB;
      const rises = (runs: readonly { rssPeakMb: number; rssBeforeMb: number }[]) => runs.map((r) => `+${(r.rssPeakMb - r.rssBeforeMb).toFixed(0)}`).join(' / ');
      // fromDate moves one day earlier with every report made: newest fromDate = made first.
      const inOrder = [...cold, ...warmSmall, ...warmLarge].sort((a, b) => b.fromDate.localeCompare(a.fromDate));
      const riseDifference = rise(warmLarge) - rise(warmSmall);
      notes.push(
        `budget memory: server peak RSS, ${PHOTOS}-photo report minus the ${SMALL}-photo report made just before it, median of ${pairs.length} pairs: ` +
          `${difference.toFixed(1)} MB ${ok ? '<' : '>='} ${RSS_BUDGET_MB} MB: ${ok ? 'pass' : 'FAIL'} ` +
          `(pairs ${pairs.map((d) => `${d >= 0 ? '+' : ''}${d.toFixed(0)}`).join(' / ')} MB; peaks ${PHOTOS}: ${warmLarge.map((r) => r.rssPeakMb.toFixed(0)).join(' / ')}, ${SMALL}: ${warmSmall.map((r) => r.rssPeakMb.toFixed(0)).join(' / ')} MB; ` +
          `bare pdfkit's peaks ${PHOTOS}: ${bareLarge.map((r) => r.rssPeakMb.toFixed(0)).join(' / ')}, ${SMALL}: ${bareSmall.map((r) => r.rssPeakMb.toFixed(0)).join(' / ')} MB, pairs median ${median(barePairs).toFixed(1)} MB). ` +
          `Judged here, not by the runner (lib/budget.ts has no limit on a difference between two runs)`,
      );
      notes.push(
        `memory, run by run: the server's RSS before -> peak, in the order run: ${inOrder.map((r) => `${r.label.startsWith('cold') ? 'cold ' : ''}${r.photos}: ${r.rssBeforeMb.toFixed(0)} -> ${r.rssPeakMb.toFixed(0)}`).join(', ')} MB. ` +
          `Each warm run's rise over the RSS just before it: ${PHOTOS} photos ${rises(warmLarge)} MB, ${SMALL} photos ${rises(warmSmall)} MB, ` +
          `difference of the medians ${riseDifference.toFixed(1)} MB (${riseDifference < RSS_BUDGET_MB ? 'also' : 'NOT'} under ${RSS_BUDGET_MB} MB; for information); ` +
          `bare pdfkit's rises ${PHOTOS}: ${rises(bareLarge)}, ${SMALL}: ${rises(bareSmall)} MB`,
      );
    }
    if (loaded && idle) {
      const { load } = loaded;
      notes.push(
        `records list (GET /api/inspections?limit=${LIST_PAGE}&offset=0..${(LIST_PAGES - 1) * LIST_PAGE} as the demo Admin, ${listText}) while the ${PHOTOS}-photo report was made: ` +
          `p99 ${load.latencyMs.p99.toFixed(1)} ms (p50 ${load.latencyMs.p50.toFixed(1)}, max ${load.latencyMs.max.toFixed(0)} ms, ${load.throughput} req/s over ${load.seconds.toFixed(1)} s) ` +
          `vs p99 ${idle.latencyMs.p99.toFixed(1)} ms (p50 ${idle.latencyMs.p50.toFixed(1)}, max ${idle.latencyMs.max.toFixed(0)} ms, ${idle.throughput} req/s) without a report, same load as long, right after: ` +
          `p99 ratio ${ratio(load.latencyMs.p99, idle.latencyMs.p99)}, throughput ${idle.throughput > 0 ? `${((100 * load.throughput) / idle.throughput).toFixed(0)}%` : '-'}; ` +
          `the report took ${s2(loaded.run.ms)} s under the load (${productSeconds.toFixed(2)} s alone). No budget is given for it (budget: the records view stays within its budget while a big report is made)`,
      );
      const when = (list: WindowFigures['slowest']) => list.map((r) => `${r.ms.toFixed(0)} ms sent at ${r.sentAtSeconds.toFixed(2)} s`).join(', ');
      notes.push(
        `records list, the slowest answers during the report: ${when(load.slowest)} (the window opened with the POST; the report was done at ${s2(loaded.run.readyMs)} s, ` +
          `its download ended at ${s2(loaded.run.ms)} s); without a report: ${when(idle.slowest.slice(0, 3))}`,
      );
    }
    const meanKb = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
    notes.push(
      `data: ${PHOTOS} ${TYPE} records of ${DIVISION} dated ${FIRST_DAY}..${lastDay} (${PER_DAY} a day; the ${SMALL}-photo report: ${FIRST_DAY}..${smallLastDay}), each with its own photo ` +
        `(1920x1080, every fifth 1080x1920, JPEG q80, ${Math.round(meanKb(photoKb))} KB mean, ${Math.round(Math.min(...photoKb))}..${Math.round(Math.max(...photoKb))} KB), made and uploaded through POST /api/inspections/upload ` +
        `as the demo Technician before timing (${seedSeconds.toFixed(0)} s); the server's print copies (1200 px, q60) ${Math.round(meanKb(printKb))} KB mean. ` +
        `Every run asks for the same records with fromDate one day earlier (no records there), so each is made anew (${book.seen.size} distinct reports)` +
        (reuse ? `; the same request again answered the report already made in ${reuse.ms.toFixed(0)} ms (${reuse.same ? 'reused' : 'made again!'})` : ''),
    );
    const runText = (r: ReportRun) =>
      `${s2(r.ms)} s (POST ${r.postStatus} in ${s2(r.postMs)} s, done after ${s2(r.readyMs)} s, download ${s2(r.downloadMs)} s, first byte ${r.firstByteMs.toFixed(0)} ms; CPU server ${r.serverCpu === null ? '-' : r.serverCpu.toFixed(1)} s` +
      (r.serverMainCpu !== null ? ` (main thread ${r.serverMainCpu.toFixed(1)} s)` : '') +
      // (Negative when PostgreSQL processes ended between the two readings: not shown.)
      (r.databaseCpu !== null && r.databaseCpu >= 0 ? `, PostgreSQL ${r.databaseCpu.toFixed(1)} s` : '') +
      `; RSS ${r.rssBeforeMb.toFixed(0)} -> ${r.rssPeakMb.toFixed(0)} MB; ${r.pages} pages, ${r.images} images, ${mb(r.bytes)} MB)`;
    for (const r of [...cold, ...warmSmall, ...warmLarge, ...(loaded ? [loaded.run] : [])]) notes.push(`${r.label}: ${runText(r)}`);
    const miscounted = [...cold, ...warmSmall, ...warmLarge].find((r) => printed(r).pages !== r.pages);
    if (miscounted) {
      notes.push(`odd: the report job's summary says ${String(printed(miscounted).pages)} pages; its PDF has ${miscounted.pages} (${miscounted.label})`);
    }
    for (const photos of [SMALL, PHOTOS]) {
      const runs = bare[photos] ?? [];
      if (runs.length === 0) continue;
      notes.push(
        `bare pdfkit ${photos} photos (own process; reads each print copy from disk, four ahead, places it under one line of Helvetica, two to an A4 page, streams into a file): ` +
          `${series(runs.map((b) => b.seconds), 2)} s (waiting for the photos ${series(runs.map((b) => b.readSeconds), 2)} s; CPU ${median(runs.map((b) => b.cpuSeconds)).toFixed(2)} s), ` +
          `${mb(runs[0]?.bytes ?? 0)} MB, ${runs[0]?.pages ?? 0} pages; RSS before ${series(runs.map((b) => b.rssBeforeMb), 0)}, peak ${series(runs.map((b) => b.rssPeakMb), 0)} MB`,
      );
    }
    notes.push(...book.errorNotes());
    return result;
  },
};
