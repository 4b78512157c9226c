/**
 * The machine dashboard's reads over 10k curve records, the demo Admin and Client at once, beside the bare read baseline;
 * machine-stats-writes updates a row a second so answers are remade. On PGlite: the demo seed's records (README).
 * The scale seed tops curve_records up (server/db/seed/scale/rollout.ts) on PostgreSQL and the records go again afterwards:
 * the other scenarios (schedule, backup) read curve_records at the demo's size.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { dateInTimeZone } from '../../common/rules/dates.js';
import { machineFiltersResponseSchema, machineStatsResponseSchema } from '../../common/schemas/machines.js';
import { sheetDate } from '../../server/db/seed/calendar.js';
import { DEMO_ACCOUNTS } from '../../server/db/seed/demo-accounts.js';
import { sqlClientOf } from '../../server/db/seed/scale/load.js';
import { topUpCurveRecords } from '../../server/db/seed/scale/rollout.js';
import { type BareKind, withBareCeiling } from '../lib/bare-ceilings.js';
import { runLoad } from '../lib/load.js';
import { afterWrites, eachAlone, repeatedWrites } from '../lib/load-row.js';
import { cpuMark, cpuNote, getJson, getParsed, kb, medianMs, READ_BUDGET, type CpuMark } from '../lib/records.js';
import { note, round, summarizeLatencies } from '../lib/stats.js';
import type { Budget, Scenario, ScenarioContext, ScenarioResult } from '../lib/types.js';

const STATS = '/api/machine-stats';
const FILTERS = '/api/machine-filters';
const WRITE_EVERY_SECONDS = 1;
const ALONE_SECONDS = 2;
const UNCACHED_RUNS = 10;
const CLIENT_SHARE = 0.2;
const CLIENT = DEMO_ACCOUNTS.find((a) => a.role === 'Client');
const BARE_CEILING: BareKind = `register-pages:${CLIENT?.divisionAccess ?? 'RTM/WR'}`;
const today = () => dateInTimeZone(new Date(), process.env.APP_TIMEZONE?.trim() || 'Asia/Kolkata');
const BUDGET: Budget = {
  ...READ_BUDGET,
  description:
    'API reads with 100k inspections / 10k curves (here 10k curve records): p99 <= 50 ms at 50 connections on PostgreSQL and >= 80% of the bare ' +
    "Fastify + Drizzle baseline's throughput (docs/architecture.md, 'Budgets')",
};

async function countRows(client: pg.Client): Promise<Map<string, number>> {
  const { rows } = await client.query<{ division: string; n: string }>('select division_railway as division, count(*) as n from curve_records group by 1');
  return new Map(rows.map((r) => [r.division, Number(r.n)]));
}

const sum = (counts: ReadonlyMap<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

async function prepareRollout(ctx: ScenarioContext, countThroughApi: () => Promise<number>) {
  const target = ctx.dataset?.curves ?? 10_000;
  if (!ctx.databaseUrl) {
    const rows = await countThroughApi();
    const what =
      `${rows} curve records (the demo seed's): on PGlite the server holds the data dir and no API writes curve_records, ` +
      `so the ${target} records are added on PostgreSQL only (BENCH_DATABASE_URL)`;
    return { rows, byDivision: new Map<string, number>(), what, client: null, pending: [] as number[], remove: () => Promise.resolve() };
  }
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const before = await countRows(client);
    const started = performance.now();
    const ids = await topUpCurveRecords(sqlClientOf(client), target, today());
    const seconds = round((performance.now() - started) / 1000, 1);
    const pending = await client.query<{ id: number }>("select id from curve_records where id = any($1::int4[]) and machine_actual = 'Pending' order by id", [ids]);
    const byDivision = await countRows(client);
    const { rows: names } = await client.query<{ dens: string; aens: string }>('select count(distinct btrim(den)) as dens, count(distinct btrim(aen)) as aens from curve_records');
    const what =
      `${sum(byDivision)} curve records (the demo seed's ${sum(before)} + ${ids.length} from the scale seed, inserted and analysed in ${seconds} s, ` +
      `removed afterwards): ${byDivision.size} divisions, ${names[0]?.dens ?? '?'} DENs, ${names[0]?.aens ?? '?'} AENs`;
    const remove = async () => {
      try {
        await client.query('delete from curve_records where id = any($1::int4[])', [ids]);
      } finally {
        await client.end();
      }
    };
    return { rows: sum(byDivision), byDivision, what, client, pending: pending.rows.map((r) => r.id), remove };
  } catch (error) {
    await client.end();
    throw error;
  }
}

type Rollout = Awaited<ReturnType<typeof prepareRollout>>;

const withQuery = (path: string, params: Record<string, string | undefined>) => {
  const text = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
  return text ? `${path}?${text}` : path;
};
const statsPath = (den?: string, aen?: string) => withQuery(STATS, { den, aen });
const statsAnswer = (ctx: ScenarioContext, cookie: string, path = statsPath()) => getParsed(ctx, path, cookie, machineStatsResponseSchema);
const filtersAnswer = async (ctx: ScenarioContext, cookie: string, den?: string) =>
  (await getParsed(ctx, withQuery(FILTERS, { den }), cookie, machineFiltersResponseSchema)).body;

interface Choices {
  cookie: string;
  dens: string[];
  pairs: Array<[string, string]>;
}

async function choicesOf(ctx: ScenarioContext, who: string, cookie: string): Promise<Choices> {
  const { dens } = await filtersAnswer(ctx, cookie);
  if (dens.length === 0) throw new Error(`GET ${FILTERS} as the ${who} offers no DEN`);
  const pairs: Array<[string, string]> = [];
  for (const den of dens) for (const aen of (await filtersAnswer(ctx, cookie, den)).aens) pairs.push([den, aen]);
  if (pairs.length === 0) throw new Error(`GET ${FILTERS}?den= as the ${who} offers no AEN`);
  return { cookie, dens, pairs };
}

const KINDS = {
  whole: { label: `${STATS} (no filter)`, path: () => statsPath() },
  den: { label: `${STATS}?den=`, path: (c: Choices, n: number) => statsPath(c.dens[n % c.dens.length]) },
  'den+aen': { label: `${STATS}?den=&aen=`, path: (c: Choices, n: number) => statsPath(...(c.pairs[n % c.pairs.length] ?? [])) },
  filters: { label: `${FILTERS}?den=`, path: (c: Choices, n: number) => withQuery(FILTERS, { den: c.dens[n % c.dens.length] }) },
};
type Kind = keyof typeof KINDS;
const KIND_NAMES = Object.keys(KINDS) as Kind[];

function walker(choices: Choices, kind: Kind): () => string {
  let n = 0;
  return () => KINDS[kind].path(choices, n++);
}

function mixOf(choices: Choices): () => string {
  const next = KIND_NAMES.map((kind) => walker(choices, kind));
  let turn = 0;
  return () => next[turn++ % next.length]?.() ?? STATS;
}

const describeLoad = (r: ScenarioResult) =>
  `${r.throughput} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms at ${String(r.connections)} connections`;

function combined(parts: Record<'Admin' | 'Client', ScenarioResult>): ScenarioResult {
  const results = Object.values(parts);
  const sum = (pick: (r: ScenarioResult) => number) => results.reduce((n, r) => n + pick(r), 0);
  const highest = (pick: (r: ScenarioResult) => number) => Math.max(...results.map(pick));
  const statusCodes: Record<string, number> = {};
  for (const r of results) for (const [code, count] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  const requests = sum((r) => r.requests);
  return {
    unit: 'req/s',
    connections: sum((r) => r.connections ?? 0),
    durationSeconds: highest((r) => r.durationSeconds),
    requests,
    throughput: round(sum((r) => r.throughput), 1),
    latencyMs: {
      p50: highest((r) => r.latencyMs.p50),
      p90: highest((r) => r.latencyMs.p90),
      p99: highest((r) => r.latencyMs.p99),
      max: highest((r) => r.latencyMs.max),
      mean: requests > 0 ? round(sum((r) => r.latencyMs.mean * r.requests) / requests) : 0,
    },
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    statusCodes,
    notes: Object.entries(parts).flatMap(([who, r]) => r.notes.map((n) => `${who}: ${n}`)),
  };
}

async function mixedLoad(ctx: ScenarioContext, setup: Setup, beforeMeasured: () => Promise<void>) {
  const total = ctx.connections(50);
  const clientConnections = Math.max(1, Math.round(total * CLIENT_SHARE));
  let arrived = 0;
  let release: () => void = () => undefined;
  const bothReady = new Promise<void>((resolve) => (release = resolve));
  const gate = async () => {
    arrived += 1;
    if (arrived === 2) await beforeMeasured().finally(release);
    await bothReady;
  };
  const load = (who: Choices, connections: number) =>
    runLoad(ctx, { path: STATS, nextPath: mixOf(who), headers: { cookie: who.cookie }, connections, beforeMeasured: gate });
  const [Admin, Client] = await Promise.all([load(setup.admin, Math.max(1, total - clientConnections)), load(setup.client, clientConnections)]);
  const parts = { Admin, Client };
  return { result: combined(parts), parts };
}

type Setup = Awaited<ReturnType<typeof setUp>>;

async function setUp(ctx: ScenarioContext) {
  if (!CLIENT?.divisionAccess) throw new Error('the demo seed has no Client limited to a division');
  const adminCookie = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
  const clientCookie = await ctx.signIn(CLIENT.employeeId);
  const rollout = await prepareRollout(ctx, async () => (await statsAnswer(ctx, adminCookie)).body.totals.scope);
  try {
    const admin = await choicesOf(ctx, 'Admin', adminCookie);
    const client = await choicesOf(ctx, `Client (${CLIENT.divisionAccess} only)`, clientCookie);
    const whole = await statsAnswer(ctx, adminCookie);
    const own = await statsAnswer(ctx, clientCookie);
    if (ctx.databaseUrl) {
      if (whole.body.totals.scope !== rollout.rows) throw new Error(`GET ${STATS} counts ${whole.body.totals.scope} curves, curve_records has ${rollout.rows}`);
      const expected = rollout.byDivision.get(CLIENT.divisionAccess) ?? 0;
      if (own.body.totals.scope !== expected) throw new Error(`GET ${STATS} as the Client counts ${own.body.totals.scope} curves, ${CLIENT.divisionAccess} has ${expected}`);
    }
    if (client.dens.some((d) => !admin.dens.includes(d))) throw new Error("the Client's DENs are not among the Admin's");
    const one = await statsAnswer(ctx, adminCookie, statsPath(...(admin.pairs[0] ?? [])));
    const t = whole.body.totals;
    const notes = [
      `data: ${rollout.what}`,
      note('filters offered', { 'Admin DENs': admin.dens.length, 'Admin DEN + AEN pairs': admin.pairs.length, 'Client DENs': client.dens.length, 'Client pairs': client.pairs.length }),
      note('the zone', { curves: t.scope, foundation: t.foundationCompleted, installed: t.machinesInstalled, commissioned: t.machinesCommissioned }),
      note('answers', {
        'the zone': `${kb(whole.bytes)} (${whole.body.breakdown.rows.length} DEN rows)`,
        "the Client's division": `${kb(own.bytes)} (${own.body.totals.scope} curves)`,
        'one DEN + AEN': `${kb(one.bytes)} (${one.body.totals.scope} curves)`,
      }),
    ];
    return { rollout, admin, client, notes };
  } catch (error) {
    await rollout.remove();
    throw error;
  }
}

const askedKinds = (setup: Setup, clientKinds: readonly Kind[]) =>
  [...KIND_NAMES.map((kind) => ({ who: 'Admin', choices: setup.admin, kind })), ...clientKinds.map((kind) => ({ who: 'Client', choices: setup.client, kind }))].map(
    (asked) => ({ ...asked, label: `${asked.who} ${KINDS[asked.kind].label}` }),
  );

async function aloneNote(ctx: ScenarioContext, setup: Setup): Promise<string> {
  const figures: Record<string, string> = {};
  for (const { choices, kind, label } of askedKinds(setup, ['whole'])) {
    const next = walker(choices, kind);
    figures[label] = `${await medianMs(9, async () => (await getJson(ctx, next(), choices.cookie)).ms)} ms`;
  }
  return note('alone (one connection, median of 9, cached)', figures);
}

function machineWriter(ctx: ScenarioContext, rollout: Rollout, writer: NonNullable<Rollout['client']>) {
  const installedOn = sheetDate(today());
  let next = 0;
  const writes = repeatedWrites(1 / WRITE_EVERY_SECONDS, () =>
    writer.query('update curve_records set machine_actual = $1 where id = $2', [installedOn, rollout.pending[next++ % Math.max(rollout.pending.length, 1)]]),
  );
  const { once: write, figures } = writes;
  const installed = async (cookie: string) => (await statsAnswer(ctx, cookie)).body.totals.machinesInstalled;
  return {
    write,
    failed: () => figures.failed,
    async checkReaches(cookie: string) {
      const before = await installed(cookie);
      await write();
      const after = await installed(cookie);
      if (after !== before + 1) throw new Error(`after installing one machine GET ${STATS} counts ${after} installed, before ${before}: the write did not reach the answer`);
    },
    start: writes.start,
    stop: writes.stop,
    note() {
      const { ms: writeMs, failed, lastError } = figures;
      const w = summarizeLatencies(writeMs);
      return note("UPDATEs of one row's machine_actual during the measured phase (each moved curve_records' version on: the next requests regrouped the table)", {
        count: writeMs.length,
        failed: `${failed}${lastError ? ` (${lastError})` : ''}`,
        p50: `${w.p50} ms`,
        max: `${w.max} ms`,
      });
    },
  };
}

async function uncachedNote(ctx: ScenarioContext, setup: Setup, write: () => Promise<void>): Promise<string> {
  const { cold, warm } = await afterWrites(UNCACHED_RUNS, () => write().then(() => 0), () => statsAnswer(ctx, setup.admin.cookie));
  const c = summarizeLatencies(cold);
  return note(`alone, right after a write (the whole table regrouped; ${setup.rollout.rows} records), ${STATS} over ${UNCACHED_RUNS}`, {
    p50: `${c.p50} ms`,
    max: `${c.max} ms`,
    'the same again at once (cached) p50': `${summarizeLatencies(warm).p50} ms`,
  });
}

const PGLITE_NO_WRITES =
  'PGlite: NO WRITES. The server holds the PGlite data dir and no API writes curve_records, so these figures are the warm case ' +
  '(as machine-stats); run with BENCH_DATABASE_URL for the writes';

function machineScenario(name: string, description: string, withWrites: boolean): Scenario {
  return {
    name,
    description,
    budget: BUDGET,
    dataset: 'records',
    async run(ctx) {
      const setup = await setUp(ctx);
      const { notes, rollout } = setup;
      const writer = withWrites && rollout.client ? machineWriter(ctx, rollout, rollout.client) : null;
      try {
        if (!withWrites) notes.push(await aloneNote(ctx, setup));
        else if (writer) await writer.checkReaches(setup.admin.cookie);
        else notes.push(PGLITE_NO_WRITES);
        const marks: { start?: CpuMark } = {};
        const mix = await mixedLoad(ctx, setup, async () => {
          marks.start = await cpuMark(ctx);
          writer?.start();
        });
        writer?.stop();
        const { result } = mix;
        notes.push(
          note(`the mix (the table's figures: throughput the sum, p50/p99 the higher of the two); each walks every DEN and AEN, ${KIND_NAMES.map((k) => KINDS[k].label).join(', ')} in turn`, {
            Admin: describeLoad(mix.parts.Admin),
            'Client (their division)': describeLoad(mix.parts.Client),
          }),
        );
        if (writer) {
          notes.push(writer.note());
          result.errors += writer.failed();
        }
        const cpu = cpuNote(marks.start, await cpuMark(ctx), result.requests);
        if (cpu) notes.push(cpu);
        if (!withWrites) {
          const loads = askedKinds(setup, ['whole', 'den+aen']).map(({ choices, kind, label }) => ({
            label,
            load: { path: STATS, nextPath: walker(choices, kind), headers: { cookie: choices.cookie } },
          }));
          notes.push(await eachAlone(ctx, ALONE_SECONDS, 50, loads, result));
        }
        if (writer) notes.push(await uncachedNote(ctx, setup, writer.write));
        result.notes.push(...notes);
        const remark = withWrites
          ? 'the same load as the mix; no writes during it: the bare route reads the register, which the writes do not touch'
          : 'the same load as the mix, in the same run';
        return await withBareCeiling(ctx, result, BARE_CEILING, name, () => Promise.resolve(setup.admin.cookie), remark);
      } finally {
        writer?.stop();
        await rollout.remove();
      }
    },
  };
}

export const machineStats = machineScenario(
  'machine-stats',
  `GET ${STATS} (whole zone, ?den=, ?den=&aen=) and ${FILTERS}?den= in turn as the demo Admin and the division-limited Client, 10k curve records, 50 connections`,
  false,
);

export const machineStatsWrites = machineScenario(
  'machine-stats-writes',
  `machine-stats while one curve record's machine_actual is updated every ${WRITE_EVERY_SECONDS} s (cache misses included), 50 connections`,
  true,
);
