/**
 * The machine dashboard's reads (GET /api/machine-stats, with GET /api/machine-filters as the
 * dashboard asks them when a DEN is chosen) over a rollout sheet of 10k curve records, beside
 * the bare read baseline (docs/architecture.md, 'Budgets') measured in the same run.
 *
 * machine-stats: the warm case. The service works the figures out once per change of
 * curve_records and keeps them, so every request reads the table's version and filters the
 * kept groups. machine-stats-writes: the same load while one row's machine_actual is updated
 * once a second, so every second the first requests after the write read the whole table again
 * and regroup it (cache misses included).
 *
 * The mix: the demo Admin (80 % of the connections) asks, in turn, the whole zone, one DEN, one
 * DEN + AEN, and the AEN list of one DEN, walking through every DEN and AEN the filters offer;
 * the demo Client (20 %, limited to their division) does the same over their division. Two
 * autocannon loads at once (bench/lib/load.ts sends one sign-in per load): the throughput is
 * their sum, the p50 and p99 the higher of the two (the mix's own lie between them).
 *
 * The 10k records: bench/lib/rollout.ts, added through the server's PostgreSQL database before
 * the load and removed afterwards. On PGlite the server holds the data dir and no API writes
 * curve_records, so the scenarios read the demo seed's few hundred records, and the writes
 * variant cannot write (both say so in the notes; the budget is for PostgreSQL anyway).
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { dateInTimeZone } from '../../common/rules/dates.js';
import { sheetDate } from '../../server/db/seed/calendar.js';
import { DEMO_ACCOUNTS } from '../../server/db/seed/demo-accounts.js';
import { type BareKind, withBareCeiling } from '../lib/bare-ceilings.js';
import { runLoad } from '../lib/load.js';
import { type Choices, choicesOf, describeLoad, FILTERS, KIND_LABEL, KINDS, type Kind, mixedLoad, STATS, statsAnswer, statsPath, walker } from '../lib/machine-mix.js';
import { cpuMark, cpuNote, getJson, kb, medianMs, READ_BUDGET, type CpuMark } from '../lib/records.js';
import { benchRolloutRows, insertRolloutRows } from '../lib/rollout.js';
import { round, summarizeLatencies } from '../lib/stats.js';
import type { Budget, Scenario, ScenarioContext, ScenarioResult } from '../lib/types.js';

/** Seconds between two writes of curve_records in the writes variant. */
const WRITE_EVERY_SECONDS = 1;
/** Each kind of request alone under the same load, for the notes. */
const ALONE_SECONDS = 2;
/** Requests one at a time right after a write, for the notes of the writes variant. */
const UNCACHED_RUNS = 10;
/** The bare route's pages, in turn: the register's first page, and the Client's division's. */
const BARE_CEILING: BareKind = `register-pages:${DEMO_ACCOUNTS.find((a) => a.role === 'Client')?.divisionAccess ?? 'RTM/WR'}`;

const BUDGET: Budget = {
  ...READ_BUDGET,
  description:
    'API reads with 100k inspections / 10k curves (here 10k curve records): p99 <= 50 ms at 50 connections on PostgreSQL and >= 80% of the bare ' +
    "Fastify + Drizzle baseline's throughput (docs/architecture.md, 'Budgets')",
  minThroughputRatioToBaseline: 0.8,
};


/* ------------------------------------------------------------------------------------------ */
/* The 10k curve records                                                                       */
/* ------------------------------------------------------------------------------------------ */

interface Rollout {
  /** Rows in curve_records while measuring. */
  rows: number;
  /** Per division. */
  byDivision: Map<string, number>;
  added: number;
  what: string;
  /** PostgreSQL only: a connection to the server's database, for the writes. */
  client: pg.Client | null;
  /** Added rows whose machine is still pending: the writes install one each. */
  pending: number[];
  remove(): Promise<void>;
}

async function countRows(client: pg.Client): Promise<Map<string, number>> {
  const { rows } = await client.query<{ division: string; n: string }>('select division_railway as division, count(*) as n from curve_records group by 1');
  return new Map(rows.map((r) => [r.division, Number(r.n)]));
}

