/**
 * The photo upload measurement shared by the `upload` scenario (photos on the server's disk)
 * and `upload-s3` (photos in an S3-compatible store): the field app's multipart uploads under
 * load, the server's memory and CPU over the measured phase, what the store gained, and the
 * bare baseline of docs/architecture.md, 'Budgets' (bench/bare/: a bare Fastify route streaming the same
 * multipart to a file with sha256) under the same load in the same run.
 */
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { BARE_UPLOAD_PATH, startBareUploadServer } from '../bare/start.js';
import { runLoad } from './load.js';
import { readRssMb, recordRss, type RssRecorder } from './memory.js';
import {
  ownCpuSeconds,
  readCommandCpuSeconds,
  readCpuSeconds,
  readMachineBusySeconds,
  type CpuSeconds,
  type DirUsage,
} from './process-stats.js';
import { inspectionPage } from './records.js';
import { round } from './stats.js';
import type { ScenarioContext, ScenarioResult } from './types.js';
import { firstCurve, POOL_SIZE, QUALITY, uploadBodies, UPLOAD_HEIGHT, UPLOAD_WIDTH } from './upload-bodies.js';

export { UPLOAD_HEIGHT, UPLOAD_WIDTH };
export const UPLOAD_PATH = '/api/inspections/upload';
export const UPLOAD_CONNECTIONS = 16;
const MIB = 1024 * 1024;
const mib = (bytes: number, decimals = 2) => (bytes / MIB).toFixed(decimals);

/** Where the server under test keeps the photos, as the measurement needs to know it. */
export interface UploadStore {
  /** For progress lines, e.g. 'upload-s3'. */
  label: string;
  /** What the notes call the store, e.g. 'the scratch DATA_DIR/blobs'. */
  where: string;
  /** The photos stored so far (files or objects) and their bytes. */
  usage(): Promise<DirUsage>;
  /** Processes beside the server doing the store's work (s3rver): their CPU per upload goes into the notes. */
  helpers?: ReadonlyArray<{ name: string; pid: number }>;
  /** Said first in the notes. */
  notes?: readonly string[];
}

interface CpuMark {
  serverCpu: CpuSeconds | null;
  ownCpu: number;
  machineBusy: number | null;
  database: number | null;
  helpers: Array<number | null>;
  at: number;
}

interface PhaseStart extends CpuMark {
  stored: DirUsage;
}

async function cpuNow(ctx: ScenarioContext, pid: number, helpers: ReadonlyArray<{ pid: number }>, withDatabase: boolean): Promise<CpuMark> {
  const [serverCpu, machineBusy, database, ...helperCpu] = await Promise.all([
    readCpuSeconds(pid),
    readMachineBusySeconds(),
    withDatabase && ctx.database === 'postgres' ? readCommandCpuSeconds('postgres') : Promise.resolve(null),
    ...helpers.map(async (h) => (await readCpuSeconds(h.pid))?.total ?? null),
  ]);
  return { serverCpu, ownCpu: ownCpuSeconds(), machineBusy, database, helpers: helperCpu, at: performance.now() };
}

