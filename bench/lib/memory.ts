/**
 * Samples a process's resident set size while a scenario runs. Linux: /proc/<pid>/status
 * (VmRSS); elsewhere `ps -o rss=`. Both report KiB.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export async function readRssMb(pid: number): Promise<number | null> {
  if (process.platform === 'linux') {
    try {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
      return match?.[1] ? Number(match[1]) / 1024 : null;
    } catch {
      return null;
    }
  }
  try {
    const { stdout } = await execFileAsync('ps', ['-o', 'rss=', '-p', String(pid)]);
    const kib = Number(stdout.trim());
    return Number.isFinite(kib) && kib > 0 ? kib / 1024 : null;
  } catch {
    return null;
  }
}

export interface RssSampler {
  /** Stops sampling; resolves to the highest RSS seen in MB (null if none could be read). */
  stop(): Promise<number | null>;
}

export function sampleRss(pid: number, intervalMs = 50): RssSampler {
  const recorder = recordRss(pid, intervalMs);
  return {
    async stop() {
      const samples = await recorder.stop();
      return samples.length === 0 ? null : Math.max(...samples.map((s) => s.mb));
    },
  };
}

export interface RssSample {
  /** Milliseconds since recording started. */
  atMs: number;
  mb: number;
}

export interface RssRecorder {
  /** Stops recording; resolves to every sample taken, oldest first. */
  stop(): Promise<RssSample[]>;
}

/** Keeps every RSS sample, to see whether memory levels off or keeps growing (sampleRss keeps the peak). */
export function recordRss(pid: number, intervalMs = 100): RssRecorder {
  const started = performance.now();
  const samples: RssSample[] = [];
  let pending: Promise<void> | null = null;
  const take = (): Promise<void> => {
    const atMs = performance.now() - started;
    const read = readRssMb(pid).then((mb) => {
      if (mb !== null) samples.push({ atMs, mb });
      pending = null;
    });
    pending = read;
    return read;
  };
  void take();
  const timer = setInterval(() => {
    // One read at a time: when the machine is busy, skip a tick rather than pile reads up.
    if (!pending) void take();
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      if (pending) await pending;
      await take();
      return samples;
    },
  };
}

export interface WithRss<T> {
  value: T;
  rssBeforeMb: number;
  /** The highest sample (every 20 ms), at least the figure before. */
  rssPeakMb: number;
}

/** Runs `work` with the process's RSS sampled every 20 ms; the sampling stops whether it succeeds or throws. */
export async function withRss<T>(pid: number, work: () => Promise<T>): Promise<WithRss<T>> {
  const rssBeforeMb = (await readRssMb(pid)) ?? 0;
  const recorder = recordRss(pid, 20);
  let samples: RssSample[] = [];
  let value: T;
  try {
    value = await work();
  } finally {
    samples = await recorder.stop();
  }
  return { value, rssBeforeMb, rssPeakMb: Math.max(rssBeforeMb, ...samples.map((s) => s.mb)) };
}
