/**
 * The machine dashboard's reads (GET /api/machine-stats, with GET /api/machine-filters as the
 * dashboard asks them when a DEN is chosen) over a rollout sheet of 10k curve records, beside
 * the bare read baseline (docs/architecture.md, 'Budgets') measured in the same run.
 *
 * machine-stats: the warm case. The service works the figures out once per change of
 * curve_records and keeps them, so every request reads the table's version and filters the
 * kept groups. machine-stats-writes: the same load while one row's machine_actual is updated
 * once a second, so every second the first requests after the write read the whole table again
 * and regroup it (cache misses included). One factory makes both: the writes are its hook.
 *
 * The mix (bench/lib/machine-mix.ts): the demo Admin and the division-limited demo Client at
 * once, each walking every DEN and AEN their filters offer.
 *
 * The 10k records: bench/lib/rollout.ts, added through the server's PostgreSQL database before
 * the load and removed afterwards. On PGlite the server holds the data dir and no API writes
 * curve_records, so the scenarios read the demo seed's few hundred records, and the writes
 * variant cannot write (both say so in the notes; the budget is for PostgreSQL anyway).
 */
import { performance } from 'node:perf_hooks';
import { dateInTimeZone } from '../../common/rules/dates.js';
import { sheetDate } from '../../server/db/seed/calendar.js';
import { DEMO_ACCOUNTS } from '../../server/db/seed/demo-accounts.js';
import { type BareKind, withBareCeiling } from '../lib/bare-ceilings.js';
import { eachAlone } from '../lib/load-row.js';
import { type Choices, choicesOf, describeLoad, FILTERS, KIND_LABEL, KINDS, type Kind, mixedLoad, STATS, statsAnswer, statsPath, walker } from '../lib/machine-mix.js';
import { cpuMark, cpuNote, getJson, kb, medianMs, READ_BUDGET, type CpuMark } from '../lib/records.js';
import { prepareRollout, type Rollout } from '../lib/rollout.js';
import { note, summarizeLatencies } from '../lib/stats.js';
import type { Budget, Scenario, ScenarioContext } from '../lib/types.js';

/** Seconds between two writes of curve_records in the writes variant. */
const WRITE_EVERY_SECONDS = 1;
/** Each kind of request alone under the same load, for the notes. */
const ALONE_SECONDS = 2;
/** Requests one at a time right after a write, for the notes of the writes variant. */
const UNCACHED_RUNS = 10;
const CLIENT = DEMO_ACCOUNTS.find((a) => a.role === 'Client');
/** The bare route's pages, in turn: the register's first page, and the Client's division's. */
const BARE_CEILING: BareKind = `register-pages:${CLIENT?.divisionAccess ?? 'RTM/WR'}`;

const BUDGET: Budget = {
  ...READ_BUDGET,
  description:
    'API reads with 100k inspections / 10k curves (here 10k curve records): p99 <= 50 ms at 50 connections on PostgreSQL and >= 80% of the bare ' +
    "Fastify + Drizzle baseline's throughput (docs/architecture.md, 'Budgets')",
  minThroughputRatioToBaseline: 0.8,
};

interface Setup {
  rollout: Rollout;
  admin: Choices;
  client: Choices;
  notes: string[];
}

