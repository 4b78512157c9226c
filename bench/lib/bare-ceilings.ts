/**
 * The bare ceilings of the request-load scenarios (docs/architecture.md, 'Budgets': "every budget is read as a
 * ratio to a bare baseline measured in the same run"), each the same load (connections, duration,
 * warm-up: the run's) on a bare route of bench/lib/bare-read-server.ts in a process of its own:
 *
 *   select-1          GET /ping: bare Fastify + one `select 1` through Drizzle (for `health`)
 *   curves-1000       GET /curves?limit=1000: the register's first 1000 curves in register order,
 *                     the same rows `curves-list` asks for (for `curves-list`)
 *   inspections-page  GET /inspections?offset=0..950: one indexed page of 50 inspection_logs,
 *                     newest first, the first 20 pages in turn (for the records view's reads:
 *                     inspections-page, inspections-page-writes, inspections-filtered, data-summary)
 *   login             POST /login: one read of the user by its sign-in key and one argon2id
 *                     verify (@node-rs/argon2) (for `login`)
 *   register-pages:D  GET /page: one indexed page of 50 curves, the register's first page and
 *                     division D's in turn (for `schedule` and `machine-stats*`, which read the register)
 *
 * Each is measured once per run (per connection count) and reused by every scenario that shares
 * it, to keep the run short: the notes say where it was measured.
 */
import { performance } from 'node:perf_hooks';
import { BARE_PAGE, type BareData, startBareReadServer } from '../bare/start.js';
import { type LoadOptions, runLoad } from './load.js';
import { readCommandCpuSeconds, readCpuSeconds } from './process-stats.js';
import { kb, medianMs } from './records.js';
import type { ScenarioContext, ScenarioResult, ThroughputBaseline } from './types.js';

export type BareKind = 'select-1' | 'curves-1000' | 'inspections-page' | 'login' | `register-pages:${string}`;

/** The pages the bare inspections route walks, as `inspections-page` walks the product's. */
export const BARE_INSPECTION_PAGES = 20;
export const BARE_CURVES_LIMIT = 1000;

interface KindSpec {
  description: string;
  data: BareData;
  /** The scenario's default connections (BENCH_CONNECTIONS overrides, as for the product). */
  connections: number;
  load(ctx: ScenarioContext): Omit<LoadOptions, 'connections'>;
  /** One request, to check the route answers as it should and to weigh its answer. */
  probe: { path: string; init?: RequestInit };
}

function specOf(kind: BareKind, ctx: ScenarioContext): KindSpec {
  if (kind.startsWith('register-pages:')) {
    const division = kind.slice('register-pages:'.length);
    const paths = ['/page?offset=0', `/page?division=${encodeURIComponent(division)}&offset=0`];
    let turn = 0;
    return {
      description: `bare Fastify + Drizzle, one indexed page of ${BARE_PAGE} curves (the register's first page and ${division}'s in turn)`,
      data: 'curves',
      connections: 50,
      load: () => ({ path: paths[0] ?? '', nextPath: () => paths[turn++ % paths.length] ?? '' }),
      probe: { path: paths[0] ?? '' },
    };
  }
  switch (kind) {
    case 'select-1':
      return {
        description: 'bare Fastify + Drizzle, one `select 1`',
        data: 'none',
        connections: 50,
        load: () => ({ path: '/ping' }),
        probe: { path: '/ping' },
      };
    case 'curves-1000':
      return {
        description: `bare Fastify + Drizzle, the register's first ${BARE_CURVES_LIMIT} curves in register order (the same rows), uncompressed`,
        data: 'curves',
        connections: 50,
        load: () => ({ path: `/curves?limit=${BARE_CURVES_LIMIT}` }),
        probe: { path: `/curves?limit=${BARE_CURVES_LIMIT}` },
      };
    case 'inspections-page': {
      let turn = 0;
      return {
        description: `bare Fastify + Drizzle, one indexed page of ${BARE_PAGE} inspection_logs newest first (the first ${BARE_INSPECTION_PAGES} pages in turn)`,
        data: 'records',
        connections: 50,
        load: () => ({ path: '/inspections?offset=0', nextPath: () => `/inspections?offset=${(turn++ % BARE_INSPECTION_PAGES) * BARE_PAGE}` }),
        probe: { path: `/inspections?offset=${BARE_PAGE * 10}` },
      };
    }
    case 'login': {
      const body = JSON.stringify({ employeeId: ctx.demo.byRole('Technician').employeeId, password: ctx.demo.password });
      return {
        description: 'bare Fastify + Drizzle, one read of the user by lower(employee_id) + one argon2id verify (@node-rs/argon2)',
        data: 'user',
        connections: 10,
        load: () => ({
          path: '/login',
          method: 'POST',
          json: JSON.parse(body) as unknown,
          unit: 'logins/s',
          timeoutSeconds: 30,
        }),
        probe: { path: '/login', init: { method: 'POST', headers: { 'content-type': 'application/json' }, body } },
      };
    }
  }
  throw new Error(`no bare ceiling '${kind}'`);
}

export interface BareCeiling {
  baseline: ThroughputBaseline;
  /** Its figures, CPU per request and where it read, for the scenario's notes. */
  note: string;
}

interface Cached {
  scenario: string;
  promise: Promise<BareCeiling>;
}

const measured = new Map<string, Cached>();

interface Cpu {
  process: number | null;
  database: number | null;
}

