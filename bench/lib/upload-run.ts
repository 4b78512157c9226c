/**
 * The photo upload measurement of `upload` and `upload-s3`: multipart uploads under load with the server's memory, CPU and
 * the store's growth, then the bare upload route (bare/server.ts) under the same load in the same run.
 */
import { createHash, type Hash, randomUUID } from 'node:crypto';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Curve } from '../../common/schemas/curve.js';
import { BARE_UPLOAD_PATH, startBareUploadServer } from '../bare/start.js';
import { runLoad } from './load.js';
import { readRssMb, recordRss, type RssRecorder } from './memory.js';
import { buildMultipart, newBoundary, offsetsOf, patchAt } from './multipart.js';
import { fieldPhotoMaker } from './pdf-photos.js';
import type { DirUsage } from './process-stats.js';
import { cpuMark, type CpuMark, inspectionPage, timedFetch } from './records.js';
import { curvePage } from './register.js';
import { round } from './stats.js';
import type { ScenarioContext, ScenarioResult } from './types.js';
import { serverToday } from './variables.js';

export const UPLOAD_PATH = '/api/inspections/upload';
export const UPLOAD_CONNECTIONS = 16;
export const UPLOAD_WIDTH = 1920;
export const UPLOAD_HEIGHT = 1080;
const POOL_SIZE = 8;
/**
 * Uploads go round these curves, as many technicians' visits do. Each reports a high CoF, so
 * each still opens or joins its curve's follow-up action; on one curve, every upload would
 * join one action row and wait for the upload before it to commit, a queue the field meets
 * only when 16 people report the same curve in the same second.
 */
const UPLOAD_CURVES = 32;
/** Above the CoF alert threshold: every upload files or joins its curve's follow-up action. */
const UPLOAD_COF = '0.31';
const QUALITY = 90;
const TARGET_BYTES = 2 * 1024 * 1024;
const PHOTO_SEED = 0x55_504c;
const UUID_PLACEHOLDER = '00000000-0000-4000-8000-000000000000';
const HASH_PLACEHOLDER = 'feedc0de'.repeat(8);
const BARE_DESCRIPTION = 'bare Fastify + @fastify/multipart route streaming the same multipart to a file with sha256 (own process, no fsync, no database)';
const BARE_DURABLE_DESCRIPTION =
  'the bare route + what makes an acknowledged upload durable, as the product does it: fsync of the file, rename to ab/cd/<sha256>, fsync of its folder, ' +
  'then one INSERT of a row (autocommitted, its own transaction) into a small table of the same database';
const mib = (bytes: number, decimals = 2) => (bytes / 1024 / 1024).toFixed(decimals);
const perUpload = (cpuSeconds: number, successes: number) => (successes > 0 ? ((cpuSeconds * 1000) / successes).toFixed(1) : '-');
const change = (from: number | null | undefined, to: number | null | undefined) => (typeof from === 'number' && typeof to === 'number' ? to - from : null);

export interface UploadStore {
  label: string;
  where: string;
  usage(): Promise<DirUsage>;
  helpers?: ReadonlyArray<{ name: string; pid: number }>;
  notes?: readonly string[];
  /** False when the scenario has no budget (upload-s3): its ratios are printed, none judged. */
  judged?: boolean;
}

