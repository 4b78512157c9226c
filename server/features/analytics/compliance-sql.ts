/**
 * Schedule compliance (common/rules/analytics.ts) worked out by the database: per kind, of the
 * register curves on the schedule at a day, those within their interval, overdue and never visited.
 *
 * Set-based rather than one probe per curve and day: the scope's visits matched to their register
 * curves are read once, in order, and cut each curve's days into segments from one visit to the
 * next, over which its last Service and last CoF stay the same; hasMachine and the intervals of
 * common/rules/schedule.ts then say which days of a segment count. A day's figures count the
 * segments holding it; a series of days sums where those stretches start and stop, so its cost
 * does not grow with curves times days. compliance-sql.test.ts holds this SQL to the rule on the same rows.
 */
import { type SQL, sql } from 'drizzle-orm';
import { shareOf } from '../../../common/rules/analytics.js';
import { INTERVAL_DAYS, MACHINE_UNINSTALLED } from '../../../common/rules/schedule.js';
import type { ComplianceFigures } from '../../../common/schemas/analytics.js';
import type { DbOrTx } from '../../db/client.js';
import { rolloutMachineSql, rolloutRecordOfCurve } from '../../db/rollout-sql.js';
import { recordLineOf } from '../../db/sql-helpers.js';
import { type AnalyticsSqlScope, curveOrActionInScope, rowsOf } from './sql-scope.js';

export interface ComplianceAt {
  day: string;
  service: ComplianceFigures;
  cof: ComplianceFigures;
}

export type ComplianceGroup = { service: ComplianceFigures; cof: ComplianceFigures };

/** The counts one row of the statement answers, per kind; the share is worked out from them. */
interface ComplianceCounts {
  onSchedule: number;
  serviceWithin: number;
  serviceNever: number;
  cofWithin: number;
  cofNever: number;
}

/** Whether register curve `c`'s rollout record says its machine is installed or commissioned. */
const ROLLOUT_HAS_MACHINE = sql`exists (select 1 from curve_records r
    where ${rolloutRecordOfCurve(
      { section: sql`c.section`, curveNumber: sql`c.curve_number`, line: sql`c.line` },
      { section: sql`r.section`, curveNumber: sql`r.curve_number`, line: sql`r.line` },
    )}
      and ${rolloutMachineSql(sql`r.machine_actual`, sql`r.commissioned`)})`;

/**
 * The CTEs every answer reads, ending in `segments`: for each register curve of the scope, the
 * days [since, until) over which its last Service (`service_last`) and last CoF (`cof_last`)
 * dated on or before the day stay the same, and whether it has a machine then (hasMachine).
 * A visit starts a segment that lasts until the curve's next visit of either kind (one followed
 * by another the same day, none); the first starts at -infinity with neither kind visited.
 * `lastDay`: visits after it are the last of none of the days asked.
 */
function segmentsCte(scope: AnalyticsSqlScope, lastDay: string): SQL {
  // A curve's visits in the order the schedule takes the last: by date, then upload, then id.
  const inVisitOrder = sql`partition by curve_id order by date, submitted_at, id`;
  const upToHere = sql`(${inVisitOrder} rows between unbounded preceding and current row)`;
  return sql`curves as materialized (
      -- The register's 'SSE' placeholder names nobody (the register filters leave it out too): no SSE named.
      select c.id, c.division_railway, c.section, nullif(nullif(btrim(c.sse), ''), 'SSE') as sse, c.curve_number, ${recordLineOf(sql`c.line`)} as record_line,
        ${ROLLOUT_HAS_MACHINE} as rollout_machine
      from consolidated_curve_details c
      where ${curveOrActionInScope('c', scope)}
    ), visits as (
      -- The curve's own division only, as the schedule matches its last visits.
      select curves.id as curve_id, curves.division_railway, curves.section, curves.sse, curves.rollout_machine,
        i.type, i.date, i.submitted_at, i.id, i.service_update is not distinct from ${MACHINE_UNINSTALLED} as uninstalled
      from curves
      join inspection_logs i on i.section = curves.section and i.curve_number = curves.curve_number and i.line = curves.record_line
        and i.division_railway = curves.division_railway
      where i.date <= ${lastDay}::date
      union all
      select curves.id, curves.division_railway, curves.section, curves.sse, curves.rollout_machine,
        null, '-infinity'::date, null, null, false
      from curves
    ), ordered as (
      select visits.*,
        lead(date, 1, 'infinity'::date) over (${inVisitOrder}) as until,
        max(date) filter (where type = 'Service') over ${upToHere} as service_last,
        max(date) filter (where type = 'CoF') over ${upToHere} as cof_last,
        -- Which Service visit is the last so far: the rows after it share its number.
        count(*) filter (where type = 'Service') over ${upToHere} as services
      from visits
    ), segments as (
      select curve_id, division_railway, section, sse, date as since, until, service_last, cof_last,
        -- hasMachine: the last Service visit decides when there is one, else the rollout record.
        (case when service_last is not null
          then not bool_or(uninstalled) filter (where type = 'Service') over (partition by curve_id, services)
          else rollout_machine end) as machine
      from ordered
    )`;
}

/** The first day a last visit of `kind` on `last` no longer keeps a curve within its interval. */
const withinUntil = (last: SQL, kind: 'Service' | 'CoF') => sql`(${last} + ${INTERVAL_DAYS[kind] + 1}::int)`;

/** Until when a segment keeps a curve within its interval of `kind` (least() would skip a null `last`). */
const withinStretch = (last: SQL, kind: 'Service' | 'CoF') => sql`case when ${last} is not null then least(until, ${withinUntil(last, kind)}) end`;

/**
 * ComplianceCounts of the segments holding `day`, per division and section and per SSE, from one
 * reading of the segments (grouping sets); within each, the worst Service share first, groups with
 * no curve on the schedule (no share) last, then by their keys.
 */
