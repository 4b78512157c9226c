/**
 * The dashboard's figures other than compliance (common/rules/analytics.ts), each worked out by
 * the database over the records and the actions of the scope, one statement each. Per-period
 * functions join the rows to the periods given (a jsonb parameter, in their order) with a left
 * join, so a period without rows answers zeros and nulls, and answer one entry per period in
 * that order. Ties are broken by name in the "C" collation, so PGlite and PostgreSQL (whatever
 * its locale) list alike. figures-sql.test.ts holds each function to the definitions.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { ActionFigures, AnalyticsDashboard, CofFigures, FaultCounts } from '../../../common/schemas/analytics.js';
import type { Period } from '../../../common/rules/analytics.js';
import type { InspectionType, ServiceUpdate } from '../../../common/constants.js';
import type { DbOrTx } from '../../db/client.js';
import { type AnalyticsSqlScope, curveOrActionInScope, recordInScope, rowsOf } from './sql-scope.js';

type Dashboard = AnalyticsDashboard;

const SERVICE: InspectionType = 'Service';
const COF: InspectionType = 'CoF';
// The updates that report a fault (common/rules/follow-up-actions.ts faultsReportedBy).
const PART_BROKEN: ServiceUpdate = 'part-broken';
const PART_STOLEN: ServiceUpdate = 'part-stolen';

/** A part's category or item as the dashboard names it: none given reads 'Not named'. */
export const UNNAMED_PART = 'Not named';

const isoDate = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD')`;

/** The periods as a set p(n, start_day, end_day), n their order from 1. */
function periodsSet(periods: readonly Period[]): SQL {
  return sql`(select x.n::int as n, (x.period->>'start')::date as start_day, (x.period->>'end')::date as end_day
    from jsonb_array_elements(${JSON.stringify(periods.map(({ start, end }) => ({ start, end })))}::jsonb) with ordinality as x(period, n))`;
}

const datedIn = (alias: string, range: Period) => sql`${sql.raw(alias)}.date between ${range.start}::date and ${range.end}::date`;

/** count, median, p90 and the share above the threshold of the CoF readings `i` grouped. */
function cofFiguresOf(threshold: number): SQL {
  return sql`count(i.cof_value)::int as count,
    percentile_cont(0.5) within group (order by i.cof_value::float8) as median,
    percentile_cont(0.9) within group (order by i.cof_value::float8) as p90,
    case when count(i.cof_value) > 0
      then (count(*) filter (where i.cof_value > ${String(threshold)}::numeric))::float8 / count(i.cof_value) end as "aboveThresholdShare"`;
}

const COF_READING = sql`i.type = ${COF} and i.cof_value is not null`;

/** CoF readings dated in each period. */
export async function cofByPeriod(db: DbOrTx, scope: AnalyticsSqlScope, periods: readonly Period[], threshold: number): Promise<CofFigures[]> {
  return rowsOf<CofFigures>(
    db,
    sql`select ${cofFiguresOf(threshold)}
      from ${periodsSet(periods)} p
      left join inspection_logs i on ${COF_READING} and i.date between p.start_day and p.end_day and ${recordInScope('i', scope)}
      group by p.n order by p.n`,
  );
}

/** CoF readings dated in [from, to] per division and section, highest median first. */
export async function cofBySection(db: DbOrTx, scope: AnalyticsSqlScope, range: Period, threshold: number): Promise<Dashboard['friction']['bySection']> {
  return rowsOf(
    db,
    sql`select i.division_railway as "divisionRailway", i.section, ${cofFiguresOf(threshold)}
      from inspection_logs i
      where ${COF_READING} and ${datedIn('i', range)} and ${recordInScope('i', scope)}
      group by i.division_railway, i.section
      order by median desc, i.division_railway collate "C", i.section collate "C"`,
  );
}

const CURVE_KEY = sql`i.division_railway, i.section, i.curve_number, i.line`;

/**
 * Each curve's last `count` visits matching `which` dated on or before `to`, as rows of
 * (division_railway, section, curve_number, line, date, value, rn), rn 1 the latest: by date,
 * then upload, then id (the schedule's order of visits).
 */
function lastVisitsOfCurves(scope: AnalyticsSqlScope, which: SQL, value: SQL, to: string, count: number): SQL {
  return sql`(select * from (
      select ${CURVE_KEY}, i.date, ${value} as value,
        row_number() over (partition by ${CURVE_KEY} order by i.date desc, i.submitted_at desc, i.id desc)::int as rn
      from inspection_logs i
      where ${which} and i.date <= ${to}::date and ${recordInScope('i', scope)}
    ) ranked where rn <= ${count}::int)`;
}

const CURVE_COLUMNS = sql`v.division_railway as "divisionRailway", v.section, v.curve_number as "curveNumber", v.line`;
const CURVE_GROUP = sql`v.division_railway, v.section, v.curve_number, v.line`;
const CURVE_ORDER = sql`v.division_railway collate "C", v.section collate "C", v.curve_number collate "C", v.line collate "C"`;