// A new UUID after the JPEG's end marker (decoders stop there) makes each photo new; its sha256 from a hash state saved before it.
async function uploadBodies(ctx: ScenarioContext, label: string, curves: readonly Curve[]) {
  const generating = performance.now();
  const { make, amplitude } = await fieldPhotoMaker({ seed: PHOTO_SEED, targetBytes: TARGET_BYTES, quality: QUALITY, portraits: false, chromaSubsampling: '4:4:4' });
  const photos = await Promise.all(Array.from({ length: POOL_SIZE }, async (_, i) => (await make(i)).bytes));
  const sizes = photos.map((p) => p.length);
  ctx.log(
    `${label}: ${POOL_SIZE} distinct ${UPLOAD_WIDTH}x${UPLOAD_HEIGHT} JPEGs (quality ${QUALITY}, noise ${amplitude}) in ` +
      `${((performance.now() - generating) / 1000).toFixed(1)} s: ${sizes.map((s) => `${mib(s)} MiB`).join(', ')}`,
  );
  const metadataOf = ({ divisionRailway, section, curveNumber, line, station1, station2 }: Curve) =>
    JSON.stringify({
      clientSubmissionId: UUID_PLACEHOLDER,
      photoSha256: HASH_PLACEHOLDER,
      date: serverToday(),
      type: 'CoF',
      divisionRailway,
      section,
      curveNumber,
      line,
      station1,
      station2,
      cofValue: UPLOAD_COF,
      location: 'Far End',
    });
  const boundary = newBoundary();
  // A body per curve, its photo one of the pool's in turn.
  const pool = curves.map((curve, i) => {
    const photo = photos[i % photos.length];
    if (!photo) throw new Error('empty photo pool');
    const file = Buffer.concat([photo, Buffer.from(UUID_PLACEHOLDER, 'latin1')]);
    const { body } = buildMultipart(
      [
        { name: 'metadata', value: metadataOf(curve) },
        { name: 'file', value: file, filename: 'inspection_image.jpg', contentType: 'image/jpeg' },
      ],
      boundary,
    );
    const offsets = offsetsOf(body, UUID_PLACEHOLDER);
    const hashOffsets = offsetsOf(body, HASH_PLACEHOLDER);
    if (offsets.length !== 2 || hashOffsets.length !== 1) throw new Error(`expected the placeholder UUID twice and the sha256 once in an upload body, found ${offsets.length} and ${hashOffsets.length}`);
    const photoPrefix: Hash = createHash('sha256').update(photo);
    return { body, offsets, hashOffsets, photoPrefix };
  });
  let turn = 0;
  const nextBody = (): Buffer => {
    const entry = pool[turn++ % pool.length];
    if (!entry) throw new Error('empty photo pool');
    const uuid = randomUUID();
    patchAt(entry.body, entry.offsets, uuid);
    patchAt(entry.body, entry.hashOffsets, entry.photoPrefix.copy().update(uuid, 'latin1').digest('hex'));
    return entry.body;
  };
  return { contentType: `multipart/form-data; boundary=${boundary}`, nextBody, sizes, amplitude };
}

async function probe(url: string, headers: Record<string, string>, body: Buffer): Promise<string> {
  const { status, text } = await timedFetch(url, { method: 'POST', headers, body: new Uint8Array(body) });
  if (status !== 201) throw new Error(`POST ${url} answered HTTP ${status} (expected 201): ${text.slice(0, 500)}`);
  return text;
}


interface Target {
  path: string;
  pid: number;
  headers: Record<string, string>;
  usage(): Promise<DirUsage>;
  helpers: ReadonlyArray<{ name: string; pid: number }>;
}

type Measured = Awaited<ReturnType<typeof measure>>;

async function measure(ctx: ScenarioContext, target: Target, nextBody: () => Buffer) {
  const cpuNow = () => cpuMark({ ...ctx, serverPid: target.pid }, target.helpers);
  const marks: { start?: CpuMark & { stored: DirUsage }; recorder?: RssRecorder } = {};
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
      marks.start = { stored: await target.usage(), ...(await cpuNow()) };
      marks.recorder = recordRss(target.pid, 100);
    },
  });
  const after = await cpuNow();
  const samples = (await marks.recorder?.stop()) ?? [];
  // Requests still in flight when the load stopped may finish after it.
  await sleep(1_000);
  return { result, start: marks.start, after, samples, storedAfter: await target.usage(), rssAtStart, rssSettled: await readRssMb(target.pid) };
}