async function cpuOf(ctx: ScenarioContext, pid: number): Promise<Cpu> {
  const [own, database] = await Promise.all([readCpuSeconds(pid), ctx.database === 'postgres' ? readCommandCpuSeconds('postgres') : Promise.resolve(null)]);
  return { process: own?.total ?? null, database };
}

async function measure(ctx: ScenarioContext, kind: BareKind, connections: number, cookie: () => Promise<string>): Promise<BareCeiling> {
  const spec = specOf(kind, ctx);
  ctx.log(`bare ceiling ${kind}: ${spec.description} ...`);
  const bare = await startBareReadServer(ctx, spec.data === 'curves' ? await cookie() : '', {
    data: spec.data,
    user: { employeeId: ctx.demo.byRole('Technician').employeeId, password: ctx.demo.password },
  });
  try {
    const probeUrl = `${bare.baseUrl}${spec.probe.path}`;
    const probe = await fetch(probeUrl, spec.probe.init);
    const probeBytes = (await probe.arrayBuffer()).byteLength;
    if (probe.status !== 200) throw new Error(`the bare route ${spec.probe.path} answered HTTP ${probe.status}`);
    const alone = await medianMs(kind === 'login' ? 5 : 9, async () => {
      const started = performance.now();
      await (await fetch(probeUrl, spec.probe.init)).arrayBuffer();
      return performance.now() - started;
    });
    const marks: { start?: Cpu } = {};
    const load: ScenarioResult = await runLoad(
      { ...ctx, baseUrl: bare.baseUrl },
      {
        ...spec.load(ctx),
        connections,
        async beforeMeasured() {
          marks.start = await cpuOf(ctx, bare.pid);
        },
      },
    );
    const end = await cpuOf(ctx, bare.pid);
    if (load.errors + load.non2xx > 0) throw new Error(`the bare route had ${load.errors + load.non2xx} failed requests: ${load.notes.join('; ')}`);
    // PostgreSQL's figure sums every postgres process: one that exits meanwhile (another client's) makes it drop, and it is left out.
    const perRequest = (start: number | null | undefined, stop: number | null) =>
      start !== null && start !== undefined && stop !== null && stop >= start && load.requests > 0
        ? `${(((stop - start) * 1000) / load.requests).toFixed(2)} ms`
        : null;
    const ownCpu = perRequest(marks.start?.process, end.process);
    const databaseCpu = perRequest(marks.start?.database, end.database);
    const cpu = (ownCpu ? `; CPU per request: its process ${ownCpu}` : '') + (ownCpu && databaseCpu ? `, PostgreSQL ${databaseCpu}` : '');
    return {
      baseline: { description: spec.description, throughput: load.throughput, p99Ms: load.latencyMs.p99, p50Ms: load.latencyMs.p50 },
      note:
        `bare ceiling (${spec.description}; no hooks, sign-in, cache, validation or compression; reads ${bare.where}): ` +
        `${load.throughput} ${load.unit}, p50 ${load.latencyMs.p50} ms, p99 ${load.latencyMs.p99} ms, max ${load.latencyMs.max} ms at ${connections} connections ` +
        `(${ctx.warmupSeconds} s warm-up, ${ctx.durationSeconds} s); alone ${alone} ms, ${kb(probeBytes)} per answer${cpu}`,
    };
  } finally {
    await bare.stop();
  }
}

/**
 * The bare ceiling of `kind` under the run's load shape, measured the first time a scenario asks
 * for it and reused after that. `cookie` (an Admin's) is needed on PGlite to copy the register.
 */
export async function bareCeiling(ctx: ScenarioContext, kind: BareKind, scenario: string, cookie: () => Promise<string>): Promise<BareCeiling> {
  const connections = ctx.connections(specOf(kind, ctx).connections);
  const key = [kind, connections, ctx.durationSeconds, ctx.warmupSeconds, ctx.databaseUrl ?? ctx.baseUrl].join('|');
  const cached = measured.get(key);
  if (cached) {
    const value = await cached.promise;
    return { baseline: value.baseline, note: `${value.note} (measured once per run, in ${cached.scenario}; reused)` };
  }
  const entry: Cached = { scenario, promise: measure(ctx, kind, connections, cookie) };
  measured.set(key, entry);
  try {
    return await entry.promise;
  } catch (error) {
    // A later scenario may try again.
    measured.delete(key);
    throw error;
  }
}

/**
 * Puts the bare ceiling beside a product result: `throughputBaseline` (the table's columns and
 * the budget's ratio) and a note. A baseline that fails leaves the result without one (the
 * columns read '-', a ratio budget fails for want of it) and says why in the notes.
 */
export async function withBareCeiling(
  ctx: ScenarioContext,
  result: ScenarioResult,
  kind: BareKind,
  scenario: string,
  cookie: () => Promise<string>,
  remark?: string,
): Promise<ScenarioResult> {
  try {
    const ceiling = await bareCeiling(ctx, kind, scenario, cookie);
    result.throughputBaseline = ceiling.baseline;
    const b = ceiling.baseline;
    result.notes.push(
      `${ceiling.note}${remark ? `; ${remark}` : ''}. The product: ${((result.throughput / b.throughput) * 100).toFixed(1)}% of its throughput, ` +
        `p99 ${b.p99Ms > 0 ? (result.latencyMs.p99 / b.p99Ms).toFixed(2) : '-'}x its p99`,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.log(`${scenario}: bare ceiling ${kind} FAILED: ${message}`);
    result.notes.push(`bare ceiling (${kind}) FAILED: ${message.slice(0, 600)}`);
  }
  return result;
}
