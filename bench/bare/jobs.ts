/**
 * The bare baselines of the timed reports, each in a process of its own (./job-worker.ts) so that
 * its time and its RSS are measured as the server's are (RSS sampled every 20 ms from here):
 *
 * 'pdf'    the budget table's "bare pdfkit embedding the same print-size photos": the given JPEGs, two to an
 *          A4 page with a line of text each, streamed into a file.
 * 'excel'  the budget table's "bare exceljs streaming writer on the same rows": ONE SQL read of the due
 *          curves (the product's schedule statement), then exceljs's WorkbookWriter writing the
 *          maintenance report's two lists ("Service due", "CoF due") with the product's columns
 *          and cells. On PostgreSQL it reads the server's database; on PGlite an in-memory copy
 *          loaded by the scale seed as the server's was (./database.ts).
 */
import path from 'node:path';
import type { ScheduleContext } from '../../server/features/schedule/schedule-sql.js';
import { forkChild } from '../lib/child.js';
import { withRss } from '../lib/memory.js';
import { PROJECT_ROOT } from '../lib/server.js';
import type { ScenarioContext } from '../lib/types.js';
import { generatedDataEnv } from './database.js';

export interface PdfFigures {
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

export interface ExcelFigures {
  /** The SQL read of the due curves. */
  sqlSeconds: number;
  /** exceljs writing both sheets into the file, to its end. */
  writeSeconds: number;
  seconds: number;
  serviceRows: number;
  cofRows: number;
  bytes: number;
  /** CPU seconds of the worker process over the run. */
  cpuSeconds: number;
}

/** What the worker holds once ready ('excel': its database and what is in it). */
export interface JobWorkerReady {
  where: string;
  curves: number;
  inspections: number;
  loadSeconds: number;
}

export type JobRequest = { type: 'run'; files: string[] } | { type: 'run'; context: ScheduleContext };
export type JobMessage<F> = ({ type: 'ready' } & JobWorkerReady) | ({ type: 'done' } & F) | { type: 'failed'; message: string };

export type WithRssFigures<F> = F & { rssBeforeMb: number; rssPeakMb: number };

export interface JobBaseline<Input, F> extends JobWorkerReady {
  pid: number;
  run(input: Input): Promise<WithRssFigures<F>>;
  stop(): Promise<void>;
}

const ENTRY = path.join(PROJECT_ROOT, 'bench', 'bare', 'job-worker.ts');

async function startJobWorker<Input, F>(job: 'pdf' | 'excel', env: Record<string, string>, request: (input: Input) => JobRequest): Promise<JobBaseline<Input, F>> {
  const child = forkChild<JobMessage<F>>(ENTRY, { ...env, BARE_JOB: job });
  try {
    // 'excel' on PGlite loads its copy of the generated records first.
    const ready = await child.next(600_000);
    if (ready.type !== 'ready') throw new Error(`the ${job} baseline did not start: ${ready.type === 'failed' ? ready.message : ready.type}`);
    const { type: _ready, ...held } = ready;
    return {
      ...held,
      pid: child.pid,
      async run(input) {
        const { value: answer, rssBeforeMb, rssPeakMb } = await withRss(child.pid, () => {
          child.send(request(input));
          return child.next(600_000);
        });
        if (answer.type !== 'done') throw new Error(`the ${job} baseline failed: ${answer.type === 'failed' ? answer.message : answer.type}`);
        const { type: _done, ...figures } = answer;
        return { ...(figures as F), rssBeforeMb, rssPeakMb };
      },
      stop: () => child.stop(),
    };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/** Bare pdfkit over the given JPEG files (absolute paths, in order). */
export const startPdfBaseline = () => startJobWorker<string[], PdfFigures>('pdf', {}, (files) => ({ type: 'run', files }));

/** One SQL read + exceljs over the due curves of the server's database (or a PGlite copy of it made for `today`). */
export function startReportBaseline(ctx: ScenarioContext, today: string): Promise<JobBaseline<ScheduleContext, ExcelFigures>> {
  const generated = ctx.dataset?.generated;
  if (!ctx.databaseUrl && !generated) throw new Error('the report baseline on PGlite needs the generated records (dataset: records)');
  const env = { BARE_DATABASE_URL: ctx.databaseUrl ?? '', ...generatedDataEnv({ today, count: generated?.count ?? 0, curves: generated?.curves ?? 0 }) };
  return startJobWorker<ScheduleContext, ExcelFigures>('excel', env, (context) => ({ type: 'run', context }));
}