function rssNote(who: string, m: Measured, successes: number): string[] {
  const { samples } = m;
  if (samples.length === 0) return [];
  const first = samples[0]?.mb ?? 0;
  const last = samples.at(-1)?.mb ?? 0;
  const middle = (samples.at(-1)?.atMs ?? 0) / 2;
  const highest = (list: { mb: number }[]) => (list.length ? round(Math.max(...list.map((s) => s.mb)), 0) : '-');
  const growth = last - first;
  return [
    `${who} RSS: ${round(m.rssAtStart ?? 0, 0)} MB before the warm-up, ${round(first, 0)} MB when the measured phase began, ` +
      `${round(last, 0)} MB at its end (${growth >= 0 ? '+' : ''}${round(growth, 1)} MB over ${successes} uploads), ` +
      `${round(m.rssSettled ?? 0, 0)} MB 1 s after; highest in its first half ${highest(samples.filter((s) => s.atMs <= middle))} MB, ` +
      `in its second half ${highest(samples.filter((s) => s.atMs > middle))} MB (${samples.length} samples)`,
  ];
}

function cpuNotes(ctx: ScenarioContext, start: CpuMark, after: CpuMark, helpers: ReadonlyArray<{ name: string; pid: number }>, successes: number): string[] {
  const seconds = (after.at - start.at) / 1000;
  if (start.server === null || after.server === null || seconds <= 0) return [];
  const cores = (cpu: number) => (cpu / seconds).toFixed(2);
  const total = after.server - start.server;
  const main = change(start.main, after.main);
  const threads = Object.entries(after.threads)
    .map(([name, cpu]): [string, number] => [name, cpu - (start.threads[name] ?? 0)])
    .filter(([, cpu]) => cpu * 1000 >= successes * 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([name, cpu]) => `${name} ${perUpload(cpu, successes)}`);
  const split = main === null ? '' : ` (main thread ${cores(main)} cores, ${perUpload(main, successes)} ms per upload; other threads ${threads.join(', ')})`;
  let helperCpu = 0;
  const helperParts = helpers.map((helper, i) => {
    const cpu = change(start.helpers[i], after.helpers[i]);
    if (cpu === null) return `; ${helper.name} -`;
    helperCpu += cpu;
    return `; ${helper.name} (pid ${helper.pid}) ${cores(cpu)} cores, ${perUpload(cpu, successes)} ms CPU per upload`;
  });
  const own = after.own - start.own;
  const notes = [
    `CPU over the measured phase: server ${cores(total)} cores busy, ${perUpload(total, successes)} ms CPU per upload${split}` +
      `${helperParts.join('')}; load generator (this process) ${cores(own)} cores`,
  ];
  const busy = change(start.machine, after.machine);
  if (busy !== null) {
    const database = change(start.database, after.database) ?? 0;
    const others = busy - total - helperCpu - own - database;
    notes.push(
      `machine over the measured phase: ${cores(busy)} of ${os.availableParallelism()} cores busy` +
        (ctx.database === 'postgres' ? `, PostgreSQL processes ${cores(database)} cores` : '') +
        `, everything else ${cores(Math.max(0, others))} cores` +
        (others / seconds > 0.2 ? ' (other work on the machine took CPU from this run: its figures are low)' : ''),
    );
  }
  return notes;
}

// The photo worker decodes after each commit, oldest first: when the newest 50 are decoded, all are.
async function workerBacklog(ctx: ScenarioContext, start: CpuMark, phaseEnd: number, successes: number): Promise<string> {
  const admin = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
  const deadline = performance.now() + 600_000;
  let pending = -1;
  while (performance.now() < deadline) {
    pending = (await inspectionPage(ctx, admin, 'limit=50')).logs.filter((log) => log.photoState === 'pending').length;
    if (pending === 0) break;
    await sleep(200);
  }
  if (pending !== 0) return `photo worker: still ${pending} of the newest 50 records pending 600 s after the phase`;
  const drained = await cpuMark(ctx);
  const cpu = change(start.server, drained.server);
  return (
    `photo worker: the decodes (thumbnail and print copy) of the phase's uploads were done ${((drained.at - phaseEnd) / 1000).toFixed(1)} s after it ended; ` +
    `counting them, ${cpu === null ? '-' : perUpload(cpu, successes)} ms server CPU per upload and ` +
    `${(successes / ((drained.at - start.at) / 1000)).toFixed(1)} uploads/s sustained (the phase's 201s over the phase and the catch-up)`
  );
}