/** Curves whose last three readings on or before `to` each rise, highest last reading first. */
export async function risingCurves(db: DbOrTx, scope: AnalyticsSqlScope, to: string, limit: number): Promise<Dashboard['friction']['rising']> {
  const reading = (rn: number) => sql`max(v.value) filter (where v.rn = ${rn}::int)`;
  return rowsOf(
    db,
    sql`select ${CURVE_COLUMNS},
        jsonb_agg(jsonb_build_object('date', ${isoDate(sql`v.date`)}, 'value', v.value) order by v.rn desc) as readings
      from ${lastVisitsOfCurves(scope, COF_READING, sql`i.cof_value::float8`, to, 3)} v
      group by ${CURVE_GROUP}
      having count(*) = 3 and ${reading(3)} < ${reading(2)} and ${reading(2)} < ${reading(1)}
      order by ${reading(1)} desc, ${CURVE_ORDER}
      limit ${limit}::int`,
  );
}

/** Service visits and the faults they report, per period. */
export async function faultsByPeriod(db: DbOrTx, scope: AnalyticsSqlScope, periods: readonly Period[]): Promise<Dashboard['machines']['series']> {
  return rowsOf(
    db,
    sql`select ${isoDate(sql`p.start_day`)} as start, ${isoDate(sql`p.end_day`)} as "end",
        count(i.id)::int as "serviceVisits",
        (count(*) filter (where i.service_update = ${PART_BROKEN}))::int as "partBroken",
        (count(*) filter (where i.service_update = ${PART_STOLEN}))::int as "partStolen",
        (count(*) filter (where i.is_machine_working = false))::int as "machineNotWorking",
        case when count(i.is_machine_working) > 0
          then (count(*) filter (where i.is_machine_working = true))::float8 / count(i.is_machine_working) end as "workingRate"
      from ${periodsSet(periods)} p
      left join inspection_logs i on i.type = ${SERVICE} and i.date between p.start_day and p.end_day and ${recordInScope('i', scope)}
      group by p.n, p.start_day, p.end_day order by p.n`,
  );
}

/** Service and CoF visits dated in [from, to]. */
export async function visitCounts(db: DbOrTx, scope: AnalyticsSqlScope, range: Period): Promise<{ service: number; cof: number }> {
  const [counts] = await rowsOf<{ service: number; cof: number }>(
    db,
    sql`select (count(*) filter (where i.type = ${SERVICE}))::int as service, (count(*) filter (where i.type = ${COF}))::int as cof
      from inspection_logs i where ${datedIn('i', range)} and ${recordInScope('i', scope)}`,
  );
  return counts ?? { service: 0, cof: 0 };
}

/** Faults reported over the range (the sum of faultsByPeriod over one period). */
export type RangeFaults = FaultCounts;

const partName = (column: SQL) => sql`(case when btrim(coalesce(${column}, '')) = '' then ${UNNAMED_PART} else ${column} end)`;

/** Parts reported broken or stolen in [from, to]: by item and by category, most first, with the running share. */
export async function partsPareto(db: DbOrTx, scope: AnalyticsSqlScope, range: Period): Promise<Pick<Dashboard['machines'], 'parts' | 'categories'>> {
  const [answer] = await rowsOf<Pick<Dashboard['machines'], 'parts' | 'categories'>>(
    db,
    sql`with faults as (
        select ${partName(sql`i.part_category`)} as category, ${partName(sql`i.part_item_name`)} as item, i.service_update
        from inspection_logs i
        where i.type = ${SERVICE} and i.service_update in (${PART_BROKEN}, ${PART_STOLEN}) and ${datedIn('i', range)} and ${recordInScope('i', scope)}
      ), items as (
        select category, item, (count(*) filter (where service_update = ${PART_BROKEN}))::int as broken,
          (count(*) filter (where service_update = ${PART_STOLEN}))::int as stolen, count(*)::int as count
        from faults group by category, item
      ), items_ranked as (
        select *, row_number() over w as rank,
          (sum(count) over (w rows unbounded preceding))::float8 / sum(count) over () as cumulative
        from items window w as (order by count desc, category collate "C", item collate "C")
      ), categories as (
        select category, count(*)::int as count from faults group by category
      ), categories_ranked as (
        select *, row_number() over w as rank,
          (sum(count) over (w rows unbounded preceding))::float8 / sum(count) over () as cumulative
        from categories window w as (order by count desc, category collate "C")
      )
      select
        (select coalesce(jsonb_agg(jsonb_build_object('category', category, 'item', item, 'broken', broken, 'stolen', stolen,
            'count', count, 'cumulativeShare', cumulative) order by rank), '[]'::jsonb) from items_ranked) as parts,
        (select coalesce(jsonb_agg(jsonb_build_object('category', category, 'count', count, 'cumulativeShare', cumulative) order by rank),
            '[]'::jsonb) from categories_ranked) as categories`,
  );
  return answer ?? { parts: [], categories: [] };
}

