import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runBackupCommand, type BackupCommandRun } from '../lib/backup-command.js';
import { duringLoad, type WindowFigures, type WindowLoadOptions } from '../lib/load-window.js';
import { dirUsage, type DirUsage } from '../lib/process-stats.js';
import { cpuMark, inspectionPage, medianMs, type CpuMark } from '../lib/records.js';
import { round } from '../lib/stats.js';
import type { Scenario, ScenarioContext, ScenarioResult } from '../lib/types.js';

/** As inspections-page: pages of 50, the first 20 in turn, as the demo Admin, 50 connections. */
const PAGE = 50;
const PAGES = 20;
const CONNECTIONS = 50;

const MB = 1e6;
const mb = (bytes: number, decimals = 1) => `${(bytes / MB).toFixed(decimals)} MB`;

interface Window<T> {
  value: T;
  load: WindowFigures;
  cpu: { start: CpuMark; end: CpuMark };
}

/** The list's load over `operation`, with the server's and PostgreSQL's CPU marked inside the window. */
async function listWindow<T>(ctx: ScenarioContext, load: WindowLoadOptions, operation: () => Promise<T>): Promise<Window<T>> {
  const { value, load: figures } = await duringLoad(ctx, load, async () => {
    const start = await cpuMark(ctx);
    const value = await operation();
    const end = await cpuMark(ctx);
    return { value, start, end };
  });
  return { value: value.value, load: figures, cpu: { start: value.start, end: value.end } };
}

const listFigures = (load: WindowFigures) =>
  `${load.throughput} req/s, p50 ${load.latencyMs.p50} ms, p99 ${load.latencyMs.p99} ms, max ${load.latencyMs.max} ms ` +
  `(${load.requests} answers in ${load.seconds} s${load.errors + load.non2xx > 0 ? `, ${load.errors + load.non2xx} failed` : ''})`;

function cpuCores(ctx: ScenarioContext, cpu: Window<unknown>['cpu']): string {
  const { start, end } = cpu;
  const seconds = (end.at - start.at) / 1000;
  if (!(seconds > 0)) return '';
  const parts: string[] = [];
  if (start.server !== null && end.server !== null) parts.push(`server ${((end.server - start.server) / seconds).toFixed(2)} cores`);
  if (ctx.database === 'postgres' && start.database !== null && end.database !== null) {
    parts.push(`PostgreSQL ${((end.database - start.database) / seconds).toFixed(2)} cores`);
  }
  parts.push(`load generator ${((end.own - start.own) / seconds).toFixed(2)} cores`);
  return parts.join(', ');
}

/** The backup's own time: from the database snapshot to the manifest (the command's start-up and the claim not included). */
const insideSeconds = (run: BackupCommandRun) => (Date.parse(run.manifest.finishedAt) - Date.parse(run.manifest.snapshotAt)) / 1000;

/** A span seen by polling every 100 ms: under one poll it reads '< 0.1 s'. */
const seconds = (value: number | null) => (value === null ? '-' : value < 0.1 ? '< 0.1 s' : `${value.toFixed(2)} s`);

/** Where the command's time went, from what was seen in the backup folder. */
function phaseNote(run: BackupCommandRun): string {
  const { snapshot, photoList, manifest, exit } = run.phases;
  return (
    `start-up to the snapshot ${seconds(snapshot)}, database dump (snapshot to photos.txt) ${seconds(photoList === null ? null : photoList - snapshot)}, ` +
    `photo copy and manifest (photos.txt to manifest.json) ${seconds(photoList === null || manifest === null ? null : manifest - photoList)}, ` +
    `to the exit ${seconds(manifest === null ? null : exit - manifest)} (seen every 100 ms)`
  );
}

function ratio(during: number, quiet: number, decimals = 2): string {
  return quiet > 0 ? `${(during / quiet).toFixed(decimals)}x` : '-';
}

/**
 * `npm run backup` while the records view is being read, over the generated 100k records and
 * their photos: the records list (inspections-page's request and connections) for a fixed
 * window with no backup, then while a backup runs, then while a second backup runs right after
 * (photos are shared between the backups of one folder: it should copy none). The command runs
 * as an operator runs it, with the bench server's environment.
 */
