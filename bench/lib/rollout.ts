/**
 * The machine rollout sheet (curve_records) at a zone's size for machine-stats: a record for every curve without one, stage
 * entries at the demo seed's odds (server/db/seed/rollout.ts), the same rows every run (seeded PRNG). The demo seed covers only
 * a few hundred curves, so the scenario adds these itself (PostgreSQL) and removes them afterwards.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { dateInTimeZone } from '../../common/rules/dates.js';
import { addDays, sheetDate } from '../../server/db/seed/calendar.js';
import { Random } from '../../server/db/seed/random.js';
import { DIVISION_REFS } from '../../server/db/seed/reference-data.js';
import { round } from './stats.js';
import type { ScenarioContext } from './types.js';

const ROLLOUT_SEED = 0x484b_4d13;
const PHASES = {
  I: { foundation: 0.95, machine: 0.9, commissioned: 0.9, startedDaysAgo: [330, 620], undated: 0.08 },
  II: { foundation: 0.7, machine: 0.6, commissioned: 0.65, startedDaysAgo: [150, 320], undated: 0 },
} as const;
const COLUMNS = ['no', 'phase', 'division_railway', 'section', 'curve_number', 'line', 'den', 'aen', 'sse', 'foundation_actual', 'machine_actual', 'commissioned'] as const;
type RolloutRow = Record<(typeof COLUMNS)[number], string | number>;
type CurveKeys = Record<'division_railway' | 'section' | 'curve_number' | 'line' | 'den' | 'aen' | 'sse', string>;

const entry = (date: string | null, undated: boolean) => (date === null ? 'Pending' : undated ? 'Done' : sheetDate(date));

function sectionPlans(): Map<string, { phase: 'I' | 'II'; aens: [string, string] }> {
  const used = new Set(DIVISION_REFS.flatMap((d) => d.sections.map((s) => s.aen)));
  const plans = new Map<string, { phase: 'I' | 'II'; aens: [string, string] }>();
  for (const [index, section] of DIVISION_REFS.flatMap((d) => [...d.sections.entries()])) {
    const middle = Math.floor(section.stations.length / 2);
    const order = [...section.stations.slice(middle), ...section.stations.slice(0, middle).reverse()];
    const second = order.map((s) => `AEN/${s.code}`).find((n) => !used.has(n)) ?? `${section.aen}-II`;
    used.add(second);
    plans.set(section.name, { phase: index < 2 ? 'I' : 'II', aens: [section.aen, second] });
  }
  return plans;
}

async function rolloutRows(client: pg.Client, count: number, today: string): Promise<RolloutRow[]> {
  const { rows: curves } = await client.query<CurveKeys>(
    `select division_railway, section, curve_number, line, coalesce(den, '') as den, coalesce(aen, '') as aen, coalesce(sse, '') as sse
       from consolidated_curve_details c
      where not exists (select 1 from curve_records r where r.section = c.section and r.curve_number = c.curve_number and r.line = c.line)
      order by id limit $1`,
    [count],
  );
  const { rows: last } = await client.query<{ division: string; no: number }>('select division_railway as division, max(no) as no from curve_records group by 1');
  const lastNo = new Map(last.map((r) => [r.division, r.no]));
  const bySection = new Map<string, CurveKeys[]>();
  for (const curve of curves) {
    if (!bySection.has(curve.section)) bySection.set(curve.section, []);
    bySection.get(curve.section)?.push(curve);
  }
  const plans = sectionPlans();
  const rng = new Random(ROLLOUT_SEED);
  const rows: RolloutRow[] = [];
  for (const [section, list] of bySection) {
    const plan = plans.get(section) ?? { phase: 'II', aens: [list[0]?.aen ?? '', list[0]?.aen ?? ''] };
    const odds = PHASES[plan.phase];
    // Where the section passes from its own AEN's jurisdiction to the next one's.
    const handOver = Math.round(list.length * rng.float(0.45, 0.7));
    for (const [i, curve] of list.entries()) {
      const foundationOn = rng.chance(odds.foundation) ? addDays(today, -rng.int(odds.startedDaysAgo[0], odds.startedDaysAgo[1])) : null;
      const machineOn = foundationOn && rng.chance(odds.machine) ? addDays(foundationOn, rng.int(15, 60)) : null;
      const commissionedOn = machineOn && rng.chance(odds.commissioned) ? addDays(machineOn, rng.int(5, 30)) : null;
      const undated = rng.chance(odds.undated);
      const no = (lastNo.get(curve.division_railway) ?? 0) + 1;
      lastNo.set(curve.division_railway, no);
      rows.push({
        ...curve,
        no,
        phase: plan.phase,
        aen: plan.aens[i < handOver ? 0 : 1],
        foundation_actual: entry(foundationOn, undated),
        machine_actual: entry(machineOn, undated),
        commissioned: entry(commissionedOn, false),
      });
    }
  }
  return rows;
}

export interface Rollout {
  rows: number;
  byDivision: Map<string, number>;
  what: string;
  client: pg.Client | null;
  pending: number[];
  remove(): Promise<void>;
}

async function countRows(client: pg.Client): Promise<Map<string, number>> {
  const { rows } = await client.query<{ division: string; n: string }>('select division_railway as division, count(*) as n from curve_records group by 1');
  return new Map(rows.map((r) => [r.division, Number(r.n)]));
}

const sum = (counts: ReadonlyMap<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

export async function prepareRollout(ctx: ScenarioContext, countThroughApi: () => Promise<number>): Promise<Rollout> {
  const target = ctx.dataset?.curves ?? 10_000;
  if (!ctx.databaseUrl) {
    const rows = await countThroughApi();
    const what =
      `${rows} curve records (the demo seed's): on PGlite the server holds the data dir and no API writes curve_records, ` +
      `so the ${target} records are added on PostgreSQL only (BENCH_DATABASE_URL)`;
    return { rows, byDivision: new Map(), what, client: null, pending: [], remove: () => Promise.resolve() };
  }
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    const before = await countRows(client);
    const today = dateInTimeZone(new Date(), process.env.APP_TIMEZONE?.trim() || 'Asia/Kolkata');
    const rows = await rolloutRows(client, Math.max(0, target - sum(before)), today);
    const started = performance.now();
    await client.query('begin');
    const inserted = await client.query<{ id: number }>(
      `insert into curve_records (${COLUMNS.join(', ')})
       select * from unnest(${COLUMNS.map((column, i) => `$${i + 1}::${column === 'no' ? 'int4' : 'text'}[]`).join(', ')})
       returning id`,
      COLUMNS.map((column) => rows.map((row) => row[column])),
    );
    const ids = inserted.rows.map((r) => r.id);
    await client.query('commit');
    await client.query('analyze curve_records');
    const seconds = round((performance.now() - started) / 1000, 1);
    const pending = await client.query<{ id: number }>("select id from curve_records where id = any($1::int4[]) and machine_actual = 'Pending' order by id", [ids]);
    const byDivision = await countRows(client);
    const { rows: names } = await client.query<{ dens: string; aens: string }>('select count(distinct btrim(den)) as dens, count(distinct btrim(aen)) as aens from curve_records');
    const what =
      `${sum(byDivision)} curve records (the demo seed's ${sum(before)} + ${ids.length} from bench/lib/rollout.ts, inserted and analysed in ${seconds} s, ` +
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
