/**
 * The bare baseline for the Excel maintenance report (docs/architecture.md, 'Budgets'): one SQL read of the due
 * curves, then exceljs's streaming WorkbookWriter writing the report's two lists ("Service due"
 * and "CoF due": the same columns and rows) into a file. It runs in a process of its own
 * (bench/lib/report-baseline-worker.ts), so that its time and its RSS rise are measured as the
 * server's are: on PostgreSQL it reads the server's database; on PGlite (whose data dir the
 * server holds) an in-memory PGlite of its own, filled by the same generator with the same seed,
 * the same day and the same sizes, i.e. the same data (less what the scenarios have added since).
 */
import path from 'node:path';
import type { ScheduleContext } from '../../server/features/schedule/schedule-sql.js';
import { forkChild } from './child.js';
import { readRssMb, recordRss } from './memory.js';
import { PROJECT_ROOT } from './server.js';
import type { ScenarioContext } from './types.js';

export interface RunRequest {
  type: 'run';
  context: ScheduleContext;
}

export interface RunFigures {
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

export type WorkerMessage =
  | { type: 'ready'; where: string; curves: number; inspections: number; loadSeconds: number }
  | ({ type: 'done' } & RunFigures)
  | { type: 'failed'; message: string };

export interface BaselineRun extends RunFigures {
  rssBeforeMb: number;
  rssPeakMb: number;
}

export interface ReportBaseline {
  pid: number;
  where: string;
  curves: number;
  inspections: number;
  loadSeconds: number;
  run(context: ScheduleContext): Promise<BaselineRun>;
  stop(): Promise<void>;
}

const ENTRY = path.join(PROJECT_ROOT, 'bench', 'lib', 'report-baseline-worker.ts');

export async function startReportBaseline(ctx: ScenarioContext, today: string): Promise<ReportBaseline> {
  const generated = ctx.dataset?.generated;
  if (!ctx.databaseUrl && !generated) throw new Error('the report baseline on PGlite needs the generated records (dataset: records)');
  const child = forkChild<WorkerMessage>(ENTRY, {
    BASELINE_DATABASE_URL: ctx.databaseUrl ?? '',
    BASELINE_TODAY: today,
    BASELINE_COUNT: String(generated?.count ?? 0),
    BASELINE_CURVES: String(generated?.curves ?? 0),
  });
  try {
    const ready = await child.next(600_000);
    if (ready.type !== 'ready') throw new Error(`the report baseline did not start: ${ready.type === 'failed' ? ready.message : ready.type}`);
    return {
      pid: child.pid,
      where: ready.where,
      curves: ready.curves,
      inspections: ready.inspections,
      loadSeconds: ready.loadSeconds,
      async run(context) {
        const rssBeforeMb = (await readRssMb(child.pid)) ?? 0;
        const recorder = recordRss(child.pid, 20);
        child.send({ type: 'run', context } satisfies RunRequest);
        // The recorder stops whether the run answers or fails.
        const answer = await child.next(600_000).catch((error: unknown) => ({ type: 'failed' as const, message: error instanceof Error ? error.message : String(error) }));
        const samples = await recorder.stop();
        if (answer.type !== 'done') throw new Error(`the report baseline failed: ${answer.type === 'failed' ? answer.message : answer.type}`);
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