function groupedAt(scope: AnalyticsSqlScope, day: string): SQL {
  const d = sql`${day}::date`;
  const serviceWithin = sql`machine and ${d} < ${withinUntil(sql`service_last`, 'Service')}`;
  return sql`with ${segmentsCte(scope, day)}
    select grouping(sse)::int = 1 as "bySection", division_railway as "divisionRailway", section, sse,
      count(*) filter (where machine)::int as "onSchedule",
      count(*) filter (where ${serviceWithin})::int as "serviceWithin",
      count(*) filter (where machine and service_last is null)::int as "serviceNever",
      count(*) filter (where machine and ${d} < ${withinUntil(sql`cof_last`, 'CoF')})::int as "cofWithin",
      count(*) filter (where machine and cof_last is null)::int as "cofNever"
    from segments
    where since <= ${d} and ${d} < until
    group by grouping sets ((division_railway, section), (sse))
    order by 1 desc, (count(*) filter (where ${serviceWithin}))::float8 / nullif(count(*) filter (where machine), 0) asc nulls last,
      division_railway, section, sse`;
}

function figuresOf(onSchedule: number, within: number, never: number): ComplianceFigures {
  return { onSchedule, within, overdue: onSchedule - within - never, never, share: shareOf(within, onSchedule) };
}

function bothOf(counts: ComplianceCounts): ComplianceGroup {
  return {
    service: figuresOf(counts.onSchedule, counts.serviceWithin, counts.serviceNever),
    cof: figuresOf(counts.onSchedule, counts.cofWithin, counts.cofNever),
  };
}

const MEASURES = ['onSchedule', 'serviceWithin', 'serviceNever', 'cofWithin', 'cofNever'] as const;

/**
 * The scope's compliance at each of `days` (in the order given). Each segment holds each measure
 * over a stretch of days [since, upto); it adds one to the days asked from the first in the
 * stretch and takes it back from the first after it, so a day's figure is the sum of the changes
 * up to its place among the days asked: one pass over the segments whatever the number of days.
 */
export async function complianceOnDays(db: DbOrTx, scope: AnalyticsSqlScope, days: readonly string[]): Promise<ComplianceAt[]> {
  if (days.length === 0) return [];
  const lastDay = days.reduce((a, b) => (b > a ? b : a));
  // The place, among the days asked (sorted, once each), of the first day on or after `date`.
  const placeOf = (date: SQL) => sql`(width_bucket(${date}, (select after from bounds)) + 1)`;
  const rows = await rowsOf<ComplianceCounts>(
    db,
    sql`with asked as (
        select value::date as day, n from jsonb_array_elements_text(${JSON.stringify(days)}::jsonb) with ordinality as given(value, n)
      ), bounds as (
        -- Each day asked + 1: width_bucket then counts the days asked before a date.
        select array_agg(distinct day + 1 order by day + 1) as after from asked
      ), ${segmentsCte(scope, lastDay)}, stretches as (
        select measure, ${placeOf(sql`since`)} as starts, ${placeOf(sql`upto`)} as stops
        from segments
        cross join lateral (values
          ('onSchedule', until),
          ('serviceWithin', ${withinStretch(sql`service_last`, 'Service')}),
          ('serviceNever', case when service_last is null then until end),
          ('cofWithin', ${withinStretch(sql`cof_last`, 'CoF')}),
          ('cofNever', case when cof_last is null then until end)
        ) as held(measure, upto)
        -- A segment may start after its last visit's interval ran out: that stretch holds no day.
        where machine and since < upto
      ), spans as (
        -- Curves holding a measure over the same days asked, counted together.
        select measure, starts, stops, count(*) as curves from stretches group by measure, starts, stops
      ), changes as (
        select change.place, measure, sum(change.delta) as delta
        from spans
        cross join lateral (values (starts, curves), (stops, -curves)) as change(place, delta)
        -- A stretch holding none of the days asked changes none of them.
        where starts < stops
        group by change.place, measure
      )
      select ${sql.join(
        MEASURES.map((measure) => sql`coalesce(sum(changes.delta) filter (where measure = ${measure}), 0)::int as ${sql.raw(`"${measure}"`)}`),
        sql`, `,
      )}
      from asked
      left join changes on changes.place <= ${placeOf(sql`asked.day`)}
      group by asked.n
      order by asked.n`,
  );
  return rows.map((row, i) => ({ day: days[i] as string, ...bothOf(row) }));
}

type GroupRow = ComplianceCounts & { bySection: boolean; divisionRailway: string | null; section: string | null; sse: string | null };

/** At `day`, per division and section and per SSE of the register (null: none named), each worst Service share first. */
export async function complianceGroupsAt(db: DbOrTx, scope: AnalyticsSqlScope, day: string) {
  const rows = await rowsOf<GroupRow>(db, groupedAt(scope, day));
  return {
    bySection: rows.filter((row) => row.bySection).map((row) => ({ divisionRailway: row.divisionRailway ?? '', section: row.section ?? '', ...bothOf(row) })),
    bySse: rows.filter((row) => !row.bySection).map((row) => ({ sse: row.sse, ...bothOf(row) })),
  };
}

export async function complianceBySection(
  db: DbOrTx,
  scope: AnalyticsSqlScope,
  day: string,
): Promise<Array<{ divisionRailway: string; section: string } & ComplianceGroup>> {
  return (await complianceGroupsAt(db, scope, day)).bySection;
}

export async function complianceBySse(db: DbOrTx, scope: AnalyticsSqlScope, day: string): Promise<Array<{ sse: string | null } & ComplianceGroup>> {
  return (await complianceGroupsAt(db, scope, day)).bySse;
}
