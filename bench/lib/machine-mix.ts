/**
 * The machine dashboard's requests as its users make them (bench/scenarios/machine-stats.ts):
 * the answers checked against the contract, what each user's filters offer, the walk through
 * every DEN and AEN, and the Admin's and the Client's loads at once.
 */
import { machineFiltersResponseSchema, type MachineStatsResponse, machineStatsResponseSchema } from '../../common/schemas/machines.js';
import { runLoad } from './load.js';
import { getParsed } from './records.js';
import { round } from './stats.js';
import type { ScenarioContext, ScenarioResult } from './types.js';

export const STATS = '/api/machine-stats';
export const FILTERS = '/api/machine-filters';
/** Share of the connections that are the Client's; the rest are the Admin's. */
const CLIENT_SHARE = 0.2;

const query = (params: Record<string, string>) => {
  const text = new URLSearchParams(params).toString();
  return text ? `?${text}` : '';
};
export const statsPath = (den?: string, aen?: string) => `${STATS}${query({ ...(den ? { den } : {}), ...(aen ? { aen } : {}) })}`;
const filtersPath = (den?: string) => `${FILTERS}${query(den ? { den } : {})}`;

export async function statsAnswer(ctx: ScenarioContext, cookie: string, path: string): Promise<{ body: MachineStatsResponse; bytes: number; ms: number }> {
  return getParsed(ctx, path, cookie, machineStatsResponseSchema);
}

export async function filtersAnswer(ctx: ScenarioContext, cookie: string, den?: string): Promise<{ dens: string[]; aens: string[] }> {
  return (await getParsed(ctx, filtersPath(den), cookie, machineFiltersResponseSchema)).body;
}

/** What one user's dashboard can ask: every DEN the filters offer, and every AEN under each. */
export interface Choices {
  who: string;
  cookie: string;
  dens: string[];
  pairs: Array<[string, string]>;
}

export async function choicesOf(ctx: ScenarioContext, who: string, cookie: string): Promise<Choices> {
  const { dens } = await filtersAnswer(ctx, cookie);
  if (dens.length === 0) throw new Error(`GET ${FILTERS} as the ${who} offers no DEN`);
  const pairs: Array<[string, string]> = [];
  for (const den of dens) for (const aen of (await filtersAnswer(ctx, cookie, den)).aens) pairs.push([den, aen]);
  if (pairs.length === 0) throw new Error(`GET ${FILTERS}?den= as the ${who} offers no AEN`);
  return { who, cookie, dens, pairs };
}

export const KINDS = ['whole', 'den', 'den+aen', 'filters'] as const;
export type Kind = (typeof KINDS)[number];
export const KIND_LABEL: Record<Kind, string> = {
  whole: `${STATS} (no filter)`,
  den: `${STATS}?den=`,
  'den+aen': `${STATS}?den=&aen=`,
  filters: `${FILTERS}?den=`,
};

/** The next path of one kind, walking through the DENs and AENs. */
export function walker(choices: Choices, kind: Kind): () => string {
  let i = 0;
  return () => {
    const n = i++;
    switch (kind) {
      case 'whole':
        return statsPath();
      case 'den':
        return statsPath(choices.dens[n % choices.dens.length]);
      case 'den+aen': {
        const [den, aen] = choices.pairs[n % choices.pairs.length] ?? [];
        return statsPath(den, aen);
      }
      case 'filters':
        return filtersPath(choices.dens[n % choices.dens.length]);
    }
  };
}

/** Every kind in turn. */
export function mixOf(choices: Choices): () => string {
  const next = KINDS.map((kind) => walker(choices, kind));
  let turn = 0;
  return () => next[turn++ % next.length]?.() ?? STATS;
}

export function split(total: number): { admin: number; client: number } {
  const client = Math.max(1, Math.round(total * CLIENT_SHARE));
  return { admin: Math.max(1, total - client), client };
}

export const describeLoad = (r: ScenarioResult) =>
  `${r.throughput} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms at ${String(r.connections)} connections`;

/**
 * The Admin's and the Client's loads at once (each with its own sign-in), measured over the same
 * phase; `beforeMeasured` runs once, between the warm-ups and the measured phases.
 */
export async function mixedLoad(
  ctx: ScenarioContext,
  admin: Choices,
  client: Choices,
  beforeMeasured?: () => Promise<void> | void,
): Promise<{ result: ScenarioResult; parts: Record<'admin' | 'client', ScenarioResult> }> {
  const connections = split(ctx.connections(50));
  let arrived = 0;
  let released: () => void = () => undefined;
  const bothReady = new Promise<void>((resolve) => (released = resolve));
  // Both measured phases start together, after beforeMeasured.
  const gate = async () => {
    arrived += 1;
    if (arrived === 2) {
      try {
        await beforeMeasured?.();
      } finally {
        released();
      }
    }
    await bothReady;
  };
  const [a, c] = await Promise.all(
    [
      { who: admin, n: connections.admin },
      { who: client, n: connections.client },
    ].map(({ who, n }) => runLoad(ctx, { path: STATS, nextPath: mixOf(who), headers: { cookie: who.cookie }, connections: n, beforeMeasured: gate })),
  );
  if (!a || !c) throw new Error('no load result');
  const statusCodes: Record<string, number> = { ...a.statusCodes };
  for (const [code, count] of Object.entries(c.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  const requests = a.requests + c.requests;
  const result: ScenarioResult = {
    unit: 'req/s',
    connections: connections.admin + connections.client,
    durationSeconds: Math.max(a.durationSeconds, c.durationSeconds),
    requests,
    throughput: round(a.throughput + c.throughput, 1),
    latencyMs: {
      p50: Math.max(a.latencyMs.p50, c.latencyMs.p50),
      p90: Math.max(a.latencyMs.p90, c.latencyMs.p90),
      p99: Math.max(a.latencyMs.p99, c.latencyMs.p99),
      max: Math.max(a.latencyMs.max, c.latencyMs.max),
      mean: requests > 0 ? round((a.latencyMs.mean * a.requests + c.latencyMs.mean * c.requests) / requests) : 0,
    },
    non2xx: a.non2xx + c.non2xx,
    errors: a.errors + c.errors,
    statusCodes,
    notes: [...a.notes.map((n) => `Admin: ${n}`), ...c.notes.map((n) => `Client: ${n}`)],
  };
  return { result, parts: { admin: a, client: c } };
}

