/**
 * The scale seed's machine rollout sheet (curve_records) at a zone's size: a record for each of
 * the register's curves without one, up to a target count, with stages drawn as the demo seed
 * draws them (../rollout.ts, drawStages), the same rows every run from the same database (a
 * seeded PRNG). The demo seed covers a few hundred curves; the machine dashboard's bench needs thousands.
 */
import { Random } from '../random.js';
import { DIVISION_REFS } from '../reference-data.js';
import { drawStages, type RolloutPhase, sheetEntry } from '../rollout.js';
import { insertChunk, type SqlClient } from './columns.js';

const ROLLOUT_SEED = 0x484b_4d13;
const COLUMNS = ['no', 'phase', 'division_railway', 'section', 'curve_number', 'line', 'den', 'aen', 'sse', 'foundation_actual', 'machine_actual', 'commissioned'] as const;
type RolloutRow = Record<(typeof COLUMNS)[number], string | number>;
type CurveKeys = Record<'division_railway' | 'section' | 'curve_number' | 'line' | 'den' | 'aen' | 'sse', string>;

function sectionPlans(): Map<string, { phase: RolloutPhase; aens: [string, string] }> {
  const used = new Set(DIVISION_REFS.flatMap((d) => d.sections.map((s) => s.aen)));
  const plans = new Map<string, { phase: RolloutPhase; aens: [string, string] }>();
  for (const [index, section] of DIVISION_REFS.flatMap((d) => [...d.sections.entries()])) {
    const middle = Math.floor(section.stations.length / 2);
    const order = [...section.stations.slice(middle), ...section.stations.slice(0, middle).reverse()];
    const second = order.map((s) => `AEN/${s.code}`).find((n) => !used.has(n)) ?? `${section.aen}-II`;
    used.add(second);
    plans.set(section.name, { phase: index < 2 ? 'I' : 'II', aens: [section.aen, second] });
  }
  return plans;
}

async function rolloutRows(client: SqlClient, count: number, today: string): Promise<RolloutRow[]> {
  const curves = await client.query<CurveKeys>(
    `select division_railway, section, curve_number, line, coalesce(den, '') as den, coalesce(aen, '') as aen, coalesce(sse, '') as sse
       from consolidated_curve_details c
      where not exists (select 1 from curve_records r where r.section = c.section and r.curve_number = c.curve_number and r.line = c.line)
      order by id limit $1`,
    [count],
  );
  const last = await client.query<{ division: string; no: number }>('select division_railway as division, max(no) as no from curve_records group by 1');
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
    const plan = plans.get(section) ?? { phase: 'II' as const, aens: [list[0]?.aen ?? '', list[0]?.aen ?? ''] };
    // Where the section passes from its own AEN's jurisdiction to the next one's.
    const handOver = Math.round(list.length * rng.float(0.45, 0.7));
    for (const [i, curve] of list.entries()) {
      const { foundationOn, machineOn, commissionedOn, undated } = drawStages(rng, plan.phase, today);
      const no = (lastNo.get(curve.division_railway) ?? 0) + 1;
      lastNo.set(curve.division_railway, no);
      rows.push({
        ...curve,
        no,
        phase: plan.phase,
        aen: plan.aens[i < handOver ? 0 : 1],
        foundation_actual: sheetEntry(foundationOn, undated),
        machine_actual: sheetEntry(machineOn, undated),
        commissioned: sheetEntry(commissionedOn, false),
      });
    }
  }
  return rows;
}

/**
 * Tops curve_records up to `target` rows (nothing when it has as many), then analyses the table.
 * Returns the ids it added, for a caller that removes them again.
 */
export async function topUpCurveRecords(client: SqlClient, target: number, today: string): Promise<number[]> {
  const [counted] = await client.query<{ n: number; last: number | null }>('select count(*)::int as n, max(id) as last from curve_records');
  const rows = await rolloutRows(client, Math.max(0, target - (counted?.n ?? 0)), today);
  if (rows.length === 0) return [];
  const columns = COLUMNS.map((column) => [column, column === 'no' ? 'int4' : 'text', (row: RolloutRow) => row[column]] as const);
  await insertChunk(client, 'curve_records', columns, rows);
  await client.query('analyze curve_records');
  const added = await client.query<{ id: number }>('select id from curve_records where id > $1 order by id', [counted?.last ?? 0]);
  return added.map((r) => r.id);
}
