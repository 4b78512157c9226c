/**
 * The request-load scenarios' bare ceilings: the same load on a bare route (bare/server.ts) in its own process, measured once
 * per run and connection count by the first scenario that needs one and reused by the others, to keep the run short.
 */
import { BARE_PAGE, type BareReadRoute, startBareReadServer } from '../bare/start.js';
import { inTurn, type LoadOptions, runLoad } from './load.js';
import { cpuMark, type CpuMark, cpuParts, kb, medianMs, timedFetch } from './records.js';
import type { ScenarioContext, ScenarioResult, ThroughputBaseline } from './types.js';
import { serverToday } from './variables.js';
import { addDays } from '../../common/rules/dates.js';

/** Ceilings read in turn for every division and one: `${kind}:${division}`. */
const PER_DIVISION = {
  'register-pages': { route: 'curves', what: `one indexed page of ${BARE_PAGE} curves (the register's first page`, query: () => 'offset=0' },
  'actions-pages': { route: 'actions', what: `one indexed page of ${BARE_PAGE} open follow_up_actions by the product's list query (every division's first page`, query: () => 'offset=0' },
  'cof-aggregate': {
    route: 'aggregate',
    what: "one aggregate of the last 365 days' CoF readings (the dashboard's cofByPeriod, uncached; every division",
    query: () => `from=${addDays(serverToday(), -364)}&to=${serverToday()}`,
  },
} as const;
type PerDivisionKind = `${keyof typeof PER_DIVISION}:${string}`;
export type BareKind = 'select-1' | 'curves-1000' | 'inspections-page' | 'login' | PerDivisionKind;

export const BARE_CURVES_LIMIT = 1000;
const BARE_INSPECTION_PAGES = 20;

interface CeilingSpec {
  description: string;
  route: BareReadRoute;
  connections?: number;
  paths: string[];
  probePath?: string;
  json?: { employeeId: string; password: string };
}

function specOf(kind: BareKind, ctx: ScenarioContext): CeilingSpec {
  const perDivision = /^([a-z-]+):(.+)$/.exec(kind);
  const table = perDivision ? PER_DIVISION[perDivision[1] as keyof typeof PER_DIVISION] : undefined;
  if (perDivision && table) {
    const { route, what, query } = table;
    const division = perDivision[2] ?? '';
    return {
      description: `bare Fastify + Drizzle, ${what} and ${division}'s in turn)`,
      route,
      paths: [`/${route}?${query()}`, `/${route}?${query()}&division=${encodeURIComponent(division)}`],
    };
  }
  const specs: Record<Exclude<BareKind, PerDivisionKind>, CeilingSpec> = {
    'select-1': { description: 'bare Fastify + Drizzle, one `select 1`', route: 'ping', paths: ['/ping'] },
    'curves-1000': {
      description: `bare Fastify + Drizzle, the register's first ${BARE_CURVES_LIMIT} curves in register order (the same rows), uncompressed`,
      route: 'curves',
      paths: [`/curves?limit=${BARE_CURVES_LIMIT}`],
    },
    'inspections-page': {
      description: `bare Fastify + Drizzle, one indexed page of ${BARE_PAGE} inspection_logs newest first (the first ${BARE_INSPECTION_PAGES} pages in turn)`,
      route: 'inspections',
      paths: Array.from({ length: BARE_INSPECTION_PAGES }, (_, page) => `/inspections?offset=${page * BARE_PAGE}`),
      probePath: `/inspections?offset=${BARE_PAGE * 10}`,
    },
    login: {
      description: 'bare Fastify + Drizzle, one read of the user by lower(employee_id) + one argon2id verify (@node-rs/argon2)',
      route: 'login',
      connections: 10,
      paths: ['/login'],
      json: { employeeId: ctx.demo.byRole('Technician').employeeId, password: ctx.demo.password },
    },
  };
  const spec = specs[kind as keyof typeof specs] as CeilingSpec | undefined;
  if (!spec) throw new Error(`no bare ceiling '${kind}'`);
  return spec;
}

