/**
 * Cheap facts about a process and a directory, for scenario notes: CPU time (Linux
 * /proc/<pid>/stat) and the files and bytes under a directory.
 */
import { execFileSync } from 'node:child_process';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

let clockTicks: number | null = null;

function ticksPerSecond(): number {
  if (clockTicks === null) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** utime + stime of a /proc stat file, in seconds. */
async function statCpuSeconds(file: string): Promise<number | null> {
  try {
    const stat = await readFile(file, 'utf8');
    // Fields after the command name (which may hold spaces, inside parentheses): state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[14 - 3]);
    const stime = Number(fields[15 - 3]);
    return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / ticksPerSecond() : null;
  } catch {
    return null;
  }
}

export interface CpuSeconds {
  /** All threads of the process. */
  total: number;
  /** The main thread alone: in Node, the event loop (JavaScript, and WASM such as PGlite). */
  main: number | null;
  /**
   * The other threads, summed by thread name: in Node 20 'libuv-worker' is the thread pool
   * (fs, sharp's image work), 'V8 DefaultWorke' V8's helpers (GC, compiling).
   */
  threads: Record<string, number>;
}

/** User + system CPU seconds the process has used so far; null where /proc is not there. */
export async function readCpuSeconds(pid: number): Promise<CpuSeconds | null> {
  if (process.platform !== 'linux') return null;
  const total = await statCpuSeconds(`/proc/${pid}/stat`);
  if (total === null) return null;
  const threads: Record<string, number> = {};
  let main: number | null = null;
  try {
    for (const tid of await readdir(`/proc/${pid}/task`)) {
      const seconds = await statCpuSeconds(`/proc/${pid}/task/${tid}/stat`);
      if (seconds === null) continue;
      // The main thread's task id is the process id.
      if (tid === String(pid)) {
        main = seconds;
        continue;
      }
      const name = (await readFile(`/proc/${pid}/task/${tid}/comm`, 'utf8').catch(() => '?')).trim();
      threads[name] = (threads[name] ?? 0) + seconds;
    }
  } catch {
    // Only the total, then.
  }
  return { total, main, threads };
}

/**
 * CPU seconds of this process's children that have ended and been waited for (and of theirs:
 * cutime + cstime of /proc/self/stat), e.g. a command the bench spawned and saw exit; null
 * where /proc is not there.
 */
export async function reapedChildrenCpuSeconds(): Promise<number | null> {
  if (process.platform !== 'linux') return null;
  try {
    const stat = await readFile('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cutime = Number(fields[16 - 3]);
    const cstime = Number(fields[17 - 3]);
    return Number.isFinite(cutime) && Number.isFinite(cstime) ? (cutime + cstime) / ticksPerSecond() : null;
  } catch {
    return null;
  }
}

/** This process's user + system CPU seconds so far. */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

export interface DirUsage {
  files: number;
  bytes: number;
}

/** Regular files under `dir` (recursively) and their total size; none if it does not exist. */
export async function dirUsage(dir: string, options: { skip?: (name: string) => boolean } = {}): Promise<DirUsage> {
  const skip = options.skip ?? (() => false);
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return { files: 0, bytes: 0 };
  }
  let files = 0;
  let bytes = 0;
  for (const entry of entries) {
    if (!entry.isFile() || skip(entry.name)) continue;
    try {
      bytes += (await stat(path.join(entry.parentPath, entry.name))).size;
      files += 1;
    } catch {
      // Removed meanwhile (a temp file renamed into place).
    }
  }
  return { files, bytes };
}

/** CPU seconds the whole machine has spent busy (all CPUs, everything but idle and iowait) so far. */
export async function readMachineBusySeconds(): Promise<number | null> {
  if (process.platform !== 'linux') return null;
  try {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user)
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    const busy = [user, nice, system, irq, softirq, steal].reduce<number>((sum, v) => sum + (v ?? 0), 0);
    return busy / ticksPerSecond();
  } catch {
    return null;
  }
}

/** CPU seconds used so far by every process whose command name is `comm` (e.g. 'postgres'). */
export async function readCommandCpuSeconds(comm: string): Promise<number | null> {
  if (process.platform !== 'linux') return null;
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let total = 0;
  for (const pid of pids) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== comm) continue;
      total += (await statCpuSeconds(`/proc/${pid}/stat`)) ?? 0;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}