/** Follow-up actions open and overdue at `to`, opened and closed in the range, median days to close. */
export async function actionFigures(db: DbOrTx, scope: AnalyticsSqlScope, range: Period): Promise<ActionFigures> {
  const to = sql`${range.end}::date`;
  const openAtTo = sql`a.opened_on <= ${to} and (a.closed_on is null or a.closed_on > ${to})`;
  const closedInRange = sql`a.closed_on between ${range.start}::date and ${to}`;
  const [figures] = await rowsOf<ActionFigures>(
    db,
    sql`select (count(*) filter (where ${openAtTo}))::int as open,
        (count(*) filter (where ${openAtTo} and a.due_date < ${to}))::int as overdue,
        percentile_cont(0.5) within group (order by (a.closed_on - a.opened_on)::float8) filter (where ${closedInRange}) as "medianDaysToClose",
        (count(*) filter (where a.opened_on between ${range.start}::date and ${to}))::int as "openedInRange",
        (count(*) filter (where ${closedInRange}))::int as "closedInRange"
      from follow_up_actions a where ${curveOrActionInScope('a', scope)}`,
  );
  if (!figures) throw new Error('actionFigures: the aggregate answered no row');
  return figures;
}

const GREASE_READING = sql`i.type = ${SERVICE} and i.grease_depth is not null`;
const GREASE_FIGURES = sql`count(i.grease_depth)::int as count, percentile_cont(0.5) within group (order by i.grease_depth::float8) as median`;

/** Grease depth of the Service visits dated in each period. */
export async function greaseByPeriod(db: DbOrTx, scope: AnalyticsSqlScope, periods: readonly Period[]): Promise<Array<{ count: number; median: number | null }>> {
  return rowsOf(
    db,
    sql`select ${GREASE_FIGURES}
      from ${periodsSet(periods)} p
      left join inspection_logs i on ${GREASE_READING} and i.date between p.start_day and p.end_day and ${recordInScope('i', scope)}
      group by p.n order by p.n`,
  );
}

/** Grease depth over [from, to] per division and section, lowest median first. */
export async function greaseBySection(db: DbOrTx, scope: AnalyticsSqlScope, range: Period): Promise<Dashboard['grease']['bySection']> {
  return rowsOf(
    db,
    sql`select i.division_railway as "divisionRailway", i.section, ${GREASE_FIGURES}
      from inspection_logs i
      where ${GREASE_READING} and ${datedIn('i', range)} and ${recordInScope('i', scope)}
      group by i.division_railway, i.section
      order by median, i.division_railway collate "C", i.section collate "C"`,
  );
}

/** Curves whose last two Service visits on or before `to` both read 0, the most recent first. */
export async function dryCurves(db: DbOrTx, scope: AnalyticsSqlScope, to: string, limit: number): Promise<Dashboard['grease']['dry']> {
  return rowsOf(
    db,
    sql`select ${CURVE_COLUMNS}, jsonb_agg(${isoDate(sql`v.date`)} order by v.rn) as "lastVisits"
      from ${lastVisitsOfCurves(scope, sql`i.type = ${SERVICE}`, sql`i.grease_depth`, to, 2)} v
      group by ${CURVE_GROUP}
      having count(*) filter (where v.value = 0) = 2
      order by max(v.date) desc, ${CURVE_ORDER}
      limit ${limit}::int`,
  );
}

/** Visits per technician per period, most visits first. */
export async function fieldWork(db: DbOrTx, scope: AnalyticsSqlScope, periods: readonly Period[]): Promise<Dashboard['fieldWork']['technicians']> {
  const ofType = (type: InspectionType, alias: string) => sql`(count(*) filter (where ${sql.raw(alias)}.type = ${type}))::int`;
  return rowsOf(
    db,
    sql`with p as ${periodsSet(periods)},
      visits as (
        select i.id, i.technician_id, i.technician_name, i.type, i.date, i.submitted_at, p.n
        from inspection_logs i join p on i.date between p.start_day and p.end_day
        where ${recordInScope('i', scope)}
      ), technicians as (
        select v.technician_id, ${ofType(SERVICE, 'v')} as service, ${ofType(COF, 'v')} as cof,
          (array_agg(v.technician_name order by v.date desc, v.submitted_at desc, v.id desc))[1] as name
        from visits v group by v.technician_id
      ), cells as (
        select t.technician_id, p.n, ${ofType(SERVICE, 'v')} as service, ${ofType(COF, 'v')} as cof
        from technicians t cross join p
        left join visits v on v.technician_id = t.technician_id and v.n = p.n
        group by t.technician_id, p.n
      )
      select t.technician_id as "technicianId", t.name, t.service, t.cof,
        jsonb_agg(jsonb_build_object('service', c.service, 'cof', c.cof) order by c.n) as series
      from technicians t join cells c on c.technician_id = t.technician_id
      group by t.technician_id, t.name, t.service, t.cof
      order by t.service + t.cof desc, t.technician_id collate "C"`,
  );
}