/** Signs in, adds the records, reads the filters and checks the first answers against the data. */
async function setUp(ctx: ScenarioContext): Promise<Setup> {
  if (!CLIENT?.divisionAccess) throw new Error('the demo seed has no Client limited to a division');
  const adminCookie = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
  const clientCookie = await ctx.signIn(CLIENT.employeeId);
  const rollout = await prepareRollout(ctx, async () => (await statsAnswer(ctx, adminCookie, STATS)).body.totals.scope);
  try {
    const admin = await choicesOf(ctx, 'Admin', adminCookie);
    const client = await choicesOf(ctx, `Client (${CLIENT.divisionAccess} only)`, clientCookie);
    const whole = await statsAnswer(ctx, adminCookie, statsPath());
    const own = await statsAnswer(ctx, clientCookie, statsPath());
    if (ctx.databaseUrl) {
      if (whole.body.totals.scope !== rollout.rows) throw new Error(`GET ${STATS} counts ${whole.body.totals.scope} curves, curve_records has ${rollout.rows}`);
      const expected = rollout.byDivision.get(CLIENT.divisionAccess) ?? 0;
      if (own.body.totals.scope !== expected) throw new Error(`GET ${STATS} as the Client counts ${own.body.totals.scope} curves, ${CLIENT.divisionAccess} has ${expected}`);
    }
    if (client.dens.some((d) => !admin.dens.includes(d))) throw new Error("the Client's DENs are not among the Admin's");
    const [den, aen] = admin.pairs[0] ?? [];
    const one = await statsAnswer(ctx, adminCookie, statsPath(den, aen));
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

const whoOf = (setup: Setup, who: Choices) => (who === setup.admin ? 'Admin' : 'Client');
/** Every kind as the Admin, then the Client's own. */
const askedKinds = (setup: Setup, clientKinds: readonly Kind[]) => [
  ...KINDS.map((k): [Choices, Kind] => [setup.admin, k]),
  ...clientKinds.map((k): [Choices, Kind] => [setup.client, k]),
];

/** Each kind alone, one connection, median of 9 (after the cache is warm). */
async function aloneNote(ctx: ScenarioContext, setup: Setup): Promise<string> {
  const figures: Record<string, string> = {};
  for (const [who, kind] of askedKinds(setup, ['whole'])) {
    const next = walker(who, kind);
    figures[`${whoOf(setup, who)} ${KIND_LABEL[kind]}`] = `${await medianMs(9, async () => (await getJson(ctx, next(), who.cookie)).ms)} ms`;
  }
  return note('alone (one connection, median of 9, cached)', figures);
}

/** One UPDATE of one row a second during the measured phase (PostgreSQL): its own figures and notes. */
function machineWriter(ctx: ScenarioContext, rollout: Rollout) {
  const writer = rollout.client;
  const today = sheetDate(dateInTimeZone(new Date(), process.env.APP_TIMEZONE?.trim() || 'Asia/Kolkata'));
  let next = 0;
  let failed = 0;
  let lastError = '';
  let timer: NodeJS.Timeout | undefined;
  const writeMs: number[] = [];
  /** A machine installed today on the next pending curve. */
  const write = async () => {
    if (!writer) return;
    const id = rollout.pending[next++ % Math.max(rollout.pending.length, 1)];
    const started = performance.now();
    try {
      await writer.query('update curve_records set machine_actual = $1 where id = $2', [today, id]);
      writeMs.push(performance.now() - started);
    } catch (error) {
      failed += 1;
      lastError = error instanceof Error ? error.message : String(error);
    }
  };
  const installed = async (cookie: string) => (await statsAnswer(ctx, cookie, statsPath())).body.totals.machinesInstalled;
  return {
    writes: writer !== null,
    write,
    /** The write must reach the answers: the figures are remade at the new version. */
    async checkReaches(cookie: string) {
      const before = await installed(cookie);
      await write();
      const after = await installed(cookie);
      if (after !== before + 1) throw new Error(`after installing one machine GET ${STATS} counts ${after} installed, before ${before}: the write did not reach the answer`);
    },
    start() {
      writeMs.length = 0;
      failed = 0;
      void write();
      timer = setInterval(() => void write(), WRITE_EVERY_SECONDS * 1000);
    },
    stop: () => clearInterval(timer),
    failed: () => failed,
    note() {
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

/** What one answer costs when the figures must be made again, alone, and at once again (cached). */
async function uncachedNote(setup: Setup, ctx: ScenarioContext, write: () => Promise<void>): Promise<string> {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < UNCACHED_RUNS; i++) {
    await write();
    cold.push((await statsAnswer(ctx, setup.admin.cookie, statsPath())).ms);
    warm.push((await statsAnswer(ctx, setup.admin.cookie, statsPath())).ms);
  }
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
      const { notes } = setup;
      const writer = withWrites ? machineWriter(ctx, setup.rollout) : null;
      try {
        if (!withWrites) notes.push(await aloneNote(ctx, setup));
        else if (writer?.writes) await writer.checkReaches(setup.admin.cookie);
        else notes.push(PGLITE_NO_WRITES);
        const marks: { start?: CpuMark } = {};
        const mix = await mixedLoad(ctx, setup.admin, setup.client, async () => {
          marks.start = await cpuMark(ctx);
          if (writer?.writes) writer.start();
        });
        writer?.stop();
        const { result } = mix;
        notes.push(
          note(`the mix (the table's figures: throughput the sum, p50/p99 the higher of the two); each walks every DEN and AEN, ${KINDS.map((k) => KIND_LABEL[k]).join(', ')} in turn`, {
            Admin: describeLoad(mix.parts.admin),
            'Client (their division)': describeLoad(mix.parts.client),
          }),
        );
        if (writer?.writes) {
          notes.push(writer.note());
          result.errors += writer.failed();
        }
        const cpu = cpuNote(marks.start, await cpuMark(ctx), result.requests);
        if (cpu) notes.push(cpu);
        if (!withWrites) {
          const loads = askedKinds(setup, ['whole', 'den+aen']).map(([who, kind]) => ({
            label: `${whoOf(setup, who)} ${KIND_LABEL[kind]}`,
            load: { path: STATS, nextPath: walker(who, kind), headers: { cookie: who.cookie } },
          }));
          notes.push(await eachAlone(ctx, ALONE_SECONDS, 50, loads, result));
        }
        if (writer?.writes) notes.push(await uncachedNote(setup, ctx, writer.write));
        result.notes.push(...notes);
        const remark = withWrites
          ? 'the same load as the mix; no writes during it: the bare route reads the register, which the writes do not touch'
          : 'the same load as the mix, in the same run';
        return await withBareCeiling(ctx, result, BARE_CEILING, name, () => Promise.resolve(setup.admin.cookie), remark);
      } finally {
        writer?.stop();
        await setup.rollout.remove();
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