interface BareKind {
  kind: 'upload' | 'upload-durable';
  name: string;
  description: string;
}

const BARE_KINDS: readonly BareKind[] = [
  { kind: 'upload', name: 'bare', description: BARE_DESCRIPTION },
  { kind: 'upload-durable', name: 'bare-durable', description: BARE_DURABLE_DESCRIPTION },
];

/** One bare route under the product's load: its figures, or why there are none. */
async function measureBare(
  ctx: ScenarioContext,
  label: string,
  bareKind: BareKind,
  contentType: string,
  nextBody: () => Buffer,
): Promise<{ failed: string } | { result: ScenarioResult; notes: string[] }> {
  const bare = await startBareUploadServer(bareKind.kind, ctx.databaseUrl);
  try {
    const headers = { 'content-type': contentType };
    await probe(`${bare.baseUrl}${BARE_UPLOAD_PATH}`, headers, nextBody());
    ctx.log(`${label}: the ${bareKind.name} baseline route, same load`);
    const target = { path: BARE_UPLOAD_PATH, pid: bare.pid, headers, usage: () => bare.files(), helpers: [] };
    const measured = await measure({ ...ctx, baseUrl: bare.baseUrl }, target, nextBody);
    const { result: b, start, after } = measured;
    const successes = b.statusCodes['201'] ?? 0;
    const failed = b.errors + b.non2xx;
    if (failed > 0 || successes === 0) return { failed: `${bareKind.name} baseline FAILED (${failed} errors or non-201 answers; ${b.notes.join('; ')}): no ratio` };
    const cpu = change(start?.server, after.server);
    const cpuText = start && cpu !== null ? `, ${perUpload(cpu, successes)} ms CPU per upload (${(cpu / ((after.at - start.at) / 1000)).toFixed(2)} cores)` : '';
    const note =
      `${bareKind.name} baseline, same run, same bodies and ${b.connections ?? 0} connections (${bareKind.description}${bare.where ? `; ${bare.where}` : ''}): ` +
      `${b.throughput} uploads/s, p50 ${b.latencyMs.p50} ms, p99 ${b.latencyMs.p99} ms${cpuText}; ` +
      `${start ? measured.storedAfter.files - start.stored.files : 0} files written in its measured phase`;
    return { result: b, notes: [note, ...rssNote(`${bareKind.name} baseline`, measured, successes)] };
  } finally {
    await bare.stop();
  }
}

/**
 * The product beside both bare routes. Judged against bare-durable: an upload the product
 * acknowledges is on disk and in the database, which the plain bare route's is not.
 */
