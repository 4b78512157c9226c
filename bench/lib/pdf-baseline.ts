/**
 * The bare baseline for the PDF report with photos (docs/architecture.md, 'Budgets'): pdfkit embedding the same
 * print-size photos, two to an A4 page with a line of text each, streamed into a file
 * (bench/lib/pdf-baseline-worker.ts). It runs in a process of its own, so that its time and
 * its RSS are measured as the server's are (RSS sampled every 20 ms from here).
 */
import path from 'node:path';
import { forkChild } from './child.js';
import { readRssMb, recordRss } from './memory.js';
import { PROJECT_ROOT } from './server.js';

export interface PdfBaselineRequest {
  type: 'run';
  /** The JPEGs to place, in order (absolute paths). */
  files: string[];
}

export interface PdfBaselineFigures {
  /** From the first read to the file's last byte on disk. */
  seconds: number;
  /** Of which waiting for the photos from disk (read a few ahead). */
  readSeconds: number;
  pages: number;
  photos: number;
  bytes: number;
  /** CPU seconds of the worker process over the run. */
  cpuSeconds: number;
}

export type PdfBaselineMessage = { type: 'ready' } | ({ type: 'done' } & PdfBaselineFigures) | { type: 'failed'; message: string };

export interface PdfBaselineRun extends PdfBaselineFigures {
  rssBeforeMb: number;
  rssPeakMb: number;
}

export interface PdfBaseline {
  pid: number;
  run(files: string[]): Promise<PdfBaselineRun>;
  stop(): Promise<void>;
}

const ENTRY = path.join(PROJECT_ROOT, 'bench', 'lib', 'pdf-baseline-worker.ts');

export async function startPdfBaseline(): Promise<PdfBaseline> {
  const child = forkChild<PdfBaselineMessage>(ENTRY, {});
  try {
    const ready = await child.next(60_000);
    if (ready.type !== 'ready') throw new Error(`the PDF baseline did not start: ${ready.type === 'failed' ? ready.message : ready.type}`);
    return {
      pid: child.pid,
      async run(files) {
        const rssBeforeMb = (await readRssMb(child.pid)) ?? 0;
        const recorder = recordRss(child.pid, 20);
        child.send({ type: 'run', files } satisfies PdfBaselineRequest);
        // The recorder stops whether the run answers or fails.
        const answer = await child.next(600_000).catch((error: unknown) => ({ type: 'failed' as const, message: error instanceof Error ? error.message : String(error) }));
        const samples = await recorder.stop();
        if (answer.type !== 'done') throw new Error(`the PDF baseline failed: ${answer.type === 'failed' ? answer.message : answer.type}`);
        const { type: _type, ...figures } = answer;
        return { ...figures, rssBeforeMb, rssPeakMb: Math.max(rssBeforeMb, ...samples.map((s) => s.mb)) };
      },
      stop: () => child.stop(),
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
