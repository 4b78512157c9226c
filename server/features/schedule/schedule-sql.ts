/**
 * The schedule rule (common/rules/schedule.ts) worked out by the database for a whole register:
 * one statement per answer, whatever the number of curves. For each curve, two index probes
 * (inspection_logs_curve_type_division_date_idx, migration 0009) find its last Service and last
 * CoF within its own division, each stopping at the first row, and a third
 * (curve_records_section_curve_idx, migration 0011) finds whether its rollout record says a
 * machine is there; the states, due dates and the due list's order follow from the rule's own
 * constants, passed as parameters, so the 15 and 30 days exist once. schedule-sql.test.ts holds
 * this SQL to the rule on the same data.
 */
import { type SQL, sql } from 'drizzle-orm';
import {
  DUE_SOON_DAYS,
  type DueState,
  INTERVAL_DAYS,
  MACHINE_UNINSTALLED,
  type ScheduleStatusFilter,
  URGENCY_BASE,
} from '../../../common/rules/schedule.js';
import type { InspectionType } from '../../../common/constants.js';
import type { DbOrTx } from '../../db/client.js';
import { rolloutMachineSql, rolloutRecordOfCurve } from '../../db/rollout-sql.js';
import { recordLineOf } from '../../db/sql-helpers.js';

export interface ScheduleScope {
  division?: string | undefined;
  section?: string | undefined;
}

export interface ScheduleContext {
  /** Today's business date in APP_TIMEZONE, YYYY-MM-DD. */
  today: string;
  cofAlertThreshold: number;
}

export interface ScheduleRow {
  id: number;
  no: number;
  divisionRailway: string;
  section: string;
  curveNumber: string;
  line: string;
  hkmCode: number | null;
  sse: string | null;
  /** The curve's rollout record says its machine is installed or commissioned. */
  rolloutMachine: boolean;
  serviceState: DueState;
  serviceLastDate: string | null;
  serviceLastTechnician: string | null;
  serviceUpdate: string | null;
  serviceDueDate: string | null;
  serviceDaysSince: number | null;
  serviceDaysOverdue: number;
  serviceDaysUntilDue: number | null;
  serviceUrgency: number;
  cofState: DueState;
  cofLastDate: string | null;
  cofLastTechnician: string | null;
  cofLastValue: number | null;
  cofHigh: boolean;
  cofDueDate: string | null;
  cofDaysSince: number | null;
  cofDaysOverdue: number;
  cofDaysUntilDue: number | null;
  cofUrgency: number;
}

/**
 * The last visit of one kind to curve `c`: the latest visit date, then the latest upload.
 * Only records filed under the curve's own division count: a record of another division naming
 * the same section, number and line must not lend this curve its date, technician or reading
 * (a Client of this division would see them). Spelled `desc nulls last` as the index is: a plain
 * DESC means NULLS FIRST, and PostgreSQL would then sort instead of reading the index backwards.
 */
function lastVisit(type: InspectionType, columns: SQL): SQL {
  return sql`(select ${columns} from inspection_logs i
    where i.section = c.section and i.curve_number = c.curve_number and i.line = ${recordLineOf(sql`c.line`)} and i.type = ${type}
      and i.division_railway = c.division_railway
    order by i.date desc nulls last, i.submitted_at desc nulls last, i.id desc nulls last limit 1)`;
}

function scopeWhere(scope: ScheduleScope): SQL {
  const conditions: SQL[] = [sql`true`];
  if (scope.division !== undefined) conditions.push(sql`c.division_railway = ${scope.division}`);
  if (scope.section !== undefined) conditions.push(sql`c.section = ${scope.section}`);
  return sql.join(conditions, sql` and `);
}

/**
 * Whether a register curve `c`'s rollout record (matched as the machine report matches it) says
 * its machine is installed or commissioned: one probe, stopping at the first such record.
 */
const ROLLOUT_MACHINE = sql`(select true as machine from curve_records r
    where ${rolloutRecordOfCurve(
      { section: sql`c.section`, curveNumber: sql`c.curve_number`, line: sql`c.line` },
      { section: sql`r.section`, curveNumber: sql`r.curve_number`, line: sql`r.line` },
    )}
      and ${rolloutMachineSql(sql`r.machine_actual`, sql`r.commissioned`)}
    limit 1)`;

/**
 * The rule's state of one kind, from its last date; `offSchedule` are the `when ... then` arms
 * that take the curve off the schedule first (no machine; for Service, the uninstall).
 */
function stateOf(kind: InspectionType, last: SQL, today: SQL, offSchedule: SQL): SQL {
  const interval = sql`${INTERVAL_DAYS[kind]}::int`;
  return sql`(case ${offSchedule}
    when ${last} is null then 'never'
    when ${last} + ${interval} < ${today} then 'overdue'
    when ${last} + ${interval} - ${today} <= ${DUE_SOON_DAYS}::int then 'due-soon'
    else 'in-time' end)`;
}

