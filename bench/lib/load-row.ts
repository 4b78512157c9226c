/**
 * A request-load scenario as one row: who signs in, what the route answers (checked once before
 * the load, for the notes), the load autocannon puts on it, hooks around its measured phase, and
 * the bare ceiling (lib/bare-ceilings.ts) measured under the same load in the same run.
 */
import { type BareKind, withBareCeiling } from './bare-ceilings.js';
import { type LoadOptions, runLoad } from './load.js';
import { cpuMark, cpuNote, type CpuMark } from './records.js';
import { note } from './stats.js';
import type { Budget, DatasetName, Scenario, ScenarioContext, ScenarioResult } from './types.js';

export type RowLoad = Omit<LoadOptions, 'connections'>;

/** What a row's check found: the load to put on the route, notes, and its hooks. */
export interface PreparedLoad {
  load: RowLoad;
  notes: string[];
  /** Right before the measured phase (after the warm-up), e.g. to start writes. */
  during?(): Promise<void> | void;
  /** Once the load is over, also when it failed: ends what `during` started. */
  stop?(): void;
  /** After the measured phase: more measurements, their notes returned. */
  after?(result: ScenarioResult): Promise<string[]>;
}

export interface LoadRow {
  name: string;
  description: string;
  budget?: Budget;
  dataset?: DatasetName;
  /** Whose session cookie every request carries (none: no sign-in). */
  as?: 'Admin' | 'Technician';
  /** Default 50. */
  connections?: number;
  ceiling: BareKind;
  /** Said beside the ceiling in its note. */
  remark?: string;
  /** Notes the CPU per request over the measured phase. */
  cpu?: boolean;
  /** Checks the route once and says what it answers; returns the load (the cookie and connections are added). */
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
      return withBareCeiling(ctx, result, row.ceiling, name, adminCookie, row.remark);
    },
  };
}

/**
 * Each load alone for `seconds` at the scenario's connections, one after another, for the notes
 * (which of them is the slow one). With `counted`, their errors count in that result.
 */
export async function eachAlone(
  ctx: ScenarioContext,
  seconds: number,
  connections: number,
  loads: ReadonlyArray<{ label: string; load: RowLoad; before?: () => Promise<unknown> }>,
  counted: ScenarioResult | null,
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
