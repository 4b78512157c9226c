/**
 * `npm run backup -- --to <folder>` as an operator runs it beside a serving app, with the
 * bench server's own environment (DATA_DIR, and DATABASE_URL on PostgreSQL): on PostgreSQL the
 * command reads the database and the photo store itself; on the embedded database it asks the
 * running server over DATA_DIR/control.sock, and the server makes the backup in its process.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { backupFolders, MANIFEST_FILE, PHOTO_LIST_FILE, readManifest, type BackupManifest } from '../../server/features/backups/backup-folder.js';
import { reapedChildrenCpuSeconds } from './process-stats.js';
import { PROJECT_ROOT } from './server.js';

export interface BackupCommandRun {
  /** From the spawn to the exit, npm's and tsx's start included. */
  wallSeconds: number;
  /** CPU of the command's processes (npm, the shell, node), once they have exited; null off Linux. */
  cpuSeconds: number | null;
  folder: string;
  manifest: BackupManifest;
  /** What the command printed (npm's header lines left out). */
  output: string[];
  /**
   * When each step was seen, in seconds after the spawn (the folder is looked at every 100 ms):
   * the snapshot (the manifest's snapshotAt, the database's clock), photos.txt written (the
   * database dump done), manifest.json written (the photos copied) and the exit.
   */
  phases: { snapshot: number; photoList: number | null; manifest: number | null; exit: number };
}

/** Longer than any backup of the bench's data should take; the command is ended after it. */
const TIMEOUT_MS = 30 * 60_000;

export async function runBackupCommand(env: Readonly<NodeJS.ProcessEnv>, backupDir: string): Promise<BackupCommandRun> {
  const before = new Set(await backupFolders(backupDir));
  const cpuBefore = await reapedChildrenCpuSeconds();
  const started = performance.now();
  const spawnedAt = Date.now();
  const child = spawn('npm', ['run', 'backup', '--', '--to', backupDir], {
    cwd: PROJECT_ROOT,
    env: { ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGTERM'), TIMEOUT_MS);
  const seen: { photoList: number | null; manifest: number | null } = { photoList: null, manifest: null };
  let looking = false;
  const watcher = setInterval(() => {
    if (looking) return;
    looking = true;
    void backupFolders(backupDir)
      .then((names) => {
        const name = names.find((n) => !before.has(n));
        if (!name) return;
        const at = (performance.now() - started) / 1000;
        if (seen.photoList === null && existsSync(path.join(backupDir, name, PHOTO_LIST_FILE))) seen.photoList = at;
        if (seen.manifest === null && existsSync(path.join(backupDir, name, MANIFEST_FILE))) seen.manifest = at;
      })
      .catch(() => undefined)
      .finally(() => (looking = false));
  }, 100);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, signal) => resolve(signal ? null : exitCode));
  }).finally(() => {
    clearTimeout(timer);
    clearInterval(watcher);
  });
  const wallSeconds = (performance.now() - started) / 1000;
  const cpuAfter = await reapedChildrenCpuSeconds();
  const output = text
    .split('\n')
    .map((line) => line.trimEnd())
    // npm's own lines: '> hkmi@x backup', '> tsx server/backup-cli.ts backup --to ...', its warnings.
    .filter((line) => line !== '' && !line.startsWith('> ') && !/^npm (warn|notice)/i.test(line));
  if (code !== 0) {
    throw new Error(`npm run backup -- --to ${backupDir} ${code === null ? 'was stopped' : `exited with ${code}`}: ${output.slice(-10).join(' | ')}`);
  }
  const made = (await backupFolders(backupDir)).filter((name) => !before.has(name));
  const printed = /^Backup made: (.+)$/m.exec(text)?.[1]?.trim();
  const folder = printed ?? (made.length === 1 && made[0] ? path.join(backupDir, made[0]) : undefined);
  if (!folder) throw new Error(`npm run backup finished but made no backup folder in ${backupDir}: ${output.slice(-10).join(' | ')}`);
  const manifest = await readManifest(folder);
  return {
    wallSeconds,
    cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    folder,
    manifest,
    output,
    phases: { snapshot: (Date.parse(manifest.snapshotAt) - spawnedAt) / 1000, ...seen, exit: wallSeconds },
  };
}