/** Due date, day counts and urgency of one kind, from its state (a column of `states`). */
function derivedOf(kind: InspectionType, prefix: 'service' | 'cof', today: SQL): SQL {
  const state = sql.raw(`${prefix}_state`);
  const last = sql.raw(`${prefix}_last`);
  const due = sql`(${last} + ${INTERVAL_DAYS[kind]}::int)`;
  const name = (suffix: string) => sql.raw(`"${prefix}${suffix}"`);
  return sql`
    to_char(${last}, 'YYYY-MM-DD') as ${name('LastDate')},
    case when ${state} in ('never', 'not-needed', 'no-machine') then null else to_char(${due}, 'YYYY-MM-DD') end as ${name('DueDate')},
    (${today} - ${last})::int as ${name('DaysSince')},
    case when ${state} = 'overdue' then (${today} - ${due})::int else 0 end as ${name('DaysOverdue')},
    case when ${state} in ('due-soon', 'in-time') then (${due} - ${today})::int else null end as ${name('DaysUntilDue')},
    (case ${state}
      when 'overdue' then ${URGENCY_BASE.overdue}::int - (${today} - ${due})
      when 'due-soon' then ${URGENCY_BASE['due-soon']}::int + (${due} - ${today})
      when 'in-time' then ${URGENCY_BASE['in-time']}::int + (${due} - ${today})
      when 'never' then ${URGENCY_BASE.never}::int
      when 'not-needed' then ${URGENCY_BASE['not-needed']}::int
      else ${URGENCY_BASE['no-machine']}::int end)::int as ${name('Urgency')}`;
}

/**
 * Every curve of the scope with both kinds' schedule, as a `schedule` CTE the callers select
 * from (columns as ScheduleRow, camelCase).
 */
function scheduleCte(scope: ScheduleScope, context: ScheduleContext): SQL {
  const today = sql`${context.today}::date`;
  return sql`with last_visits as (
      select c.id, c.no, c.division_railway, c.section, c.curve_number, c.line, c.hkm_code, c.sse,
        s.date as service_last, s.service_update, s.technician_name as service_technician,
        f.date as cof_last, f.cof_value, f.technician_name as cof_technician,
        coalesce(m.machine, false) as rollout_machine,
        -- hasMachine: the last Service visit decides when there is one, else the rollout record.
        (case when s.date is not null then s.service_update is distinct from ${MACHINE_UNINSTALLED}
          else coalesce(m.machine, false) end) as machine
      from consolidated_curve_details c
      left join lateral ${lastVisit('Service', sql`i.date, i.service_update, i.technician_name`)} s on true
      left join lateral ${lastVisit('CoF', sql`i.date, i.cof_value, i.technician_name`)} f on true
      left join lateral ${ROLLOUT_MACHINE} m on true
      where ${scopeWhere(scope)}
    ), states as (
      select last_visits.*,
        ${stateOf('Service', sql`service_last`, today, sql`when service_update = ${MACHINE_UNINSTALLED} then 'not-needed' when not machine then 'no-machine'`)} as service_state,
        ${stateOf('CoF', sql`cof_last`, today, sql`when not machine then 'no-machine'`)} as cof_state
      from last_visits
    ), schedule as (
      select id, no, division_railway as "divisionRailway", section, curve_number as "curveNumber", line,
        hkm_code as "hkmCode", sse, rollout_machine as "rolloutMachine",
        service_state as "serviceState", service_technician as "serviceLastTechnician", service_update as "serviceUpdate",
        ${derivedOf('Service', 'service', today)},
        cof_state as "cofState", cof_technician as "cofLastTechnician", cof_value::float8 as "cofLastValue",
        -- A curve without a machine is not followed up, whatever its last reading.
        (machine and coalesce(cof_value > ${context.cofAlertThreshold}::numeric, false)) as "cofHigh",
        ${derivedOf('CoF', 'cof', today)}
      from states
    )`;
}

const ATTENTION_STATES = sql`('overdue', 'due-soon', 'never')`;

/** The due list's status filter, for one kind or (without a kind) for either. */
function statusWhere(status: ScheduleStatusFilter | undefined, kind: InspectionType | undefined): SQL {
  if (status === undefined) return sql`true`;
  if (status === 'cof-high') return sql`"cofHigh"`;
  const service =
    status === 'attention' ? sql`"serviceState" in ${ATTENTION_STATES}` : sql`"serviceState" = ${status}`;
  const cof = status === 'attention' ? sql`("cofState" in ${ATTENTION_STATES} or "cofHigh")` : sql`"cofState" = ${status}`;
  if (kind === 'Service') return service;
  if (kind === 'CoF') return cof;
  return sql`(${service} or ${cof})`;
}

function urgencyOf(kind: InspectionType | undefined): SQL {
  if (kind === 'Service') return sql`"serviceUrgency"`;
  if (kind === 'CoF') return sql`"cofUrgency"`;
  return sql`least("serviceUrgency", "cofUrgency")`;
}

const REGISTER_ORDER = sql`"divisionRailway", section, no, id`;

