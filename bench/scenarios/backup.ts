/**
 * `npm run backup`, twice into one folder, while the records list is read, beside the same load with no backup (same run).
 * Run as an operator would: on PostgreSQL it reads the database itself; on PGlite it asks the server over DATA_DIR/control.sock.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { backupFolders, MANIFEST_FILE, PHOTO_LIST_FILE, readManifest } from '../../server/features/backups/backup-folder.js';
import { duringLoad, recordsListLoad, type WindowFigures } from '../lib/load.js';
import { dirUsage, reapedChildrenCpuSeconds } from '../lib/process-stats.js';
import { cpuParts, inspectionPage, medianMs } from '../lib/records.js';
import { PROJECT_ROOT } from '../lib/server.js';
import { round } from '../lib/stats.js';
import type { Scenario } from '../lib/types.js';

const PAGE = 50;
const PAGES = 20;
const CONNECTIONS = 50;
const COMMAND_TIMEOUT_MS = 30 * 60_000;
/**
 * The baseline's shortest window: its p99 is set against one over a backup of a minute or two,
 * and 5 s of 50 connections (some 1,700 answers) give a p99 of the slowest 17, which one pause
 * of a busy machine decides.
 */
const MIN_BASELINE_SECONDS = 30;

async function runBackupCommand(env: Readonly<NodeJS.ProcessEnv>, backupDir: string) {
  const before = new Set(await backupFolders(backupDir));
  const cpuBefore = await reapedChildrenCpuSeconds();
  const started = performance.now();
  const spawnedAt = Date.now();
  const child = spawn('npm', ['run', 'backup', '--', '--to', backupDir], { cwd: PROJECT_ROOT, env: { ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGTERM'), COMMAND_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, signal) => resolve(signal ? null : exitCode));
  }).finally(() => clearTimeout(timer));
  const wallSeconds = (performance.now() - started) / 1000;
  const cpuAfter = await reapedChildrenCpuSeconds();
  const output = text
    .split('\n')
    .map((line) => line.trimEnd())
    // npm's own lines: '> hkmi@x backup', '> tsx server/backup-cli.ts backup --to ...', its warnings.
    .filter((line) => line !== '' && !line.startsWith('> ') && !/^npm (warn|notice)/i.test(line));
  const failed = (what: string) => new Error(`npm run backup -- --to ${backupDir} ${what}: ${output.slice(-10).join(' | ')}`);
  if (code !== 0) throw failed(code === null ? 'was stopped' : `exited with ${code}`);
  const made = (await backupFolders(backupDir)).filter((name) => !before.has(name));
  const folder = /^Backup made: (.+)$/m.exec(text)?.[1]?.trim() ?? (made.length === 1 && made[0] ? path.join(backupDir, made[0]) : undefined);
  if (!folder) throw failed('made no backup folder');
  const manifest = await readManifest(folder);
  // Each file's time (written to a temp file, then renamed): photos.txt right after the dump, manifest.json last.
  const writtenAt = async (file: string) => ((await stat(path.join(folder, file))).mtimeMs - spawnedAt) / 1000;
  return {
    wallSeconds,
    cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    folder,
    manifest,
    output,
    phases: { snapshot: (Date.parse(manifest.snapshotAt) - spawnedAt) / 1000, photoList: await writtenAt(PHOTO_LIST_FILE), manifest: await writtenAt(MANIFEST_FILE), exit: wallSeconds },
  };
}

type BackupCommandRun = Awaited<ReturnType<typeof runBackupCommand>>;

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const ratio = (during: number, quiet: number) => (quiet > 0 ? `${(during / quiet).toFixed(2)}x` : '-');
const listFigures = (load: WindowFigures) =>
  `${load.throughput} req/s, p50 ${load.latencyMs.p50} ms, p99 ${load.latencyMs.p99} ms, max ${load.latencyMs.max} ms ` +
  `(${load.requests} answers in ${load.seconds} s${load.errors + load.non2xx > 0 ? `, ${load.errors + load.non2xx} failed` : ''})`;

const insideSeconds = (run: BackupCommandRun) => (Date.parse(run.manifest.finishedAt) - Date.parse(run.manifest.snapshotAt)) / 1000;
const span = (value: number) => (value < 0.1 ? '< 0.1 s' : `${value.toFixed(2)} s`);

function phaseNote({ phases: { snapshot, photoList, manifest, exit } }: BackupCommandRun): string {
  return (
    `start-up to the snapshot ${span(snapshot)}, database dump (snapshot to photos.txt) ${span(photoList - snapshot)}, ` +
    `photo copy and manifest (photos.txt to manifest.json) ${span(manifest - photoList)}, to the exit ${span(exit - manifest)} (the files' modification times)`
  );
}

export const backup: Scenario = {
  name: 'backup',
  description:
    `npm run backup -- --to <temp dir>, twice, over the generated records while GET /api/inspections?limit=${PAGE}&offset=0..${(PAGES - 1) * PAGE} ` +
    `as the demo Admin (${CONNECTIONS} connections) is measured, beside the same load with no backup`,
  budget: {
    description:
      "backup on the embedded database, 100k records: the records list's p99 during the first backup <= 2x its p99 with no backup (same run), no answer over 1 s (docs/architecture.md, 'Budgets')",
    maxP99RatioToBaseline: 2,
    maxLatencyMs: 1000,
    database: 'pglite',
  },
  dataset: 'records',
  async run(ctx) {
    const cookie = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
    const first = await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=0`);
    if (first.logs.length !== PAGE) throw new Error(`expected ${PAGE} records on the first page, got ${first.logs.length} (total ${first.total})`);
    // Every page once first: the baseline measures the warm list (a backup does not empty the server's cache).
    let firstPassMs = 0;
    for (let page = 0; page < PAGES; page++) firstPassMs += (await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=${page * PAGE}`)).ms;
    const aloneMs = await medianMs(9, async () => (await inspectionPage(ctx, cookie, `limit=${PAGE}&offset=${PAGE * 10}`)).ms);
    const livePhotos = await dirUsage(path.join(ctx.dataDir, 'blobs'), { skip: (name) => !/^[0-9a-f]{64}$/.test(name) });
    const load = recordsListLoad(cookie, ctx.connections(CONNECTIONS));
    // The system temp dir: the same disk as the server's scratch DATA_DIR.
    const backupDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-bench-backup-'));
    const photosDir = path.join(backupDir, 'photos');
    const backupUnderLoad = async (which: string) => {
      ctx.log(`backup: ${which}: npm run backup -- --to ${backupDir} under the same load`);
      const photosBefore = await dirUsage(photosDir);
      const { value: run, load: figures } = await duringLoad(ctx, load, () => runBackupCommand(ctx.serverEnv, backupDir));
      const photos = await dirUsage(photosDir);
      const copied = { files: photos.files - photosBefore.files, bytes: photos.bytes - photosBefore.bytes };
      return { run, load: figures, copied, folder: await dirUsage(run.folder), all: await dirUsage(backupDir) };
    };
    const measured = async () => {
      const baselineSeconds = Math.max(ctx.durationSeconds, MIN_BASELINE_SECONDS);
      ctx.log(`backup: the records list alone for ${baselineSeconds} s (the baseline)`);
      const quiet = (await duringLoad(ctx, load, () => sleep(baselineSeconds * 1000))).load;
      const one = await backupUnderLoad('the first');
      const two = await backupUnderLoad('a second one right after');
      return { quiet, one, two, folders: (await readdir(backupDir)).filter((name) => name.startsWith('backup-')).length };
    };
    const { quiet, one, two, folders } = await measured().finally(() => rm(backupDir, { recursive: true, force: true }));
    const during = one.load;
    const manifest = one.run.manifest;
    const records = manifest.tables.find((t) => t.name === 'inspection_logs')?.rows ?? 0;
    const named = manifest.photos.count + manifest.photos.missing.length + manifest.photos.corrupt.length;
    const generated = ctx.dataset?.photos ?? null;
    const where =
      ctx.database === 'pglite'
        ? 'on the embedded database the command asks the running server over DATA_DIR/control.sock and the server makes the backup in its own process (its event loop and its one PGlite connection, shared with the list: ' +
          "it reads each table in short chunks and again any table written meanwhile, and the manifest's snapshot time is the end of that dump, so the dump is in 'start-up to the snapshot')"
        : 'on PostgreSQL the command reads the database (one REPEATABLE READ snapshot) and the photo store itself, in its own process';
    const notes = [
      `data: ${first.total} records in the list (${records} rows of inspection_logs in the backup); they name ${named} distinct photos` +
        (generated !== null
          ? ` (the 100k generated records share a pool of only ${generated} distinct photo files; the other ${named - generated} are the demo seed's records' and any uploaded by earlier scenarios of this run)`
          : '') +
        `; the live store holds ${livePhotos.files} photo files, ${mb(livePhotos.bytes)}. So the photo figures below are for ${named} files, not one per record`,
      `the command: npm run backup -- --to <temp dir on the same disk>, the bench server's environment (${ctx.database === 'postgres' ? 'DATABASE_URL and DATA_DIR' : 'DATA_DIR'}); ${where}`,
      `records list (GET /api/inspections?limit=${PAGE}, the first ${PAGES} pages in turn, ${load.connections} connections): ` +
        `alone (one connection, warm) ${aloneMs} ms a page (the first pass over the ${PAGES} pages took ${round(firstPassMs, 0)} ms); ` +
        `no backup (baseline, ${quiet.seconds} s): ${listFigures(quiet)}; ` +
        `during the first backup: ${listFigures(during)}; ratio during/baseline: p50 ${ratio(during.latencyMs.p50, quiet.latencyMs.p50)}, ` +
        `p99 ${ratio(during.latencyMs.p99, quiet.latencyMs.p99)}, throughput ${ratio(during.throughput, quiet.throughput)}; ` +
        `during the second backup: ${listFigures(two.load)} (p99 ${ratio(two.load.latencyMs.p99, quiet.latencyMs.p99)}, throughput ${ratio(two.load.throughput, quiet.throughput)})`,
    ];
    const slowest = during.slowest.map((r) => `${round(r.ms, 0)} ms sent at ${r.sentAtSeconds.toFixed(1)} s`).join(', ');
    if (slowest) notes.push(`the slowest list answers during the first backup (window ${during.seconds} s): ${slowest}`);
    for (const [label, r] of [
      ['first backup', one],
      ['second backup (right after, same folder: incremental)', two],
    ] as const) {
      const { tables, photos } = r.run.manifest;
      const damaged = photos.missing.length + photos.corrupt.length;
      notes.push(
        `${label}: ${r.run.wallSeconds.toFixed(2)} s wall (the command from spawn to exit), ${insideSeconds(r.run).toFixed(2)} s from the snapshot to the manifest (${phaseNote(r.run)}); ` +
          `${tables.find((t) => t.name === 'inspection_logs')?.rows ?? 0} records, ${tables.length} tables (${mb(tables.reduce((sum, t) => sum + t.bytes, 0))} gzipped); ` +
          `photos in the backup ${photos.count} (${mb(photos.bytes)}), copied by this run ${r.copied.files} (${mb(r.copied.bytes)})` +
          (damaged > 0 ? `, ${photos.missing.length} missing and ${photos.corrupt.length} damaged in the live store` : '') +
          `; its folder ${r.folder.files} files, ${mb(r.folder.bytes)}; the backup dir then ${r.all.files} files, ${mb(r.all.bytes)}` +
          (r.run.cpuSeconds !== null ? `; CPU of the command's processes ${r.run.cpuSeconds.toFixed(2)} s` : '') +
          `; over the run: ${cpuParts(r.load.cpu.start, r.load.cpu.end)}`,
      );
    }
    if (two.copied.files !== 0) notes.push(`UNEXPECTED: the second backup copied ${two.copied.files} photo files; photos are shared between the backups of one folder`);
    notes.push(
      `baseline window's CPU: ${cpuParts(quiet.cpu.start, quiet.cpu.end)}; the command's start-up (npm, tsx) is in the wall time: ` +
        `${(one.run.wallSeconds - insideSeconds(one.run)).toFixed(2)} s and ${(two.run.wallSeconds - insideSeconds(two.run)).toFixed(2)} s outside snapshot-to-manifest`,
      `backup dir ${backupDir}: ${folders} backup folders, ${two.all.files} files, ${mb(two.all.bytes)} in all (removed afterwards); ` +
        `the first backup's output: ${one.run.output.join(' | ')}`,
    );
    const windows = [quiet, during, two.load];
    const statusCodes: Record<string, number> = {};
    for (const window of windows) {
      for (const [code, count] of Object.entries(window.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
      if (window.firstUnexpected) notes.push(`a failed list answer: HTTP ${window.firstUnexpected.status} ${window.firstUnexpected.body}`);
    }
    return {
      unit: 'req/s',
      connections: load.connections,
      durationSeconds: during.seconds,
      requests: during.requests,
      throughput: during.throughput,
      latencyMs: during.latencyMs,
      non2xx: windows.reduce((sum, w) => sum + w.non2xx, 0),
      errors: windows.reduce((sum, w) => sum + w.errors, 0),
      statusCodes,
      notes,
      throughputBaseline: { description: 'the same records-list load with no backup running, same run', throughput: quiet.throughput, p99Ms: quiet.latencyMs.p99 },
    };
  },
};
