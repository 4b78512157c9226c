/** A process's resident set size (Linux: VmRSS of /proc/<pid>/status), read once or sampled while work runs. */
import { readFile } from 'node:fs/promises';

export async function readRssMb(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kib ? Number(kib) / 1024 : null;
}

export function recordRss(pid: number, intervalMs = 100) {
  const started = performance.now();
  const samples: Array<{ atMs: number; mb: number }> = [];
  let pending: Promise<void> | null = null;
  const take = () => {
    const atMs = performance.now() - started;
    pending = readRssMb(pid).then((mb) => {
      if (mb !== null) samples.push({ atMs, mb });
      pending = null;
    });
    return pending;
  };
  void take();
  // One read at a time: when the machine is busy, skip a tick rather than pile reads up.
  const timer = setInterval(() => {
    if (!pending) void take();
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await pending;
      await take();
      return samples;
    },
  };
}

export type RssRecorder = ReturnType<typeof recordRss>;

export async function withRss<T>(pid: number, work: () => Promise<T>, intervalMs = 20) {
  const rssBeforeMb = (await readRssMb(pid)) ?? 0;
  const recorder = recordRss(pid, intervalMs);
  let samples: Array<{ mb: number }> = [];
  const value = await work().finally(async () => {
    samples = await recorder.stop();
  });
  return { value, rssBeforeMb, rssPeakMb: Math.max(rssBeforeMb, ...samples.map((s) => s.mb)) };
}