/**
 * Rows of a raw statement. Both drivers answer `{rows}`; the columns are cast in SQL to types
 * both parse alike (text dates, int counts, float8 readings), which is what T describes.
 */
async function rowsOf<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export interface ScheduleListOptions {
  status?: ScheduleStatusFilter | undefined;
  kind?: InspectionType | undefined;
  /** 'urgency': most overdue first (due lists); 'register': division, section, No. (reports). */
  order: 'urgency' | 'register';
  page?: { limit: number; offset: number };
}

/** The schedule of the scope's curves, filtered and ordered; `total` counts all that match. */
export async function listSchedule(
  db: DbOrTx,
  scope: ScheduleScope,
  context: ScheduleContext,
  options: ScheduleListOptions,
): Promise<{ rows: ScheduleRow[]; total: number }> {
  const order = options.order === 'urgency' ? sql`${urgencyOf(options.kind)}, ${REGISTER_ORDER}` : REGISTER_ORDER;
  const where = statusWhere(options.status, options.kind);
  if (!options.page) {
    // Everything that matches (a report): the rows are the total, no window count, no copies.
    const rows = await rowsOf<ScheduleRow>(db, sql`${scheduleCte(scope, context)} select * from schedule where ${where} order by ${order}`);
    return { rows, total: rows.length };
  }
  const rows = await rowsOf<ScheduleRow & { total: number }>(
    db,
    sql`${scheduleCte(scope, context)}
      select *, (count(*) over ())::int as total from schedule
      where ${where}
      order by ${order} limit ${options.page.limit} offset ${options.page.offset}`,
  );
  // Past the last page there are no rows to carry the total: count again (rare).
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && options.page.offset > 0) {
    const [count] = await rowsOf<{ total: number }>(db, sql`${scheduleCte(scope, context)} select count(*)::int as total from schedule where ${where}`);
    total = count?.total ?? 0;
  }
  return { rows: rows.map(({ total: _total, ...row }) => row), total };
}

export interface SectionCountsRow {
  divisionRailway: string;
  section: string;
  curves: number;
  serviceOverdue: number;
  serviceDueSoon: number;
  serviceNever: number;
  serviceInTime: number;
  serviceNotNeeded: number;
  serviceNoMachine: number;
  serviceAttention: number;
  cofOverdue: number;
  cofDueSoon: number;
  cofNever: number;
  cofInTime: number;
  cofHigh: number;
  cofNoMachine: number;
  cofAttention: number;
}

/** Counts of each state per division and section, in register order. */
export async function countScheduleBySection(db: DbOrTx, scope: ScheduleScope, context: ScheduleContext): Promise<SectionCountsRow[]> {
  const count = (condition: SQL) => sql`(count(*) filter (where ${condition}))::int`;
  return rowsOf<SectionCountsRow>(
    db,
    sql`${scheduleCte(scope, context)}
      select "divisionRailway", section, count(*)::int as curves,
        ${count(sql`"serviceState" = 'overdue'`)} as "serviceOverdue",
        ${count(sql`"serviceState" = 'due-soon'`)} as "serviceDueSoon",
        ${count(sql`"serviceState" = 'never'`)} as "serviceNever",
        ${count(sql`"serviceState" = 'in-time'`)} as "serviceInTime",
        ${count(sql`"serviceState" = 'not-needed'`)} as "serviceNotNeeded",
        ${count(sql`"serviceState" = 'no-machine'`)} as "serviceNoMachine",
        ${count(statusWhere('attention', 'Service'))} as "serviceAttention",
        ${count(sql`"cofState" = 'overdue'`)} as "cofOverdue",
        ${count(sql`"cofState" = 'due-soon'`)} as "cofDueSoon",
        ${count(sql`"cofState" = 'never'`)} as "cofNever",
        ${count(sql`"cofState" = 'in-time'`)} as "cofInTime",
        ${count(sql`"cofHigh"`)} as "cofHigh",
        ${count(sql`"cofState" = 'no-machine'`)} as "cofNoMachine",
        ${count(statusWhere('attention', 'CoF'))} as "cofAttention"
      from schedule
      group by "divisionRailway", section
      order by "divisionRailway", section`,
  );
}

/** Sections a technician recorded visits in since `since`, the most recent first. */
export async function recentSectionsOf(db: DbOrTx, technicianId: string, since: string, limit: number): Promise<string[]> {
  const rows = await rowsOf<{ section: string }>(
    db,
    sql`select section from inspection_logs where technician_id = ${technicianId} and date >= ${since}::date
      group by section order by max(submitted_at) desc limit ${limit}`,
  );
  return rows.map((r) => r.section);
}

/** Whether the scope holds any curve (a report for an unknown section is refused, not empty). */
export async function scopeHasCurves(db: DbOrTx, scope: ScheduleScope): Promise<boolean> {
  const rows = await rowsOf<{ found: number }>(db, sql`select 1 as found from consolidated_curve_details c where ${scopeWhere(scope)} limit 1`);
  return rows.length > 0;
}
