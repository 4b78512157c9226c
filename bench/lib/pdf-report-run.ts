/**
 * The PDF photo report as the admin gets it (bench/scenarios/pdf-report.ts): its records made
 * through the product's upload, the report asked for, followed until done and downloaded to the
 * last byte (its pages and images counted on the way), timed with the server's RSS and CPU.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { stat } from 'node:fs/promises';
import type { Curve } from '../../common/schemas/curve.js';
import { reportJobResponseSchema, reportSummarySchema, type ReportSummary } from '../../common/schemas/reports.js';
import { readCpuSeconds } from './process-stats.js';
import { timedDownload, type TimedDownload } from './timer.js';
import { getParsed, withServerFigures } from './records.js';
import { curvePage } from './register.js';
import type { ScenarioContext } from './types.js';
import { uploadVisit } from './visits.js';

export const POST_PATH = '/api/reports/generate';
export const DIVISION = 'RTM/WR';
export const TYPE = 'Service';
const UPLOADS_AT_ONCE = 4;
const POLL_MS = 50;
export const STEP_TIMEOUT_MS = 600_000;

export interface SeededPhoto {
  index: number;
  recordId: string;
  hash: string;
  bytes: number;
}

export interface ReportRun {
  label: string;
  photos: number;
  fromDate: string;
  toDate: string;
  reportId: string;
  postStatus: number;
  postMs: number;
  /** From the POST to the moment its status was seen 'done' (POST and polls). */
  readyMs: number;
  downloadMs: number;
  firstByteMs: number;
  /** POST to the last byte of the download: the figure compared. */
  ms: number;
  bytes: number;
  /** Page objects and embedded images counted in the downloaded PDF. */
  pages: number;
  images: number;
  summary: ReportSummary['summary'];
  rssBeforeMb: number;
  rssPeakMb: number;
  serverCpu: number | null;
  /** Of which the server's main thread (JavaScript; with PGlite also the database). */
  serverMainCpu: number | null;
  databaseCpu: number | null;
}

export async function divisionCurves(ctx: ScenarioContext, cookie: string): Promise<Curve[]> {
  const { curves } = await curvePage(ctx, cookie, `division=${encodeURIComponent(DIVISION)}&limit=200`);
  if (curves.length === 0) throw new Error(`GET /api/consolidated-curves returned no curve of ${DIVISION}`);
  return curves;
}

/** One Service visit with its photo through the product's upload, as a phone sends it. */
async function uploadServiceVisit(ctx: ScenarioContext, cookie: string, photo: Buffer, curve: Curve, date: string, index: number): Promise<{ recordId: string; hash: string }> {
  const { divisionRailway, section, curveNumber, line, station1, station2 } = curve;
  const greaseDepth = (1 + (index % 60) / 10).toFixed(1);
  const fields = { date, type: TYPE, divisionRailway, section, curveNumber, line, station1, station2, serviceUpdate: 'working-fine', isMachineWorking: 'yes', greaseDepth };
  const stored = await uploadVisit(ctx, cookie, photo, fields);
  return { recordId: stored.recordId, hash: stored.imageHash };
}

/** Makes photos [first, first + count) and uploads them, a few at once; `dateOf(i)` dates the i-th (0-based in the batch). */
export async function seedVisits(
  ctx: ScenarioContext,
  cookie: string,
  curves: readonly Curve[],
  make: (index: number) => Promise<{ bytes: Buffer }>,
  first: number,
  count: number,
  dateOf: (i: number) => string,
): Promise<SeededPhoto[]> {
  const seeded: SeededPhoto[] = new Array<SeededPhoto>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const index = first + i;
      const { bytes } = await make(index);
      const curve = curves[index % curves.length] as Curve;
      const stored = await uploadServiceVisit(ctx, cookie, bytes, curve, dateOf(i), index);
      seeded[i] = { index, recordId: stored.recordId, hash: stored.hash, bytes: bytes.length };
    }
  };
  await Promise.all(Array.from({ length: UPLOADS_AT_ONCE }, worker));
  return seeded;
}

/** Where the server keeps a photo's print copy (DiskBlobStore: `blobs/ab/cd/<sha256>.print-1200.jpg`). */
export const printCopyOf = (ctx: ScenarioContext, hash: string) => path.join(ctx.dataDir, 'blobs', hash.slice(0, 2), hash.slice(2, 4), `${hash}.print-1200.jpg`);

export async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}

export async function statusOf(ctx: ScenarioContext, cookie: string, reportId: string): Promise<ReportSummary> {
  return (await getParsed(ctx, `/api/reports/${reportId}`, cookie, reportSummarySchema)).body;
}

