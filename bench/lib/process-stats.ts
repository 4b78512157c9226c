/** CPU seconds of processes (Linux /proc; null elsewhere) and the files and bytes under a directory, for scenario notes. */
import { execFileSync } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString()) || 100;
  } catch {
    return 100;
  }
})();

const readStat = (file: string) => readFile(file, 'utf8').catch(() => '');

function statSeconds(stat: string, fieldNumbers: readonly number[]): number | null {
  if (!stat) return null;
  // The fields after the command name (which may hold spaces): the first one is field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fieldNumbers.map((n) => Number(fields[n - 3]));
  return ticks.every(Number.isFinite) ? ticks.reduce((sum, t) => sum + t, 0) / TICKS_PER_SECOND : null;
}

const UTIME_STIME = [14, 15];

export async function readCpuSeconds(pid: number) {
  const total = statSeconds(await readStat(`/proc/${pid}/stat`), UTIME_STIME);
  if (total === null) return null;
  const threads: Record<string, number> = {};
  let main: number | null = null;
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const seconds = statSeconds(await readStat(`/proc/${pid}/task/${tid}/stat`), UTIME_STIME);
    if (seconds === null) continue;
    // The main thread's task id is the process id.
    if (tid === String(pid)) main = seconds;
    else {
      const name = (await readStat(`/proc/${pid}/task/${tid}/comm`)).trim() || '?';
      threads[name] = (threads[name] ?? 0) + seconds;
    }
  }
  return { total, main, threads };
}

export const reapedChildrenCpuSeconds = async () => statSeconds(await readStat('/proc/self/stat'), [16, 17]);

export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

export async function readCommandCpuSeconds(comm: string): Promise<number | null> {
  const pids = await readdir('/proc').catch(() => null);
  if (!pids) return null;
  let total = 0;
  for (const pid of pids.filter((name) => /^\d+$/.test(name))) {
    const stat = await readStat(`/proc/${pid}/stat`);
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === comm) total += statSeconds(stat, UTIME_STIME) ?? 0;
  }
  return total;
}

export async function readMachineBusySeconds(): Promise<number | null> {
  const line = (await readStat('/proc/stat')).split('\n')[0];
  if (!line) return null;
  // cpu user nice system idle iowait irq softirq steal (guest time is inside user)
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return [user, nice, system, irq, softirq, steal].reduce<number>((sum, v) => sum + (v ?? 0), 0) / TICKS_PER_SECOND;
}

export async function dirUsage(dir: string, options: { skip?: (name: string) => boolean } = {}) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const usage = { files: 0, bytes: 0 };
  for (const entry of entries) {
    if (!entry.isFile() || options.skip?.(entry.name)) continue;
    // A file removed meanwhile (a temp file renamed into place) is not counted.
    const size = (await stat(path.join(entry.parentPath, entry.name)).catch(() => null))?.size;
    if (size === undefined) continue;
    usage.files += 1;
    usage.bytes += size;
  }
  return usage;
}

export type DirUsage = Awaited<ReturnType<typeof dirUsage>>;
