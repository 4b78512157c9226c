/**
 * The machine rollout sheet (curve_records) at a zone's size for machine-stats: the scale seed tops it up
 * (server/db/seed/scale/rollout.ts). The demo seed covers only a few hundred curves, so the scenario adds these itself
 * (PostgreSQL) and removes them afterwards: the other scenarios (schedule, backup) read curve_records at the demo's size.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { dateInTimeZone } from '../../common/rules/dates.js';
import { sqlClientOf } from '../../server/db/seed/scale/load.js';
import { topUpCurveRecords } from '../../server/db/seed/scale/rollout.js';
import { round } from './stats.js';
import type { ScenarioContext } from './types.js';

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
    const started = performance.now();
    const ids = await topUpCurveRecords(sqlClientOf(client), target, today);
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
