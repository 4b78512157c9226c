import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { dateInTimeZone } from '../../common/rules/dates.js';
import { makePhotoPool, withComment } from '../lib/jpeg.js';
import { runLoad } from '../lib/load.js';
import { readRssMb, recordRss, type RssRecorder } from '../lib/memory.js';
import { buildMultipart, newBoundary, offsetsOf, patchAt } from '../lib/multipart.js';
import {
  dirUsage,
  ownCpuSeconds,
  readCommandCpuSeconds,
  readCpuSeconds,
  readMachineBusySeconds,
  type CpuSeconds,
  type DirUsage,
} from '../lib/process-stats.js';
import { round } from '../lib/stats.js';
import type { Scenario, ScenarioContext } from '../lib/types.js';

const PATH = '/api/inspections/upload';
const CONNECTIONS = 16;
const POOL_SIZE = 8;
const WIDTH = 1920;
const HEIGHT = 1080;
const QUALITY = 90;
const TARGET_BYTES = 2 * 1024 * 1024;
/** A UUID's shape and length: every request overwrites it with a new one, in place. */
const PLACEHOLDER = '00000000-0000-4000-8000-000000000000';
/** The railway's calendar (the server's default APP_TIMEZONE): the upload's date must not be in the future. */
const APP_TIME_ZONE = 'Asia/Kolkata';

const MIB = 1024 * 1024;
const mib = (bytes: number, decimals = 2) => (bytes / MIB).toFixed(decimals);

interface PoolEntry {
  body: Buffer;
  /** Where PLACEHOLDER sits: in the metadata's clientSubmissionId and in the JPEG's comment. */
  offsets: number[];
}

interface CpuMark {
  serverCpu: CpuSeconds | null;
  ownCpu: number;
  machineBusy: number | null;
  database: number | null;
  at: number;
}

interface PhaseStart extends CpuMark {
  blobs: DirUsage;
}

async function cpuNow(ctx: ScenarioContext): Promise<CpuMark> {
  const [serverCpu, machineBusy, database] = await Promise.all([
    readCpuSeconds(ctx.serverPid),
    readMachineBusySeconds(),
    ctx.database === 'postgres' ? readCommandCpuSeconds('postgres') : Promise.resolve(null),
  ]);
  return { serverCpu, ownCpu: ownCpuSeconds(), machineBusy, database, at: performance.now() };
}

interface CurveFields {
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
  station1: string | null;
  station2: string | null;
}

function isCurve(value: unknown): value is CurveFields {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return ['divisionRailway', 'section', 'curveNumber', 'line'].every((key) => typeof v[key] === 'string');
}