export const backup: Scenario = {
  name: 'backup',
  description:
    `npm run backup -- --to <temp dir>, twice, over the generated records while GET /api/inspections?limit=${PAGE}&offset=0..${(PAGES - 1) * PAGE} ` +
    `as the demo Admin (${CONNECTIONS} connections) is measured, beside the same load with no backup`,
  dataset: 'records',
  async run(ctx) {
    const admin = ctx.demo.byRole('Admin');
    const cookie = await ctx.signIn(admin.employeeId);
    const first = await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=0`);
    if (first.logs.length !== PAGE) throw new Error(`expected ${PAGE} records on the first page, got ${first.logs.length} (total ${first.total})`);
    // Every page of the load once, one at a time: the baseline measures the warm list (the
    // server keeps each answer until inspection_logs changes, which a backup does not do).
    const alone: number[] = [];
    for (let page = 0; page < PAGES; page++) alone.push((await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=${page * PAGE}`)).ms);
    const aloneMs = await medianMs(9, async () => (await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=${PAGE * 10}`)).ms);
    const livePhotos = await dirUsage(path.join(ctx.dataDir, 'blobs'), { skip: (name) => !/^[0-9a-f]{64}$/.test(name) });

    let turn = 0;
    const load: WindowLoadOptions = {
      path: `/api/inspections?limit=${PAGE}&offset=0`,
      nextPath: () => `/api/inspections?limit=${PAGE}&offset=${(turn++ % PAGES) * PAGE}`,
      headers: { cookie },
      connections: ctx.connections(CONNECTIONS),
    };

    // The backup goes to the system temp dir: the same disk as the server's scratch DATA_DIR.
    const backupDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-bench-backup-'));
    const photosDir = path.join(backupDir, 'photos');
    try {
      ctx.log(`backup: the records list alone for ${ctx.durationSeconds} s (the baseline)`);
      const quiet = await listWindow(ctx, load, () => sleep(ctx.durationSeconds * 1000));

      ctx.log(`backup: npm run backup -- --to ${backupDir} under the same load`);
      const photosBefore = await dirUsage(photosDir);
      const one = await listWindow(ctx, load, () => runBackupCommand(ctx.serverEnv, backupDir));
      const afterOne = { photos: await dirUsage(photosDir), all: await dirUsage(backupDir), folder: await dirUsage(one.value.folder) };
      ctx.log(`backup: the first took ${one.value.wallSeconds.toFixed(1)} s; a second one right after, under the same load`);

      const two = await listWindow(ctx, load, () => runBackupCommand(ctx.serverEnv, backupDir));
      const afterTwo = { photos: await dirUsage(photosDir), all: await dirUsage(backupDir), folder: await dirUsage(two.value.folder) };
      const folders = (await readdir(backupDir)).filter((name) => name.startsWith('backup-'));

      return result(ctx, {
        quiet: quiet.load,
        quietCpu: quiet.cpu,
        runs: [
          { run: one.value, load: one.load, cpu: one.cpu, copied: diff(afterOne.photos, photosBefore), folder: afterOne.folder, all: afterOne.all },
          { run: two.value, load: two.load, cpu: two.cpu, copied: diff(afterTwo.photos, afterOne.photos), folder: afterTwo.folder, all: afterTwo.all },
        ],
        total: first.total,
        livePhotos,
        backupDir,
        folders: folders.length,
        connections: load.connections,
        aloneMs,
        firstPassMs: alone.reduce((sum, ms) => sum + ms, 0),
      });
    } finally {
      await rm(backupDir, { recursive: true, force: true });
    }
  },
};

const diff = (after: DirUsage, before: DirUsage): DirUsage => ({ files: after.files - before.files, bytes: after.bytes - before.bytes });

interface RunFigures {
  run: BackupCommandRun;
  load: WindowFigures;
  cpu: Window<unknown>['cpu'];
  /** Photo files the run added to BACKUP_DIR/photos. */
  copied: DirUsage;
  /** The run's own folder (database dumps, photos.txt, manifest). */
  folder: DirUsage;
  /** The whole backup directory after the run. */
  all: DirUsage;
}

interface Measured {
  quiet: WindowFigures;
  quietCpu: Window<unknown>['cpu'];
  runs: [RunFigures, RunFigures];
  total: number;
  livePhotos: DirUsage;
  backupDir: string;
  folders: number;
  connections: number;
  /** One page alone, warm (median of 9). */
  aloneMs: number;
  /** The first pass over the 20 pages, one at a time, before any load. */
  firstPassMs: number;
}

function result(ctx: ScenarioContext, m: Measured): ScenarioResult {
  const [one, two] = m.runs;
  const { quiet } = m;
  const during = one.load;
  const notes: string[] = [];
  const manifest = one.run.manifest;
  const records = manifest.tables.find((t) => t.name === 'inspection_logs')?.rows ?? 0;
  const named = manifest.photos.count + manifest.photos.missing.length + manifest.photos.corrupt.length;
  const generated = ctx.dataset?.photos ?? null;
  const where =
    ctx.database === 'pglite'
      ? 'on the embedded database the command asks the running server over DATA_DIR/control.sock and the server makes the backup in its own process (its event loop and its one PGlite connection, shared with the list)'
      : 'on PostgreSQL the command reads the database (one REPEATABLE READ snapshot) and the photo store itself, in its own process';

  notes.push(
    `data: ${m.total} records in the list (${records} rows of inspection_logs in the backup); they name ${named} distinct photos` +
      (generated !== null
        ? ` (the 100k generated records share a pool of only ${generated} distinct photo files; the other ${named - generated} are the demo seed's records' and any uploaded by earlier scenarios of this run)`
        : '') +
      `; the live store holds ${m.livePhotos.files} photo files, ${mb(m.livePhotos.bytes)}. So the photo figures below are for ${named} files, not one per record`,
  );
  notes.push(
    `the command: npm run backup -- --to <temp dir on the same disk>, the bench server's environment (${ctx.database === 'postgres' ? 'DATABASE_URL and DATA_DIR' : 'DATA_DIR'}); ${where}`,
  );
  notes.push(
    `records list (GET /api/inspections?limit=${PAGE}, the first ${PAGES} pages in turn, ${m.connections} connections): ` +
      `alone (one connection, warm) ${m.aloneMs} ms a page (the first pass over the ${PAGES} pages took ${round(m.firstPassMs, 0)} ms); ` +
      `no backup (baseline, ${quiet.seconds} s): ${listFigures(quiet)}; ` +
      `during the first backup: ${listFigures(during)}; ratio during/baseline: p50 ${ratio(during.latencyMs.p50, quiet.latencyMs.p50)}, ` +
      `p99 ${ratio(during.latencyMs.p99, quiet.latencyMs.p99)}, throughput ${ratio(during.throughput, quiet.throughput)}; ` +
      `during the second backup: ${listFigures(two.load)} (p99 ${ratio(two.load.latencyMs.p99, quiet.latencyMs.p99)}, throughput ${ratio(two.load.throughput, quiet.throughput)})`,
  );
  const slowest = during.slowest.map((s) => `${round(s.ms, 0)} ms sent at ${s.sentAtSeconds.toFixed(1)} s`).join(', ');
  if (slowest) notes.push(`the slowest list answers during the first backup (window ${during.seconds} s): ${slowest}`);
  for (const [index, r] of m.runs.entries()) {
    const label = index === 0 ? 'first backup' : 'second backup (right after, same folder: incremental)';
    const runManifest = r.run.manifest;
    const damaged = runManifest.photos.missing.length + runManifest.photos.corrupt.length;
    notes.push(
      `${label}: ${r.run.wallSeconds.toFixed(2)} s wall (the command from spawn to exit), ${insideSeconds(r.run).toFixed(2)} s from the snapshot to the manifest (${phaseNote(r.run)}); ` +
        `${runManifest.tables.find((t) => t.name === 'inspection_logs')?.rows ?? 0} records, ${runManifest.tables.length} tables (${mb(runManifest.tables.reduce((s, t) => s + t.bytes, 0))} gzipped); ` +
        `photos in the backup ${runManifest.photos.count} (${mb(runManifest.photos.bytes)}), copied by this run ${r.copied.files} (${mb(r.copied.bytes)})` +
        (damaged > 0 ? `, ${runManifest.photos.missing.length} missing and ${runManifest.photos.corrupt.length} damaged in the live store` : '') +
        `; its folder ${r.folder.files} files, ${mb(r.folder.bytes)}; the backup dir then ${r.all.files} files, ${mb(r.all.bytes, 1)}` +
        (r.run.cpuSeconds !== null ? `; CPU of the command's processes ${r.run.cpuSeconds.toFixed(2)} s` : '') +
        `; over the run: ${cpuCores(ctx, r.cpu)}`,
    );
  }
  if (two.copied.files !== 0) notes.push(`UNEXPECTED: the second backup copied ${two.copied.files} photo files; photos are shared between the backups of one folder`);
  notes.push(
    `baseline window's CPU: ${cpuCores(ctx, m.quietCpu)}; the command's start-up (npm, tsx) is in the wall time: ` +
      `${(one.run.wallSeconds - insideSeconds(one.run)).toFixed(2)} s and ${(two.run.wallSeconds - insideSeconds(two.run)).toFixed(2)} s outside snapshot-to-manifest`,
  );
  notes.push(
    `backup dir ${m.backupDir}: ${m.folders} backup folders, ${two.all.files} files, ${mb(two.all.bytes)} in all (removed afterwards); ` +
      `the first backup's output: ${one.run.output.join(' | ')}`,
  );

  const statusCodes: Record<string, number> = {};
  for (const window of [quiet, during, two.load]) {
    for (const [code, count] of Object.entries(window.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  }
  for (const window of [quiet, during, two.load]) {
    if (window.firstUnexpected) notes.push(`a failed list answer: HTTP ${window.firstUnexpected.status} ${window.firstUnexpected.body}`);
  }
  return {
    unit: 'req/s',
    connections: m.connections,
    durationSeconds: during.seconds,
    requests: during.requests,
    throughput: during.throughput,
    latencyMs: during.latencyMs,
    non2xx: quiet.non2xx + during.non2xx + two.load.non2xx,
    errors: quiet.errors + during.errors + two.load.errors,
    statusCodes,
    notes,
    throughputBaseline: {
      description: 'the same records-list load with no backup running, same run',
      throughput: quiet.throughput,
      p99Ms: quiet.latencyMs.p99,
    },
  };
}
