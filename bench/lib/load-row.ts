/** A request-load scenario as one row: sign-in, the route checked once, its load, hooks, and its bare ceiling under the same load. */
import { performance } from 'node:perf_hooks';
import { type BareKind, withBareCeiling } from './bare-ceilings.js';
import { type LoadOptions, runLoad } from './load.js';
import { cpuMark, cpuNote, type CpuMark } from './records.js';
import { note } from './stats.js';
import type { Budget, DatasetName, Scenario, ScenarioContext, ScenarioResult } from './types.js';

export type RowLoad = Omit<LoadOptions, 'connections'>;

export interface PreparedLoad {
  load: RowLoad;
  notes: string[];
  during?(): Promise<void> | void;
  stop?(): void;
  /** Always, once the scenario is over (its bare ceiling too), e.g. remove the rows it added. */
  finish?(): Promise<void>;
  after?(result: ScenarioResult): Promise<string[]>;
}

export interface LoadRow {
  name: string;
  description: string;
  budget?: Budget;
  dataset?: DatasetName;
  as?: 'Admin' | 'Technician';
  connections?: number;
  ceiling: BareKind;
  remark?: string;
  cpu?: boolean;
  prepare(ctx: ScenarioContext, cookie: string): Promise<PreparedLoad>;
}

export function loadScenario(row: LoadRow): Scenario {
  const { name, description, budget, dataset } = row;
  return {
    name,
    description,
    ...(budget ? { budget } : {}),
    ...(dataset ? { dataset } : {}),
    async run(ctx) {
      const cookie = row.as ? await ctx.signIn(ctx.demo.byRole(row.as).employeeId) : '';
      const prepared = await row.prepare(ctx, cookie);
      const { load } = prepared;
      let start: CpuMark | undefined;
      try {
        const result = await runLoad(ctx, {
          ...load,
          ...(cookie ? { headers: { ...load.headers, cookie } } : {}),
          connections: ctx.connections(row.connections ?? 50),
          async beforeMeasured() {
            if (row.cpu) start = await cpuMark(ctx);
            await prepared.during?.();
          },
        }).finally(() => prepared.stop?.());
        const cpu = row.cpu ? cpuNote(start, await cpuMark(ctx), result.requests) : null;
        result.notes.push(...prepared.notes, ...(cpu ? [cpu] : []));
        result.notes.push(...((await prepared.after?.(result)) ?? []));
        const adminCookie = row.as === 'Admin' ? () => Promise.resolve(cookie) : () => ctx.signIn(ctx.demo.byRole('Admin').employeeId);
        return await withBareCeiling(ctx, result, row.ceiling, name, adminCookie, row.remark);
      } finally {
        await prepared.finish?.();
      }
    },
  };
}

/** Each load on its own for a short while (2 s, 50 connections), so the notes say which of a mix is slow; `counted` takes their errors. */
export async function eachAlone(
  ctx: ScenarioContext,
  loads: ReadonlyArray<{ label: string; load: RowLoad; before?: () => Promise<unknown> }>,
  counted: ScenarioResult | null,
  { seconds = 2, connections = 50 } = {},
): Promise<string> {
  const short = { ...ctx, durationSeconds: seconds, warmupSeconds: 0 };
  const figures: Record<string, string> = {};
  for (const { label, load, before } of loads) {
    await before?.();
    const one = await runLoad(short, { ...load, connections: ctx.connections(connections) });
    const bad = one.errors + one.non2xx;
    figures[label] = `${one.throughput} req/s, p50 ${one.latencyMs.p50} ms, p99 ${one.latencyMs.p99} ms${bad ? ` (${bad} errors)` : ''}`;
    if (counted) {
      counted.errors += one.errors;
      counted.non2xx += one.non2xx;
    }
  }
  return note(`each alone for ${seconds} s at ${ctx.connections(connections)} connections`, figures);
}

/** Reads one at a time, each right after a write that moves its data version on (made anew), then again at once (cached). */
export async function afterWrites(runs: number, write: (i: number) => Promise<number>, read: (i: number) => Promise<{ ms: number; etag?: string | null }>) {
  const [cold, warm, writes, etags] = [[] as number[], [] as number[], [] as number[], [] as Array<string | null | undefined>];
  for (let i = 0; i < runs; i++) {
    writes.push(await write(i));
    const made = await read(i);
    cold.push(made.ms);
    etags.push(made.etag);
    warm.push((await read(i)).ms);
  }
  return { cold, warm, writes, etags };
}

/** Work repeated at a steady rate while a load runs (writes that move a data version on), timed, failures kept apart. */
export function repeatedWrites(perSecond: number, work: () => Promise<unknown>) {
  const figures = { ms: [] as number[], failed: 0, lastError: '' };
  let timer: NodeJS.Timeout | undefined;
  const once = async () => {
    const started = performance.now();
    try {
      await work();
      figures.ms.push(performance.now() - started);
    } catch (error) {
      figures.failed += 1;
      figures.lastError = error instanceof Error ? error.message : String(error);
    }
  };
  return {
    figures,
    once,
    start() {
      Object.assign(figures, { ms: [], failed: 0, lastError: '' });
      void once();
      timer = setInterval(() => void once(), 1000 / perSecond);
    },
    stop: () => clearInterval(timer),
  };
}