async function firstCurve(ctx: ScenarioContext, cookie: string): Promise<CurveFields> {
  const response = await fetch(`${ctx.baseUrl}/api/consolidated-curves?limit=1`, { headers: { cookie } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /api/consolidated-curves?limit=1 answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  const body: unknown = JSON.parse(text);
  const curve: unknown = body && typeof body === 'object' && 'curves' in body && Array.isArray(body.curves) ? body.curves[0] : undefined;
  if (!isCurve(curve)) throw new Error('GET /api/consolidated-curves?limit=1 returned no curve: the demo seed should have some');
  return curve;
}

/**
 * Photo uploads as the field app sends them: multipart/form-data with the `metadata` JSON
 * first, then the photo. Each request is a new submission (a new clientSubmissionId) with new
 * photo bytes (the same UUID in a JPEG comment), so the server does all of its work every
 * time: multipart parsing, the sharp check, sha256, the blob write and the row insert.
 *
 * The bodies are built once; per request the load generator only overwrites the two UUIDs
 * in place and autocannon copies the body into the request, so it takes little of the CPU
 * it shares with the server.
 */
export const upload: Scenario = {
  name: 'upload',
  description: `POST ${PATH}, ~2 MiB ${WIDTH}x${HEIGHT} JPEG + CoF metadata as the demo Technician, ${CONNECTIONS} connections`,
  budget: {
    description: 'photo upload, 2 MB JPEG: >= 100 uploads/s on 2 cores, bounded memory (DESIGN section 10)',
    minThroughput: 100,
    cpus: 2,
  },
  async run(ctx) {
    const generating = performance.now();
    const { photos, amplitude } = await makePhotoPool({
      count: POOL_SIZE,
      width: WIDTH,
      height: HEIGHT,
      quality: QUALITY,
      targetBytes: TARGET_BYTES,
    });
    const sizes = photos.map((p) => p.length);
    ctx.log(
      `upload: ${POOL_SIZE} distinct ${WIDTH}x${HEIGHT} JPEGs (quality ${QUALITY}, noise ${amplitude}) in ` +
        `${((performance.now() - generating) / 1000).toFixed(1)} s: ${sizes.map((s) => `${mib(s)} MiB`).join(', ')}`,
    );

    const technician = ctx.demo.byRole('Technician');
    const cookie = await ctx.signIn(technician.employeeId);
    const curve = await firstCurve(ctx, cookie);
    const metadata = JSON.stringify({
      clientSubmissionId: PLACEHOLDER,
      date: dateInTimeZone(new Date(), APP_TIME_ZONE),
      type: 'CoF',
      divisionRailway: curve.divisionRailway,
      section: curve.section,
      curveNumber: curve.curveNumber,
      line: curve.line,
      station1: curve.station1,
      station2: curve.station2,
      cofValue: '0.31',
      location: 'Far End',
    });

    const boundary = newBoundary();
    let contentType = '';
    const pool: PoolEntry[] = photos.map((photo) => {
      const form = buildMultipart(
        [
          { name: 'metadata', value: metadata },
          {
            name: 'file',
            value: withComment(photo, `hkmi-bench upload ${PLACEHOLDER}`),
            filename: 'inspection_image.jpg',
            contentType: 'image/jpeg',
          },
        ],
        boundary,
      );
      contentType = form.contentType;
      const offsets = offsetsOf(form.body, PLACEHOLDER);
      if (offsets.length !== 2) throw new Error(`expected the placeholder UUID twice in an upload body, found it ${offsets.length} times`);
      return { body: form.body, offsets };
    });
    let turn = 0;
    const nextBody = (): Buffer => {
      const entry = pool[turn++ % pool.length];
      if (!entry) throw new Error('empty photo pool');
      patchAt(entry.body, entry.offsets, randomUUID());
      return entry.body;
    };
    const headers = { cookie, 'content-type': contentType };

    // One upload first, to check the request is right (and to fail early with the reason).
    const probe = await fetch(`${ctx.baseUrl}${PATH}`, { method: 'POST', headers, body: new Uint8Array(nextBody()) });
    const probeText = await probe.text();
    if (probe.status !== 201) throw new Error(`POST ${PATH} answered HTTP ${probe.status} (expected 201): ${probeText.slice(0, 500)}`);
    const stored: unknown = JSON.parse(probeText);
    ctx.log(`upload: probe stored ${probeText.slice(0, 200)}`);
    if (!stored || typeof stored !== 'object' || !('imageWidth' in stored) || stored.imageWidth !== WIDTH) {
      throw new Error(`the probe upload was stored with unexpected figures: ${probeText.slice(0, 300)}`);
    }

    const blobsDir = path.join(ctx.dataDir, 'blobs');
    const countBlobs = () => dirUsage(blobsDir, { skip: (name) => name.endsWith('.tmp') });
    // Set right before the measured phase starts (after the warm-up).
    const marks: { start?: PhaseStart; recorder?: RssRecorder } = {};
    const rssAtStart = await readRssMb(ctx.serverPid);

    const result = await runLoad(ctx, {
      path: PATH,
      method: 'POST',
      headers,
      nextBody,
      expectStatus: 201,
      connections: ctx.connections(CONNECTIONS),
      unit: 'uploads/s',
      timeoutSeconds: 30,
      async beforeMeasured() {
        // Uploads the warm-up left in flight finish on the server meanwhile: the phase's figures are its own.
        await sleep(1_000);
        marks.start = {
          blobs: await countBlobs(),
          ...(await cpuNow(ctx)),
        };
        marks.recorder = recordRss(ctx.serverPid, 100);
      },
    });
    const after = await cpuNow(ctx);
    const samples = (await marks.recorder?.stop()) ?? [];
    // Requests still in flight when the load stopped may finish on the server after it.
    await sleep(1_000);
    const blobsAfter = await countBlobs();
    const rssSettled = await readRssMb(ctx.serverPid);

    const start = marks.start;
    if (!start) return result;
    const successes = result.statusCodes['201'] ?? 0;
    result.notes.push(
      `photos: ${POOL_SIZE} distinct ${WIDTH}x${HEIGHT} JPEGs, quality ${QUALITY}, ${sizes.map((s) => mib(s)).join(' / ')} MiB; ` +
        'every request has a new clientSubmissionId and the same UUID in a JPEG comment, so every upload is new bytes',
    );
    const blobsWritten = blobsAfter.files - start.blobs.files;
    result.notes.push(
      `disk: the measured phase wrote ${blobsWritten} new blobs, ${mib(blobsAfter.bytes - start.blobs.bytes, 1)} MiB ` +
        `(${successes} x 201 in the phase; requests in flight at its end may add up to ${result.connections ?? 0}); ` +
        `blobs dir now ${blobsAfter.files} files, ${mib(blobsAfter.bytes, 1)} MiB`,
    );
    if (samples.length > 0) {
      const mbs = samples.map((s) => s.mb);
      const first = mbs[0] ?? 0;
      const last = mbs.at(-1) ?? 0;
      const half = samples.at(-1)?.atMs ?? 0;
      const firstHalf = samples.filter((s) => s.atMs <= half / 2).map((s) => s.mb);
      const secondHalf = samples.filter((s) => s.atMs > half / 2).map((s) => s.mb);
      const growth = last - first;
      result.notes.push(
        `server RSS: ${round(rssAtStart ?? 0, 0)} MB before the warm-up, ${round(first, 0)} MB when the measured phase began, ` +
          `${round(last, 0)} MB at its end (${growth >= 0 ? '+' : ''}${round(growth, 1)} MB over ${successes} uploads), ` +
          `${round(rssSettled ?? 0, 0)} MB 1 s after; highest in its first half ${round(Math.max(...firstHalf), 0)} MB, ` +
          `in its second half ${secondHalf.length ? round(Math.max(...secondHalf), 0) : '-'} MB (${samples.length} samples)`,
      );
    }
    const seconds = (after.at - start.at) / 1000;
    if (start.serverCpu && after.serverCpu && seconds > 0) {
      const total = after.serverCpu.total - start.serverCpu.total;
      const main =
        after.serverCpu.main !== null && start.serverCpu.main !== null ? after.serverCpu.main - start.serverCpu.main : null;
      const perUpload = (cpuSeconds: number) => (successes > 0 ? ((cpuSeconds * 1000) / successes).toFixed(1) : '-');
      const threads = Object.entries(after.serverCpu.threads)
        .map(([name, cpu]): [string, number] => [name, cpu - (start.serverCpu?.threads[name] ?? 0)])
        .filter(([, cpu]) => cpu * 1000 >= successes * 0.05)
        .sort((a, b) => b[1] - a[1])
        .map(([name, cpu]) => `${name} ${perUpload(cpu)}`);
      const split =
        main === null
          ? ''
          : ` (main thread ${(main / seconds).toFixed(2)} cores, ${perUpload(main)} ms per upload; other threads ${threads.join(', ')})`;
      result.notes.push(
        `CPU over the measured phase: server ${(total / seconds).toFixed(2)} cores busy, ${perUpload(total)} ms CPU per upload${split}` +
          `; load generator (this process) ${((after.ownCpu - start.ownCpu) / seconds).toFixed(2)} cores`,
      );
      if (after.machineBusy !== null && start.machineBusy !== null) {
        const busy = after.machineBusy - start.machineBusy;
        const database = after.database !== null && start.database !== null ? after.database - start.database : 0;
        const others = busy - total - (after.ownCpu - start.ownCpu) - database;
        result.notes.push(
          `machine over the measured phase: ${(busy / seconds).toFixed(2)} of ${os.availableParallelism()} cores busy` +
            (ctx.database === 'postgres' ? `, PostgreSQL processes ${(database / seconds).toFixed(2)} cores` : '') +
            `, everything else ${(Math.max(0, others) / seconds).toFixed(2)} cores` +
            (others / seconds > 0.2 ? ' (other work on the machine took CPU from this run: its figures are low)' : ''),
        );
      }
    }
    return result;
  },
};