const sum = (counts: ReadonlyMap<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

/**
 * On PostgreSQL: tops curve_records up to as many records as the register has curves (10k),
 * through the server's database (the server notices: the table's version moves on). On PGlite:
 * the demo seed's records, counted through the API.
 */
async function prepareRollout(ctx: ScenarioContext, admin: string): Promise<Rollout> {
  const target = ctx.dataset?.curves ?? 10_000;
  if (!ctx.databaseUrl) {
    const answer = await statsAnswer(ctx, admin, STATS);
    const byDivision = new Map<string, number>();
    return {
      rows: answer.body.totals.scope,
      byDivision,
      added: 0,
      what:
        `${answer.body.totals.scope} curve records (the demo seed's): on PGlite the server holds the data dir and no API writes curve_records, ` +
        `so the ${target} records are added on PostgreSQL only (BENCH_DATABASE_URL)`,
      client: null,
      pending: [],
      remove: () => Promise.resolve(),
    };
  }
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const before = await countRows(client);
    const { rows: last } = await client.query<{ division: string; no: number }>('select division_railway as division, max(no) as no from curve_records group by 1');
    const today = dateInTimeZone(new Date(), process.env.APP_TIMEZONE?.trim() || 'Asia/Kolkata');
    const rows = benchRolloutRows({ count: Math.max(0, target - sum(before)), today, lastNo: new Map(last.map((r) => [r.division, r.no])) });
    const started = performance.now();
    await client.query('begin');
    const ids = await insertRolloutRows(client, rows);
    await client.query('commit');
    await client.query('analyze curve_records');
    const ms = performance.now() - started;
    const { rows: pendingRows } = await client.query<{ id: number }>(
      "select id from curve_records where id = any($1::int4[]) and machine_actual = 'Pending' order by id",
      [ids],
    );
    const byDivision = await countRows(client);
    const { rows: names } = await client.query<{ dens: string; aens: string }>(
      'select count(distinct btrim(den)) as dens, count(distinct btrim(aen)) as aens from curve_records',
    );
    return {
      rows: sum(byDivision),
      byDivision,
      added: ids.length,
      what:
        `${sum(byDivision)} curve records (the demo seed's ${sum(before)} + ${ids.length} from bench/lib/rollout.ts, inserted and analysed in ${round(ms / 1000, 1)} s, ` +
        `removed afterwards): ${byDivision.size} divisions, ${names[0]?.dens ?? '?'} DENs, ${names[0]?.aens ?? '?'} AENs`,
      client,
      pending: pendingRows.map((r) => r.id),
      async remove() {
        try {
          await client.query('delete from curve_records where id = any($1::int4[])', [ids]);
        } finally {
          await client.end();
        }
      },
    };
  } catch (error) {
    await client.end();
    throw error;
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Shared set-up                                                                                */
/* ------------------------------------------------------------------------------------------ */

interface Setup {
  rollout: Rollout;
  admin: Choices;
  client: Choices;
  notes: string[];
}

/** Signs in, adds the records, reads the filters and checks the first answers against the data. */
async function setUp(ctx: ScenarioContext): Promise<Setup> {
  const clientAccount = DEMO_ACCOUNTS.find((a) => a.role === 'Client');
  if (!clientAccount?.divisionAccess) throw new Error('the demo seed has no Client limited to a division');
  const adminCookie = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
  const clientCookie = await ctx.signIn(clientAccount.employeeId);
  const rollout = await prepareRollout(ctx, adminCookie);
  try {
    const admin = await choicesOf(ctx, 'Admin', adminCookie);
    const client = await choicesOf(ctx, `Client (${clientAccount.divisionAccess} only)`, clientCookie);
    const whole = await statsAnswer(ctx, adminCookie, statsPath());
    const own = await statsAnswer(ctx, clientCookie, statsPath());
    if (ctx.databaseUrl) {
      if (whole.body.totals.scope !== rollout.rows) throw new Error(`GET ${STATS} counts ${whole.body.totals.scope} curves, curve_records has ${rollout.rows}`);
      const expected = rollout.byDivision.get(clientAccount.divisionAccess) ?? 0;
      if (own.body.totals.scope !== expected) throw new Error(`GET ${STATS} as the Client counts ${own.body.totals.scope} curves, ${clientAccount.divisionAccess} has ${expected}`);
    }
    if (client.dens.some((d) => !admin.dens.includes(d))) throw new Error("the Client's DENs are not among the Admin's");
    const [den, aen] = admin.pairs[0] ?? [];
    const one = await statsAnswer(ctx, adminCookie, statsPath(den, aen));
    const t = whole.body.totals;
    const notes = [
      `data: ${rollout.what}; the Admin's filters offer ${admin.dens.length} DENs and ${admin.pairs.length} DEN + AEN pairs, the Client's ${client.dens.length} and ${client.pairs.length}; ` +
        `the zone: ${t.scope} curves, foundation ${t.foundationCompleted}, installed ${t.machinesInstalled}, commissioned ${t.machinesCommissioned}`,
      `answers: the zone ${kb(whole.bytes)} (${whole.body.breakdown.rows.length} DEN rows), the Client's division ${kb(own.bytes)} (${own.body.totals.scope} curves), ` +
        `one DEN + AEN ${kb(one.bytes)} (${one.body.totals.scope} curves)`,
    ];
    return { rollout, admin, client, notes };
  } catch (error) {
    await rollout.remove();
    throw error;
  }
}

/** Each kind alone, one connection, median of 9 (after the cache is warm). */
async function aloneNote(ctx: ScenarioContext, admin: Choices, client: Choices): Promise<string> {
  const parts: string[] = [];
  const asked: Array<[Choices, Kind]> = [...KINDS.map((k): [Choices, Kind] => [admin, k]), [client, 'whole']];
  for (const [who, kind] of asked) {
    const next = walker(who, kind);
    const ms = await medianMs(9, async () => (await getJson(ctx, next(), who.cookie)).ms);
    parts.push(`${who === admin ? 'Admin' : 'Client'} ${KIND_LABEL[kind]} ${ms} ms`);
  }
  return `alone (one connection, median of 9, cached): ${parts.join(', ')}`;
}

function mixNote(mix: { result: ScenarioResult; parts: Record<'admin' | 'client', ScenarioResult> }): string {
  const { admin, client } = mix.parts;
  return (
    `the mix (the table's figures: throughput the sum, p50/p99 the higher of the two): Admin (${KINDS.map((k) => KIND_LABEL[k]).join(', ')} in turn, ` +
    `walking every DEN and AEN) ${describeLoad(admin)}; Client (the same over their division) ${describeLoad(client)}`
  );
}

/* ------------------------------------------------------------------------------------------ */
/* The scenarios                                                                                */
/* ------------------------------------------------------------------------------------------ */

export const machineStats: Scenario = {
  name: 'machine-stats',
  description: `GET ${STATS} (whole zone, ?den=, ?den=&aen=) and ${FILTERS}?den= in turn as the demo Admin and the division-limited Client, 10k curve records, 50 connections`,
  budget: BUDGET,
  dataset: 'records',
  async run(ctx) {
    const { rollout, admin, client, notes } = await setUp(ctx);
    try {
      notes.push(await aloneNote(ctx, admin, client));
      const marks: { start?: CpuMark } = {};
      const mix = await mixedLoad(ctx, admin, client, async () => {
        marks.start = await cpuMark(ctx);
      });
      const { result } = mix;
      notes.push(mixNote(mix));
      const cpu = cpuNote(marks.start, await cpuMark(ctx), result.requests);
      if (cpu) notes.push(cpu);

      // Each kind alone at the same connections, for the notes.
      const short = { ...ctx, durationSeconds: ALONE_SECONDS, warmupSeconds: 0 };
      const each: string[] = [];
      const kinds: Array<[Choices, Kind]> = [...KINDS.map((k): [Choices, Kind] => [admin, k]), [client, 'whole'], [client, 'den+aen']];
      for (const [who, kind] of kinds) {
        const one = await runLoad(short, { path: STATS, nextPath: walker(who, kind), headers: { cookie: who.cookie }, connections: ctx.connections(50) });
        each.push(`${who === admin ? 'Admin' : 'Client'} ${KIND_LABEL[kind]} ${one.throughput} req/s, p99 ${one.latencyMs.p99} ms`);
        result.errors += one.errors;
        result.non2xx += one.non2xx;
      }
      notes.push(`each kind alone for ${ALONE_SECONDS} s at ${ctx.connections(50)} connections: ${each.join('; ')}`);

      result.notes.push(...notes);
      return await withBareCeiling(ctx, result, BARE_CEILING, 'machine-stats', () => Promise.resolve(admin.cookie), 'the same load as the mix, in the same run');
    } finally {
      await rollout.remove();
    }
  },
};

export const machineStatsWrites: Scenario = {
  name: 'machine-stats-writes',
  description: `machine-stats while one curve record's machine_actual is updated every ${WRITE_EVERY_SECONDS} s (cache misses included), 50 connections`,
  budget: BUDGET,
  dataset: 'records',
  async run(ctx) {
    const { rollout, admin, client, notes } = await setUp(ctx);
    const writer = rollout.client;
    let timer: NodeJS.Timeout | undefined;
    try {
      const today = dateInTimeZone(new Date(), process.env.APP_TIMEZONE?.trim() || 'Asia/Kolkata');
      let next = 0;
      const writeMs: number[] = [];
      let failed = 0;
      let lastError = '';
      /** A machine installed today on the next pending curve: one UPDATE of one row. */
      const write = async () => {
        if (!writer) return;
        const id = rollout.pending[next++ % Math.max(rollout.pending.length, 1)];
        const started = performance.now();
        try {
          await writer.query('update curve_records set machine_actual = $1 where id = $2', [sheetDate(today), id]);
          writeMs.push(performance.now() - started);
        } catch (error) {
          failed += 1;
          lastError = error instanceof Error ? error.message : String(error);
        }
      };

      if (writer) {
        // The write must reach the answers: the figures are remade at the new version.
        const before = (await statsAnswer(ctx, admin.cookie, statsPath())).body.totals.machinesInstalled;
        await write();
        const after = (await statsAnswer(ctx, admin.cookie, statsPath())).body.totals.machinesInstalled;
        if (after !== before + 1) throw new Error(`after installing one machine GET ${STATS} counts ${after} installed, before ${before}: the write did not reach the answer`);
        writeMs.length = 0;
      } else {
        notes.push(
          'PGlite: NO WRITES. The server holds the PGlite data dir and no API writes curve_records, so these figures are the warm case ' +
            '(as machine-stats); run with BENCH_DATABASE_URL for the writes',
        );
      }

      const marks: { start?: CpuMark } = {};
      const mix = await mixedLoad(ctx, admin, client, async () => {
        marks.start = await cpuMark(ctx);
        if (!writer) return;
        writeMs.length = 0;
        failed = 0;
        void write();
        timer = setInterval(() => void write(), WRITE_EVERY_SECONDS * 1000);
      });
      clearInterval(timer);
      const { result } = mix;
      notes.push(mixNote(mix));
      if (writer) {
        const w = summarizeLatencies(writeMs);
        notes.push(
          `${writeMs.length} UPDATEs of one row's machine_actual during the measured phase (${failed} failed${lastError ? `: ${lastError}` : ''}; each took p50 ${w.p50} ms, max ${w.max} ms): ` +
            'each moved curve_records\' version on, so the next requests read and regrouped the whole table',
        );
        result.errors += failed;
      }
      const cpu = cpuNote(marks.start, await cpuMark(ctx), result.requests);
      if (cpu) notes.push(cpu);

      if (writer) {
        // What one answer costs when the figures must be made again, alone.
        const cold: number[] = [];
        const warm: number[] = [];
        for (let i = 0; i < UNCACHED_RUNS; i++) {
          await write();
          cold.push((await statsAnswer(ctx, admin.cookie, statsPath())).ms);
          warm.push((await statsAnswer(ctx, admin.cookie, statsPath())).ms);
        }
        const c = summarizeLatencies(cold);
        notes.push(
          `alone, right after a write (the whole table read and regrouped; ${rollout.rows} records): ${STATS} p50 ${c.p50} ms, max ${c.max} ms over ${UNCACHED_RUNS}; ` +
            `the same again at once (cached) p50 ${summarizeLatencies(warm).p50} ms`,
        );
      }

      result.notes.push(...notes);
      const remark = 'the same load as the mix; no writes during it: the bare route reads the register, which the writes do not touch';
      return await withBareCeiling(ctx, result, BARE_CEILING, 'machine-stats-writes', () => Promise.resolve(admin.cookie), remark);
    } finally {
      clearInterval(timer);
      await rollout.remove();
    }
  },
};