/** One upload first, to check the request is right (and to fail early with the reason). */
async function probe(url: string, headers: Record<string, string>, body: Buffer): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers, body: new Uint8Array(body) });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${url} answered HTTP ${response.status} (expected 201): ${text.slice(0, 500)}`);
  return text;
}

interface MeasuredUploads {
  result: ScenarioResult;
  start: PhaseStart | undefined;
  after: CpuMark;
  samples: Awaited<ReturnType<RssRecorder['stop']>>;
  storedAfter: DirUsage;
  rssAtStart: number | null;
  rssSettled: number | null;
}

/**
 * The load on one target (the server, or the bare baseline): a warm-up, a pause for what it
 * left in flight, then the measured phase with CPU, RSS and the store's growth around it.
 */
async function measure(
  ctx: ScenarioContext,
  target: { path: string; pid: number; headers: Record<string, string>; usage: () => Promise<DirUsage>; helpers: ReadonlyArray<{ pid: number }>; withDatabase: boolean },
  nextBody: () => Buffer,
): Promise<MeasuredUploads> {
  // Set right before the measured phase starts (after the warm-up).
  const marks: { start?: PhaseStart; recorder?: RssRecorder } = {};
  const rssAtStart = await readRssMb(target.pid);
  const result = await runLoad(ctx, {
    path: target.path,
    method: 'POST',
    headers: target.headers,
    nextBody,
    expectStatus: 201,
    connections: ctx.connections(UPLOAD_CONNECTIONS),
    unit: 'uploads/s',
    timeoutSeconds: 30,
    async beforeMeasured() {
      // Uploads the warm-up left in flight finish meanwhile: the phase's figures are its own.
      await sleep(1_000);
      marks.start = { stored: await target.usage(), ...(await cpuNow(ctx, target.pid, target.helpers, target.withDatabase)) };
      marks.recorder = recordRss(target.pid, 100);
    },
  });
  const after = await cpuNow(ctx, target.pid, target.helpers, target.withDatabase);
  const samples = (await marks.recorder?.stop()) ?? [];
  // Requests still in flight when the load stopped may finish after it.
  await sleep(1_000);
  const storedAfter = await target.usage();
  const rssSettled = await readRssMb(target.pid);
  return { result, start: marks.start, after, samples, storedAfter, rssAtStart, rssSettled };
}

function rssNote(who: string, m: MeasuredUploads, successes: number): string | null {
  const { samples } = m;
  if (samples.length === 0) return null;
  const mbs = samples.map((s) => s.mb);
  const first = mbs[0] ?? 0;
  const last = mbs.at(-1) ?? 0;
  const half = samples.at(-1)?.atMs ?? 0;
  const firstHalf = samples.filter((s) => s.atMs <= half / 2).map((s) => s.mb);
  const secondHalf = samples.filter((s) => s.atMs > half / 2).map((s) => s.mb);
  const growth = last - first;
  return (
    `${who} RSS: ${round(m.rssAtStart ?? 0, 0)} MB before the warm-up, ${round(first, 0)} MB when the measured phase began, ` +
    `${round(last, 0)} MB at its end (${growth >= 0 ? '+' : ''}${round(growth, 1)} MB over ${successes} uploads), ` +
    `${round(m.rssSettled ?? 0, 0)} MB 1 s after; highest in its first half ${round(Math.max(...firstHalf), 0)} MB, ` +
    `in its second half ${secondHalf.length ? round(Math.max(...secondHalf), 0) : '-'} MB (${samples.length} samples)`
  );
}

/** Milliseconds of CPU per upload. */
const perUpload = (cpuSeconds: number, successes: number) => (successes > 0 ? ((cpuSeconds * 1000) / successes).toFixed(1) : '-');

/**
 * Photo uploads as the field app sends them: multipart/form-data with the `metadata` JSON
 * first (with the photo's sha256, as the app sends it), then the photo. Each request is a new
 * submission (a new clientSubmissionId) with new photo bytes (the same UUID after the JPEG's
 * end marker), so the server does all of its work every time: multipart parsing, the header
 * checks, sha256, the store's write and flush, the row insert, and after the commit the photo
 * worker's decode, thumbnail and print copy (in the same process: its CPU is counted).
 *
 * The bodies are built once; per request the load generator only overwrites the two UUIDs
 * and the sha256 in place (the hash from a state saved before the UUID: one block of work)
 * and autocannon copies the body into the request, so it takes little of the CPU it shares
 * with the server. Then the same bodies, connections and duration on the bare
 * baseline route, in a process of its own.
 */
export async function runUploads(ctx: ScenarioContext, store: UploadStore): Promise<ScenarioResult> {
  const technician = ctx.demo.byRole('Technician');
  const cookie = await ctx.signIn(technician.employeeId);
  const curve = await firstCurve(ctx, cookie);
  const { contentType, nextBody, sizes, amplitude } = await uploadBodies(ctx, store.label, curve);
  const headers = { cookie, 'content-type': contentType };

  const probeText = await probe(`${ctx.baseUrl}${UPLOAD_PATH}`, headers, nextBody());
  const stored: unknown = JSON.parse(probeText);
  ctx.log(`${store.label}: probe stored ${probeText.slice(0, 200)}`);
  if (!stored || typeof stored !== 'object' || !('imageWidth' in stored) || stored.imageWidth !== UPLOAD_WIDTH) {
    throw new Error(`the probe upload was stored with unexpected figures: ${probeText.slice(0, 300)}`);
  }

  const helpers = store.helpers ?? [];
  const product = await measure(
    ctx,
    { path: UPLOAD_PATH, pid: ctx.serverPid, headers, usage: () => store.usage(), helpers, withDatabase: true },
    nextBody,
  );
  const { result } = product;
  result.notes.push(...(store.notes ?? []));
  const start = product.start;
  if (!start) return result;
  const successes = result.statusCodes['201'] ?? 0;
  result.notes.push(
    `photos: ${POOL_SIZE} distinct ${UPLOAD_WIDTH}x${UPLOAD_HEIGHT} JPEGs, quality ${QUALITY} (noise ${amplitude}), ${sizes.map((s) => mib(s)).join(' / ')} MiB; ` +
      'every request has a new clientSubmissionId and the same UUID after the JPEG end marker (and the new photoSha256), so every upload is new bytes',
  );
  const written = product.storedAfter.files - start.stored.files;
  result.notes.push(
    `store: the measured phase added ${written} photos, ${mib(product.storedAfter.bytes - start.stored.bytes, 1)} MiB, to ${store.where} ` +
      `(${successes} x 201 in the phase; requests in flight at its end may add up to ${result.connections ?? 0}); ` +
      `it now holds ${product.storedAfter.files} files, ${mib(product.storedAfter.bytes, 1)} MiB`,
  );
  const rss = rssNote('server', product, successes);
  if (rss) result.notes.push(rss);
  const { after } = product;
  const seconds = (after.at - start.at) / 1000;
  let helperCpu = 0;
  if (start.serverCpu && after.serverCpu && seconds > 0) {
    const total = after.serverCpu.total - start.serverCpu.total;
    const main =
      after.serverCpu.main !== null && start.serverCpu.main !== null ? after.serverCpu.main - start.serverCpu.main : null;
    const threads = Object.entries(after.serverCpu.threads)
      .map(([name, cpu]): [string, number] => [name, cpu - (start.serverCpu?.threads[name] ?? 0)])
      .filter(([, cpu]) => cpu * 1000 >= successes * 0.05)
      .sort((a, b) => b[1] - a[1])
      .map(([name, cpu]) => `${name} ${perUpload(cpu, successes)}`);
    const split =
      main === null
        ? ''
        : ` (main thread ${(main / seconds).toFixed(2)} cores, ${perUpload(main, successes)} ms per upload; other threads ${threads.join(', ')})`;
    const helperParts = helpers.map((helper, i) => {
      const begin = start.helpers[i];
      const end = after.helpers[i];
      if (begin === null || begin === undefined || end === null || end === undefined) return `${helper.name} -`;
      helperCpu += end - begin;
      return `${helper.name} (pid ${helper.pid}) ${((end - begin) / seconds).toFixed(2)} cores, ${perUpload(end - begin, successes)} ms CPU per upload`;
    });
    result.notes.push(
      `CPU over the measured phase: server ${(total / seconds).toFixed(2)} cores busy, ${perUpload(total, successes)} ms CPU per upload${split}` +
        (helperParts.length > 0 ? `; ${helperParts.join('; ')}` : '') +
        `; load generator (this process) ${((after.ownCpu - start.ownCpu) / seconds).toFixed(2)} cores`,
    );
    if (after.machineBusy !== null && start.machineBusy !== null) {
      const busy = after.machineBusy - start.machineBusy;
      const database = after.database !== null && start.database !== null ? after.database - start.database : 0;
      const others = busy - total - helperCpu - (after.ownCpu - start.ownCpu) - database;
      result.notes.push(
        `machine over the measured phase: ${(busy / seconds).toFixed(2)} of ${os.availableParallelism()} cores busy` +
          (ctx.database === 'postgres' ? `, PostgreSQL processes ${(database / seconds).toFixed(2)} cores` : '') +
          `, everything else ${(Math.max(0, others) / seconds).toFixed(2)} cores` +
          (others / seconds > 0.2 ? ' (other work on the machine took CPU from this run: its figures are low)' : ''),
      );
    }
  }

  await workerBacklog(ctx, start, product.after, successes, result);
  await bareBaseline(ctx, store.label, contentType, nextBody, result);
  return result;
}

/**
 * The decodes the phase's uploads left to the photo worker (after each commit): how long after
 * the phase the worker caught up, and the CPU per upload once that work is counted too, so the
 * request path's figure is not read as the whole cost. The worker takes the oldest first: when
 * the newest records are decoded, all are.
 */
async function workerBacklog(ctx: ScenarioContext, start: PhaseStart, after: CpuMark, successes: number, result: ScenarioResult): Promise<void> {
  const admin = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
  const phaseEnd = after.at;
  const deadline = performance.now() + 600_000;
  let pending = -1;
  while (performance.now() < deadline) {
    const { logs } = await inspectionPage(ctx, admin, 'limit=50');
    pending = logs.filter((log) => log.photoState === 'pending').length;
    if (pending === 0) break;
    await sleep(200);
  }
  const drained = await cpuNow(ctx, ctx.serverPid, [], false);
  const lag = (drained.at - phaseEnd) / 1000;
  if (pending !== 0) {
    result.notes.push(`photo worker: still ${pending} of the newest 50 records pending 600 s after the phase`);
    return;
  }
  const cpu = start.serverCpu && drained.serverCpu ? drained.serverCpu.total - start.serverCpu.total : null;
  const span = (drained.at - start.at) / 1000;
  result.notes.push(
    `photo worker: the decodes (thumbnail and print copy) of the phase's uploads were done ${lag.toFixed(1)} s after it ended; ` +
      `counting them, ${cpu === null ? '-' : perUpload(cpu, successes)} ms server CPU per upload and ` +
      `${(successes / span).toFixed(1)} uploads/s sustained (the phase's 201s over the phase and the catch-up)`,
  );
}