async function measure(ctx: ScenarioContext, kind: BareKind, connections: number, adminCookie: () => Promise<string>): Promise<{ baseline: ThroughputBaseline; note: string }> {
  const spec = specOf(kind, ctx);
  ctx.log(`bare ceiling ${kind}: ${spec.description} ...`);
  const bare = await startBareReadServer(ctx, spec.route, adminCookie);
  try {
    const { json, paths } = spec;
    const probeUrl = `${bare.baseUrl}${spec.probePath ?? paths[0]}`;
    const init = json ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) } : {};
    const probe = await timedFetch(probeUrl, init);
    const probeBytes = Buffer.byteLength(probe.text);
    if (probe.status !== 200) throw new Error(`the bare route ${spec.probePath ?? paths[0]} answered HTTP ${probe.status}`);
    const alone = await medianMs(json ? 5 : 9, async () => (await timedFetch(probeUrl, init)).ms);
    // One path: no setupRequest, which would make autocannon rebuild every request.
    const [path = ''] = paths;
    const load: Omit<LoadOptions, 'connections'> = json ? { path, method: 'POST', json, unit: 'logins/s', timeoutSeconds: 30 } : paths.length > 1 ? inTurn(paths) : { path };
    const bareCpu = () => cpuMark({ ...ctx, serverPid: bare.pid });
    let start: CpuMark | undefined;
    const beforeMeasured = async () => {
      start = await bareCpu();
    };
    const result = await runLoad({ ...ctx, baseUrl: bare.baseUrl }, { ...load, connections, beforeMeasured });
    const end = await bareCpu();
    const failed = result.errors + result.non2xx;
    if (failed > 0) throw new Error(`the bare route had ${failed} failed requests: ${result.notes.join('; ')}`);
    const cpu = start?.server != null && result.requests > 0 ? `; CPU per request: ${cpuParts(start, end, result.requests, 'its process')}` : '';
    const { throughput, unit, latencyMs } = result;
    return {
      baseline: { description: spec.description, throughput, p99Ms: latencyMs.p99, p50Ms: latencyMs.p50 },
      note:
        `bare ceiling (${spec.description}; no hooks, sign-in, cache, validation or compression; reads ${bare.where}): ` +
        `${throughput} ${unit}, p50 ${latencyMs.p50} ms, p99 ${latencyMs.p99} ms, max ${latencyMs.max} ms at ${connections} connections ` +
        `(${ctx.warmupSeconds} s warm-up, ${ctx.durationSeconds} s); alone ${alone} ms, ${kb(probeBytes)} per answer${cpu}`,
    };
  } finally {
    await bare.stop();
  }
}

const measured = new Map<string, { scenario: string; promise: ReturnType<typeof measure> }>();

export async function withBareCeiling(
  ctx: ScenarioContext,
  result: ScenarioResult,
  kind: BareKind,
  scenario: string,
  adminCookie: () => Promise<string>,
  remark?: string,
): Promise<ScenarioResult> {
  const connections = ctx.connections(specOf(kind, ctx).connections ?? 50);
  const key = [kind, connections, ctx.durationSeconds, ctx.warmupSeconds, ctx.databaseUrl ?? ctx.baseUrl].join('|');
  const cached = measured.get(key);
  const ceiling = cached ?? { scenario, promise: measure(ctx, kind, connections, adminCookie) };
  measured.set(key, ceiling);
  try {
    const { baseline: b, note } = await ceiling.promise;
    result.throughputBaseline = b;
    result.notes.push(
      `${note}${cached ? ` (measured once per run, in ${cached.scenario}; reused)` : ''}${remark ? `; ${remark}` : ''}. ` +
        `The product: ${((result.throughput / b.throughput) * 100).toFixed(1)}% of its throughput, p99 ${b.p99Ms > 0 ? (result.latencyMs.p99 / b.p99Ms).toFixed(2) : '-'}x its p99`,
    );
  } catch (error) {
    // A later scenario may try again.
    measured.delete(key);
    const message = error instanceof Error ? error.message : String(error);
    ctx.log(`${scenario}: bare ceiling ${kind} FAILED: ${message}`);
    result.notes.push(`bare ceiling (${kind}) FAILED: ${message.slice(0, 600)}`);
  }
  return result;
}