async function bareBaselines(
  ctx: ScenarioContext,
  store: UploadStore,
  contentType: string,
  nextBody: () => Buffer,
  result: ScenarioResult,
): Promise<string[]> {
  const label = store.label;
  const durableVerdict = store.judged === false ? 'not judged (this scenario has no budget)' : 'judged, >= 80%';
  const notes: string[] = [];
  const figures = new Map<string, ScenarioResult>();
  for (const bareKind of BARE_KINDS) {
    const measured = await measureBare(ctx, label, bareKind, contentType, nextBody);
    if ('failed' in measured) notes.push(measured.failed);
    else {
      figures.set(bareKind.kind, measured.result);
      notes.push(...measured.notes);
    }
  }
  const durable = figures.get('upload-durable');
  const plain = figures.get('upload');
  if (durable) result.throughputBaseline = { description: BARE_DURABLE_DESCRIPTION, throughput: durable.throughput, p99Ms: durable.latencyMs.p99, p50Ms: durable.latencyMs.p50 };
  const share = (name: string, b: ScenarioResult | undefined) =>
    b && b.throughput > 0
      ? `${((result.throughput / b.throughput) * 100).toFixed(0)}% of ${name}'s throughput (p99 ${b.latencyMs.p99 > 0 ? (result.latencyMs.p99 / b.latencyMs.p99).toFixed(2) : '-'}x its p99)`
      : `no ratio to ${name}`;
  notes.push(
    `uploads/s in this run: product ${result.throughput} (p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms), ` +
      `bare ${plain?.throughput ?? '-'}, bare-durable ${durable?.throughput ?? '-'}. ` +
      `The product = ${share('bare-durable', durable)}: ${durableVerdict}; ${share('bare', plain)}: not judged`,
    'why the plain bare ratio is not judged: its route acknowledges an upload with no fsync and no database row, so it measures ' +
      'less work than an acknowledged, durable upload; bare-durable adds exactly those steps (fsync, rename, folder fsync, one INSERT)',
  );
  return notes;
}

// Every request a new submission with new photo bytes, so the server does all its work every time; bodies patched in place to spare the CPU.
export async function runUploads(ctx: ScenarioContext, store: UploadStore): Promise<ScenarioResult> {
  const cookie = await ctx.signIn(ctx.demo.byRole('Technician').employeeId);
  const { curves } = await curvePage(ctx, cookie, `limit=${UPLOAD_CURVES}`);
  if (curves.length < UPLOAD_CURVES) throw new Error(`GET /api/consolidated-curves?limit=${UPLOAD_CURVES} returned ${curves.length} curves: the demo seed should have more`);
  const { contentType, nextBody, sizes, amplitude } = await uploadBodies(ctx, store.label, curves);
  const headers = { cookie, 'content-type': contentType };
  const probeText = await probe(`${ctx.baseUrl}${UPLOAD_PATH}`, headers, nextBody());
  ctx.log(`${store.label}: probe stored ${probeText.slice(0, 200)}`);
  const stored: unknown = JSON.parse(probeText);
  if (!stored || typeof stored !== 'object' || !('imageWidth' in stored) || stored.imageWidth !== UPLOAD_WIDTH) {
    throw new Error(`the probe upload was stored with unexpected figures: ${probeText.slice(0, 300)}`);
  }
  const helpers = store.helpers ?? [];
  const product = await measure(ctx, { path: UPLOAD_PATH, pid: ctx.serverPid, headers, usage: () => store.usage(), helpers }, nextBody);
  const { result, start, after, storedAfter } = product;
  result.notes.push(...(store.notes ?? []));
  if (!start) return result;
  const successes = result.statusCodes['201'] ?? 0;
  result.notes.push(
    `photos: ${POOL_SIZE} distinct ${UPLOAD_WIDTH}x${UPLOAD_HEIGHT} JPEGs, quality ${QUALITY} (noise ${amplitude}), ${sizes.map((s) => mib(s)).join(' / ')} MiB; ` +
      'every request has a new clientSubmissionId and the same UUID after the JPEG end marker (and the new photoSha256), so every upload is new bytes; ' +
      `the uploads go round ${UPLOAD_CURVES} curves, each a CoF of ${UPLOAD_COF} that opens or joins the curve's follow-up action`,
    `store: the measured phase added ${storedAfter.files - start.stored.files} photos, ${mib(storedAfter.bytes - start.stored.bytes, 1)} MiB, to ${store.where} ` +
      `(${successes} x 201 in the phase; requests in flight at its end may add up to ${result.connections ?? 0}); ` +
      `it now holds ${storedAfter.files} files, ${mib(storedAfter.bytes, 1)} MiB`,
    ...rssNote('server', product, successes),
    ...cpuNotes(ctx, start, after, helpers, successes),
    await workerBacklog(ctx, start, after.at, successes),
    ...(await bareBaselines(ctx, store, contentType, nextBody, result)),
  );
  return result;
}