const BARE_DESCRIPTION = 'bare Fastify + @fastify/multipart route streaming the same multipart to a file with sha256 (own process, no fsync)';

/** The bare upload route (docs/architecture.md, 'Budgets') under the same load; its figures go into the result beside the product's. */
async function bareBaseline(ctx: ScenarioContext, label: string, contentType: string, nextBody: () => Buffer, result: ScenarioResult): Promise<void> {
  const bare = await startBareUploadServer();
  try {
    const headers = { 'content-type': contentType };
    await probe(`${bare.baseUrl}${BARE_UPLOAD_PATH}`, headers, nextBody());
    ctx.log(`${label}: the bare baseline route, same load`);
    const measured = await measure(
      { ...ctx, baseUrl: bare.baseUrl },
      { path: BARE_UPLOAD_PATH, pid: bare.pid, headers, usage: () => bare.files(), helpers: [], withDatabase: false },
      nextBody,
    );
    const b = measured.result;
    const successes = b.statusCodes['201'] ?? 0;
    const failed = b.errors + b.non2xx;
    if (failed > 0 || successes === 0) {
      result.notes.push(`bare baseline FAILED (${failed} errors or non-201 answers; ${b.notes.join('; ')}): no ratio`);
      return;
    }
    result.throughputBaseline = { description: BARE_DESCRIPTION, throughput: b.throughput, p99Ms: b.latencyMs.p99 };
    const ratio = b.throughput > 0 ? result.throughput / b.throughput : 0;
    const start = measured.start;
    const cpu =
      start?.serverCpu && measured.after.serverCpu
        ? `, ${perUpload(measured.after.serverCpu.total - start.serverCpu.total, successes)} ms CPU per upload ` +
          `(${((measured.after.serverCpu.total - start.serverCpu.total) / ((measured.after.at - start.at) / 1000)).toFixed(2)} cores)`
        : '';
    const written = start ? measured.storedAfter.files - start.stored.files : 0;
    result.notes.push(
      `bare baseline, same run, same bodies and ${b.connections ?? 0} connections (${BARE_DESCRIPTION}): ${b.throughput} uploads/s, ` +
        `p50 ${b.latencyMs.p50} ms, p99 ${b.latencyMs.p99} ms${cpu}; ${written} files written in its measured phase. ` +
        `The product: ${result.throughput} uploads/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms = ` +
        `${(ratio * 100).toFixed(0)}% of the baseline's throughput, p99 ${b.latencyMs.p99 > 0 ? (result.latencyMs.p99 / b.latencyMs.p99).toFixed(2) : '-'}x its p99`,
    );
    const rss = rssNote('bare baseline', measured, successes);
    if (rss) result.notes.push(rss);
  } finally {
    await bare.stop();
  }
}
