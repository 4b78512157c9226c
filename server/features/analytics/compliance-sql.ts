/**
 * Schedule compliance (common/rules/analytics.ts) worked out by the database: per kind, of the
 * register curves on the schedule at a day, those within their interval, overdue and never visited.
 *
 * One statement for all the days asked, set-based rather than one probe per curve and day: the
 * scope's visits matched to their register curves are read once, and each visit holds, as the
 * last of its curve and kind, for the days from its date up to the next visit's date (a visit
 * followed by another the same day holds for none). Joining the few days on those ranges gives
 * every curve's last Service and last CoF at each day, from which hasMachine and the intervals of
 * common/rules/schedule.ts follow. compliance-sql.test.ts holds this SQL to the rule on the same rows.
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
 * A `curve_days` CTE: one row per register curve of the scope and day asked (`n`: the day's
 * place in `days`), with its division, section and SSE, whether it is on the schedule at that day,
 * and its last Service and CoF dated on or before it.
 */
function curveDaysCte(scope: AnalyticsSqlScope, days: readonly string[]): SQL {
  // Visits after the last day asked are the last of nothing: they need not be read.
  const lastDay = days.reduce((a, b) => (b > a ? b : a));
  return sql`with days as (
      select asked.day::date as day, asked.n from jsonb_array_elements_text(${JSON.stringify(days)}::jsonb) with ordinality as asked(day, n)
    ), curves as materialized (
      select c.id, c.division_railway, c.section, c.sse, ${ROLLOUT_HAS_MACHINE} as rollout_machine
      from consolidated_curve_details c
      where ${curveOrActionInScope('c', scope)}
    ), visits as (
      -- The curve's own division only, as the schedule matches its last visits.
      select c.id as curve_id, i.type, i.date, i.service_update,
        lead(i.date) over (partition by c.id, i.type order by i.date, i.submitted_at, i.id) as next_date
      from consolidated_curve_details c
      join inspection_logs i on i.section = c.section and i.curve_number = c.curve_number and i.line = ${recordLineOf(sql`c.line`)}
        and i.division_railway = c.division_railway
      where ${curveOrActionInScope('c', scope)} and i.date <= ${lastDay}::date
    ), last_visits as (
      select v.curve_id, d.n,
        max(v.date) filter (where v.type = 'Service') as service_last,
        bool_or(v.service_update is not distinct from ${MACHINE_UNINSTALLED}) filter (where v.type = 'Service') as uninstalled,
        max(v.date) filter (where v.type = 'CoF') as cof_last
      from visits v
      join days d on d.day >= v.date and (v.next_date is null or d.day < v.next_date)
      group by v.curve_id, d.n
    ), curve_days as materialized (
      select curves.*, d.n, d.day, l.service_last, l.cof_last,
        -- hasMachine: the last Service visit decides when there is one, else the rollout record.
        (case when l.service_last is not null then not l.uninstalled else curves.rollout_machine end) as machine
      from curves cross join days d
      left join last_visits l on l.curve_id = curves.id and l.n = d.n
    )`;
}

/** The counts of ComplianceCounts over a group of `curve_days`. */
const COUNTS = sql`count(*) filter (where machine)::int as "onSchedule",
  count(*) filter (where machine and day - service_last <= ${INTERVAL_DAYS.Service}::int)::int as "serviceWithin",
  count(*) filter (where machine and service_last is null)::int as "serviceNever",
  count(*) filter (where machine and day - cof_last <= ${INTERVAL_DAYS.CoF}::int)::int as "cofWithin",
  count(*) filter (where machine and cof_last is null)::int as "cofNever"`;

/** A group's Service share, as the order of the groups wants it (worst first, none last). */
const SERVICE_SHARE = sql`(count(*) filter (where machine and day - service_last <= ${INTERVAL_DAYS.Service}::int))::float8
  / nullif(count(*) filter (where machine), 0)`;

function figuresOf(onSchedule: number, within: number, never: number): ComplianceFigures {
  return { onSchedule, within, overdue: onSchedule - within - never, never, share: shareOf(within, onSchedule) };
}

function bothOf(counts: ComplianceCounts): ComplianceGroup {
  return {
    service: figuresOf(counts.onSchedule, counts.serviceWithin, counts.serviceNever),
    cof: figuresOf(counts.onSchedule, counts.cofWithin, counts.cofNever),
  };
}

/** The scope's compliance at each of `days` (in the order given). */
export async function complianceOnDays(db: DbOrTx, scope: AnalyticsSqlScope, days: readonly string[]): Promise<ComplianceAt[]> {
  if (days.length === 0) return [];
  const rows = await rowsOf<ComplianceCounts & { n: number }>(
    db,
    sql`${curveDaysCte(scope, days)},
      counted as (select n, ${COUNTS} from curve_days group by n)
      select d.n::int as n, coalesce("onSchedule", 0) as "onSchedule", coalesce("serviceWithin", 0) as "serviceWithin",
        coalesce("serviceNever", 0) as "serviceNever", coalesce("cofWithin", 0) as "cofWithin", coalesce("cofNever", 0) as "cofNever"
      from days d left join counted using (n)
      order by d.n`,
  );
  return rows.map((row, i) => ({ day: days[i] as string, ...bothOf(row) }));
}

/** At `day`, per division and section, worst Service share first (then register order). */
export async function complianceBySection(
  db: DbOrTx,
  scope: AnalyticsSqlScope,
  day: string,
): Promise<Array<{ divisionRailway: string; section: string } & ComplianceGroup>> {
  const rows = await rowsOf<ComplianceCounts & { divisionRailway: string; section: string }>(
    db,
    sql`${curveDaysCte(scope, [day])}
      select division_railway as "divisionRailway", section, ${COUNTS}
      from curve_days
      group by division_railway, section
      order by ${SERVICE_SHARE} asc nulls last, division_railway, section`,
  );
  return rows.map((row) => ({ divisionRailway: row.divisionRailway, section: row.section, ...bothOf(row) }));
}

/** At `day`, per SSE of the register (null: none named), worst Service share first. */
export async function complianceBySse(db: DbOrTx, scope: AnalyticsSqlScope, day: string): Promise<Array<{ sse: string | null } & ComplianceGroup>> {
  const rows = await rowsOf<ComplianceCounts & { sse: string | null }>(
    db,
    sql`${curveDaysCte(scope, [day])}
      select sse, ${COUNTS}
      from curve_days
      group by sse
      order by ${SERVICE_SHARE} asc nulls last, sse nulls last`,
  );
  return rows.map((row) => ({ sse: row.sse, ...bothOf(row) }));
}
