/**
 * The maintenance schedule: the one statement of when a curve is due (docs/functional-requirements.md, 'The maintenance schedule').
 *
 * The schedule covers the curves that have a lubricator (hasMachine): those whose per-curve
 * rollout record says the machine is installed or commissioned, and those with any Service
 * visit (a visit proves a machine), until a Service visit records 'Uninstall the machine'.
 * Such a curve is serviced every 15 days and has its CoF measured every 30
 * (Service every 15 days, CoF every 30). For each kind the last visit recorded for the curve (by the visit's
 * date, a business date in APP_TIMEZONE; only records filed under the curve's own division)
 * gives the next due date, and today's business date gives the state:
 *   - never:      no visit of that kind was ever recorded;
 *   - overdue:    the due date has passed (overdue by today - due date days);
 *   - due-soon:   due today or within the next 3 days;
 *   - in-time:    due later than that;
 *   - not-needed: Service only, when the last Service recorded 'Uninstall the machine'; a later
 *                 Service visit puts the curve back on the schedule;
 *   - no-machine: the curve has no lubricator (none in the rollout, no Service visit, or CoF
 *                 after an uninstall): it is on neither kind's schedule, "No machine".
 * The last CoF reading above the alert threshold (COF_ALERT_THRESHOLD, 0.25 by default) marks
 * the curve "CoF high: follow up" until a later reading is within it (a reading equal to the
 * threshold is within it); a curve without a machine is never followed up.
 *
 * The server computes the same rule in SQL for whole registers (server/features/schedule),
 * from these constants, and a test holds the two to the same answers; the phone applies this
 * module to the last visits it keeps, so the due list stays right offline as days pass.
 */
import { COF_INTERVAL_DAYS, type InspectionType, SERVICE_INTERVAL_DAYS } from '../constants.js';
import { addDays, daysBetween } from './dates.js';

export const INTERVAL_DAYS: Readonly<Record<InspectionType, number>> = { Service: SERVICE_INTERVAL_DAYS, CoF: COF_INTERVAL_DAYS };

/** A visit due within this many days (today included) is "due soon". */
export const DUE_SOON_DAYS = 3;

/** The gauge-face target of the lubrication standard; COF_ALERT_THRESHOLD overrides it. */
export const DEFAULT_COF_ALERT_THRESHOLD = 0.25;

/** The Service update value ('Uninstall the machine') that takes a curve off the Service schedule. */
export const MACHINE_UNINSTALLED = 'uninstall';

export const DUE_STATES = ['overdue', 'due-soon', 'never', 'in-time', 'not-needed', 'no-machine'] as const;
export type DueState = (typeof DUE_STATES)[number];

/** What a due list can be narrowed to: one state, everything needing attention, or high CoF readings. */
export const SCHEDULE_STATUS_FILTERS = [...DUE_STATES, 'attention', 'cof-high'] as const;
export type ScheduleStatusFilter = (typeof SCHEDULE_STATUS_FILTERS)[number];

export interface LastService {
  date: string;
  serviceUpdate: string | null;
}

export interface LastCof {
  date: string;
  /** The reading, e.g. 0.27; null when the record carries none. */
  cofValue: number | null;
}

export interface KindSchedule {
  state: DueState;
  lastDate: string | null;
  /** The date the next visit is due; null when never visited or not needed. */
  dueDate: string | null;
  /** Days from the last visit to today. */
  daysSince: number | null;
  /** Days past the due date; 0 unless overdue. */
  daysOverdue: number;
  /** Days left until the due date (0 = due today); null unless due-soon or in-time. */
  daysUntilDue: number | null;
}

export interface CofSchedule extends KindSchedule {
  lastValue: number | null;
  /** The last reading is above the alert threshold: "CoF high: follow up". */
  high: boolean;
}

/**
 * Whether the curve has a lubricator, so is on the Service and CoF schedule. The last Service
 * visit decides when there is one: a visit proves a machine, unless it recorded 'Uninstall the
 * machine' (a later visit puts it back). Without any, the rollout record decides
 * (`rolloutMachine`: installed or commissioned, common/rules/rollout.ts rolloutHasMachine).
 */
export function hasMachine(rolloutMachine: boolean, lastService: LastService | null): boolean {
  if (lastService !== null) return lastService.serviceUpdate !== MACHINE_UNINSTALLED;
  return rolloutMachine;
}

/** Off the schedule ('not-needed' or 'no-machine'): the last visit stays known, nothing is due. */
function offSchedule(schedule: KindSchedule, state: 'not-needed' | 'no-machine'): KindSchedule {
  return { ...schedule, state, dueDate: null, daysOverdue: 0, daysUntilDue: null };
}

