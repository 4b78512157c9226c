/**
 * The machine dashboard's reads over 10k curve records, the demo Admin's and Client's requests in one load, beside the bare read baseline;
 * machine-stats-writes updates a row a second so answers are remade. On PGlite: the demo seed's records (README).
 * The scale seed tops curve_records up (server/db/seed/scale/rollout.ts) on PostgreSQL and the records go again afterwards:
 * the other scenarios (schedule, backup) read curve_records at the demo's size.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { machineFiltersResponseSchema, machineStatsResponseSchema } from '../../common/schemas/machines.js';
import { sheetDate } from '../../server/db/seed/calendar.js';
import { DEMO_ACCOUNTS } from '../../server/db/seed/demo-accounts.js';
import { sqlClientOf } from '../../server/db/seed/scale/load.js';
import { topUpCurveRecords } from '../../server/db/seed/scale/rollout.js';
import type { BareKind } from '../lib/bare-ceilings.js';
import { afterWrites, eachAlone, loadScenario, repeatedWrites } from '../lib/load-row.js';
import { getJson, getParsed, kb, medianMs, READ_BUDGET } from '../lib/records.js';
import { note, round, summarizeLatencies } from '../lib/stats.js';
import type { Scenario, ScenarioContext } from '../lib/types.js';
import { serverToday } from '../lib/variables.js';

const STATS = '/api/machine-stats';
const FILTERS = '/api/machine-filters';
const WRITE_EVERY_SECONDS = 1;
const UNCACHED_RUNS = 10;
const CLIENT_SHARE = 0.2;
const CLIENT_EVERY = Math.round(1 / CLIENT_SHARE);
const CLIENT = DEMO_ACCOUNTS.find((a) => a.role === 'Client');
const BARE_CEILING: BareKind = `register-pages:${CLIENT?.divisionAccess ?? 'RTM/WR'}`;

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
    const ids = await topUpCurveRecords(sqlClientOf(client), target, serverToday());
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

type Choices = Awaited<ReturnType<typeof choicesOf>>;

async function choicesOf(ctx: ScenarioContext, who: string, cookie: string) {
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

/** One load, its requests by share (CLIENT_SHARE): every fifth the Client's (its division), the others the Admin's (the zone). */
function mixedRequests(setup: Setup): () => { path: string; headers: Record<string, string> } {
  const [admin, client] = [mixOf(setup.admin), mixOf(setup.client)];
  let n = 0;
  return () => (++n % CLIENT_EVERY === 0 ? { path: client(), headers: { cookie: setup.client.cookie } } : { path: admin(), headers: { cookie: setup.admin.cookie } });
}

type Setup = Awaited<ReturnType<typeof setUp>>;

async function setUp(ctx: ScenarioContext, adminCookie: string) {
  if (!CLIENT?.divisionAccess) throw new Error('the demo seed has no Client limited to a division');
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
  const installedOn = sheetDate(serverToday());
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
  return loadScenario({
    name,
    description,
    budget: READ_BUDGET,
    dataset: 'records',
    as: 'Admin',
    ceiling: BARE_CEILING,
    cpu: true,
    remark: withWrites
      ? 'the same load as the mix; no writes during it: the bare route reads the register, which the writes do not touch'
      : 'the same load as the mix, in the same run',
    async prepare(ctx, adminCookie) {
      const setup = await setUp(ctx, adminCookie);
      const { notes, rollout } = setup;
      const writer = withWrites && rollout.client ? machineWriter(ctx, rollout, rollout.client) : null;
      try {
        if (!withWrites) notes.push(await aloneNote(ctx, setup));
        else if (writer) await writer.checkReaches(setup.admin.cookie);
        else notes.push(PGLITE_NO_WRITES);
      } catch (error) {
        await rollout.remove();
        throw error;
      }
      notes.push(
        `the mix, by request share (one load, the table's figures): ${CLIENT_EVERY - 1} requests as the Admin (the zone) to 1 as the Client (their division), ` +
          `each walking every DEN and AEN it is offered, ${KIND_NAMES.map((k) => KINDS[k].label).join(', ')} in turn`,
      );
      return {
        load: { path: STATS, nextRequest: mixedRequests(setup) },
        notes,
        during: writer?.start,
        stop: writer?.stop,
        finish: rollout.remove,
        async after(result) {
          if (!writer) {
            if (withWrites) return [];
            const loads = askedKinds(setup, ['whole', 'den+aen']).map(({ choices, kind, label }) => ({
              label,
              load: { path: STATS, nextPath: walker(choices, kind), headers: { cookie: choices.cookie } },
            }));
            return [await eachAlone(ctx, loads, result)];
          }
          result.errors += writer.failed();
          return [writer.note(), await uncachedNote(ctx, setup, writer.write)];
        },
      };
    },
  });
}

export const machineStats = machineScenario(
  'machine-stats',
  `GET ${STATS} (whole zone, ?den=, ?den=&aen=) and ${FILTERS}?den= in turn as the demo Admin and the division-limited Client (4 requests to 1), 10k curve records, 50 connections`,
  false,
);

export const machineStatsWrites = machineScenario(
  'machine-stats-writes',
  `machine-stats while one curve record's machine_actual is updated every ${WRITE_EVERY_SECONDS} s (cache misses included), 50 connections`,
  true,
);