/** Occurrences of each pattern in a stream of chunks (a match may straddle two chunks). */
function patternCounter(patterns: readonly string[]) {
  const needles = patterns.map((p) => Buffer.from(p, 'latin1'));
  const longest = Math.max(...needles.map((n) => n.length));
  const counts = patterns.map(() => 0);
  let carry = Buffer.alloc(0);
  return {
    counts,
    add(chunk: Uint8Array) {
      const text = Buffer.concat([carry, chunk]);
      needles.forEach((needle, i) => {
        // Matches that end inside the carried bytes were counted with the previous chunk.
        for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
          if (at + needle.length > carry.length) counts[i] = (counts[i] ?? 0) + 1;
        }
      });
      carry = text.subarray(Math.max(0, text.length - (longest - 1)));
    },
  };
}

/**
 * GETs the PDF and reads it to its end as it arrives, counting its page objects and embedded
 * images on the way (pdfkit writes `/Type /Page` and `/Subtype /Image` once each) and keeping
 * only its head and tail.
 */
async function downloadPdf(url: string, cookie: string): Promise<TimedDownload & { pages: number; images: number }> {
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  // '/Type /Pages' (the page tree) also starts with '/Type /Page': counted apart and taken off.
  const counter = patternCounter(['/Type /Page', '/Type /Pages', '/Subtype /Image']);
  const download = await timedDownload(url, { headers: { cookie }, signal: AbortSignal.timeout(STEP_TIMEOUT_MS) }, (chunk) => {
    if (head.length < 8) head = Buffer.concat([head, chunk.subarray(0, 8)]);
    tail = Buffer.concat([tail, chunk]).subarray(-64);
    counter.add(chunk);
  });
  const pathname = new URL(url).pathname;
  if (download.status !== 200) throw new Error(`GET ${pathname} answered HTTP ${download.status}: ${tail.toString('utf8')}`);
  if (!head.toString('latin1').startsWith('%PDF-')) throw new Error(`GET ${pathname}: the answer does not start with %PDF-`);
  if (!tail.toString('latin1').includes('%%EOF')) throw new Error(`GET ${pathname}: the answer does not end with %%EOF (cut short?)`);
  const [page = 0, pages = 0, images = 0] = counter.counts;
  return { ...download, pages: page - pages, images };
}

/** POST /api/reports/generate, its status followed until done, then the PDF read to its end. */
export async function makeReport(ctx: ScenarioContext, cookie: string, range: { fromDate: string; toDate: string }, expected: number) {
  const started = performance.now();
  const response = await fetch(`${ctx.baseUrl}${POST_PATH}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ type: TYPE, division: DIVISION, fromDate: range.fromDate, toDate: range.toDate, format: 'images' }),
    signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
  });
  const text = await response.text();
  const postMs = performance.now() - started;
  if (response.status !== 200 && response.status !== 202) throw new Error(`POST ${POST_PATH} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  const answer = reportJobResponseSchema.parse(JSON.parse(text));
  if (answer.recordCount !== expected) {
    throw new Error(`POST ${POST_PATH} ${range.fromDate}..${range.toDate} counted ${answer.recordCount} records, expected ${expected}: other ${TYPE} records of ${DIVISION} in the range?`);
  }
  let status: string = answer.status;
  while (status !== 'done') {
    if (status === 'failed') throw new Error(`report ${answer.reportId} failed: ${(await statusOf(ctx, cookie, answer.reportId)).error ?? 'no reason given'}`);
    if (performance.now() - started > STEP_TIMEOUT_MS) throw new Error(`report ${answer.reportId} not done after ${STEP_TIMEOUT_MS / 1000} s`);
    await sleep(POLL_MS);
    status = (await statusOf(ctx, cookie, answer.reportId)).status;
  }
  const readyMs = performance.now() - started;
  const download = await downloadPdf(`${ctx.baseUrl}${answer.pdfUrl}`, cookie);
  return {
    reportId: answer.reportId,
    postStatus: response.status,
    postMs,
    readyMs,
    downloadMs: download.ms,
    firstByteMs: download.firstByteMs,
    ms: readyMs + download.ms,
    bytes: download.bytes,
    pages: download.pages,
    images: download.images,
  };
}

/** A report timed from the POST to the last byte, with the server's RSS sampled every 20 ms and its CPU. */
export async function measuredReport(ctx: ScenarioContext, cookie: string, label: string, range: { fromDate: string; toDate: string }, photos: number): Promise<ReportRun> {
  const mainStart = await readCpuSeconds(ctx.serverPid);
  const { value: made, ...figures } = await withServerFigures(ctx, () => makeReport(ctx, cookie, range, photos));
  const mainEnd = await readCpuSeconds(ctx.serverPid);
  // After the timing: what the report says it printed.
  const summary = (await statusOf(ctx, cookie, made.reportId)).summary;
  return {
    label,
    photos,
    ...range,
    ...made,
    summary,
    ...figures,
    serverMainCpu: mainStart?.main != null && mainEnd?.main != null ? mainEnd.main - mainStart.main : null,
  };
}