function kindSchedule(kind: InspectionType, lastDate: string | null, today: string): KindSchedule {
  if (lastDate === null) return { state: 'never', lastDate: null, dueDate: null, daysSince: null, daysOverdue: 0, daysUntilDue: null };
  const dueDate = addDays(lastDate, INTERVAL_DAYS[kind]);
  const daysUntilDue = daysBetween(today, dueDate);
  const daysSince = daysBetween(lastDate, today);
  if (daysUntilDue < 0) return { state: 'overdue', lastDate, dueDate, daysSince, daysOverdue: -daysUntilDue, daysUntilDue: null };
  return { state: daysUntilDue <= DUE_SOON_DAYS ? 'due-soon' : 'in-time', lastDate, dueDate, daysSince, daysOverdue: 0, daysUntilDue };
}

/** `machine`: hasMachine of the curve. */
export function serviceSchedule(last: LastService | null, today: string, machine: boolean): KindSchedule {
  const schedule = kindSchedule('Service', last?.date ?? null, today);
  if (last?.serviceUpdate === MACHINE_UNINSTALLED) return offSchedule(schedule, 'not-needed');
  return machine ? schedule : offSchedule(schedule, 'no-machine');
}

/** A CoF reading needs follow-up when it is above the alert threshold; one equal to it is within. */
export function isCofHigh(value: number | null, threshold: number): boolean {
  return value !== null && value > threshold;
}

/** `machine`: hasMachine of the curve. Without one a high reading is not followed up. */
export function cofSchedule(last: LastCof | null, today: string, threshold: number, machine: boolean): CofSchedule {
  const lastValue = last?.cofValue ?? null;
  const schedule = kindSchedule('CoF', last?.date ?? null, today);
  if (!machine) return { ...offSchedule(schedule, 'no-machine'), lastValue, high: false };
  return { ...schedule, lastValue, high: isCofHigh(lastValue, threshold) };
}

/** What the schedule of a curve is made from: its rollout record's word and its last visits. */
export interface CurveVisits {
  /** The curve's rollout record says its machine is installed or commissioned. */
  rolloutMachine: boolean;
  lastService: LastService | null;
  lastCof: LastCof | null;
}

/** Both kinds' schedule of a curve, and whether it has a machine at all. */
export function curveSchedule(visits: CurveVisits, today: string, threshold: number): { machine: boolean; service: KindSchedule; cof: CofSchedule } {
  const machine = hasMachine(visits.rolloutMachine, visits.lastService);
  return {
    machine,
    service: serviceSchedule(visits.lastService, today, machine),
    cof: cofSchedule(visits.lastCof, today, threshold, machine),
  };
}

/** Never done, overdue, due soon, or (CoF) a high last reading: the curve belongs on a due list. A curve without a machine never does. */
export function needsAttention(schedule: KindSchedule | CofSchedule): boolean {
  if ('high' in schedule && schedule.high) return true;
  return schedule.state === 'overdue' || schedule.state === 'due-soon' || schedule.state === 'never';
}

/**
 * The due list's order, smallest first: the most overdue, then the soonest due, then the never
 * visited, then those in time (soonest first), then curves whose machine was uninstalled, then
 * curves without a machine.
 * The SQL orders by the same numbers (server/features/schedule/schedule-sql.ts).
 */
export const URGENCY_BASE: Readonly<Record<DueState, number>> = { overdue: 0, 'due-soon': 100_000, never: 200_000, 'in-time': 300_000, 'not-needed': 400_000, 'no-machine': 500_000 };

export function urgency(schedule: KindSchedule): number {
  switch (schedule.state) {
    case 'overdue':
      return URGENCY_BASE.overdue - schedule.daysOverdue;
    case 'due-soon':
    case 'in-time':
      return URGENCY_BASE[schedule.state] + (schedule.daysUntilDue ?? 0);
    default:
      return URGENCY_BASE[schedule.state];
  }
}

export const COF_HIGH_LABEL = 'CoF high: follow up';
/** A curve off the schedule because it has no lubricator (docs/functional-requirements.md, 'The maintenance schedule'). */
export const NO_MACHINE_LABEL = 'No machine';

/** A short status for a list or a select option: 'Service overdue 6 d', 'CoF due in 2 d'. */
export function scheduleLabel(kind: InspectionType, schedule: KindSchedule): string {
  switch (schedule.state) {
    case 'overdue':
      return `${kind} overdue ${schedule.daysOverdue} d`;
    case 'due-soon':
      return schedule.daysUntilDue === 0 ? `${kind} due today` : `${kind} due in ${schedule.daysUntilDue} d`;
    case 'never':
      return `${kind} never done`;
    case 'not-needed':
      return 'Machine uninstalled';
    case 'no-machine':
      return NO_MACHINE_LABEL;
    case 'in-time':
      return `${kind} in time, ${schedule.daysUntilDue ?? 0} d left`;
  }
}
