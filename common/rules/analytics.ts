/**
 * Analytics: one definition per figure of the Reports & Analytics dashboard and of
 * GET /api/analytics/summary. The server computes every figure in SQL over the records, the
 * register and the actions (server/features/analytics); tests hold that SQL to these
 * definitions on the same rows. All dates are business dates (YYYY-MM-DD in APP_TIMEZONE), as
 * a visit's date and an action's dates are stored.
 *
 * - Periods: the range [from, to] cut into calendar months or Monday-to-Sunday weeks, the first
 *   and last clipped to the range (periodsOf).
 * - Schedule compliance at a day D, per kind: of the curves on the schedule at D (the schedule's
 *   hasMachine over the visits dated on or before D; the rollout record as it stands now), the
 *   share whose last visit of that kind on or before D is within its interval (D - last <= 15
 *   days for Service, 30 for CoF: a visit 15 days before is within, 16 is not). A curve on the
 *   schedule that is not within is overdue, or never visited. A period's figure is taken at its
 *   last day.
 * - CoF readings: the CoF records with a reading dated in the period; median and 90th percentile
 *   interpolated (percentileOf, as PostgreSQL's percentile_cont), and the share above the alert
 *   threshold (a reading equal to it is within, as the schedule says).
 * - Faults: each Service visit dated in the period counts once for each fault it reports
 *   (common/rules/follow-up-actions.ts faultsReportedBy): part broken, part stolen, machine not
 *   working. The machine working rate is the share of the period's Service visits that say the
 *   machine works, of those that say either way.
 * - Follow-up actions at `to`: open = opened on or before `to` and not closed by then; overdue =
 *   open at `to` and due before it; days to close = closed on - opened on, median over the
 *   actions closed in the range.
 * - Grease: the grease depth of Service visits dated in the period (median); a curve "stays dry"
 *   when its last two Service visits on or before `to` both read 0.
 * - Friction rising: a curve whose last three CoF readings on or before `to` each rise on the one
 *   before (strictly).
 * - Scope: a record, curve or action is in a division by its own division; in a section by its
 *   own section; in an SSE's charge by the register curve it belongs to (same division, section,
 *   curve number and line), an action by the SSE it was filed under.
 */
import { addDays, daysBetween, isoDateToUtcMs } from './dates.js';
import { INTERVAL_DAYS } from './schedule.js';
import type { InspectionType } from '../constants.js';

export const ANALYTICS_GRAINS = ['week', 'month'] as const;
export type AnalyticsGrain = (typeof ANALYTICS_GRAINS)[number];

/** The longest range the dashboard answers: two years, by week at most 106 periods. */
export const ANALYTICS_MAX_DAYS = 731;

export interface Period {
  /** First and last day, both inclusive. */
  start: string;
  end: string;
}

const weekdayOf = (isoDate: string) => new Date(isoDateToUtcMs(isoDate)).getUTCDay();

/** The first day of the period holding `day`: its Monday, or the 1st of its month. */
function periodStartOf(day: string, grain: AnalyticsGrain): string {
  if (grain === 'month') return `${day.slice(0, 8)}01`;
  return addDays(day, -((weekdayOf(day) + 6) % 7));
}

function nextPeriodStart(start: string, grain: AnalyticsGrain): string {
  if (grain === 'week') return addDays(start, 7);
  const [y, m] = start.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/** The range's periods in order, the first and last clipped to [from, to]. */
export function periodsOf(from: string, to: string, grain: AnalyticsGrain): Period[] {
  if (from > to) return [];
  const periods: Period[] = [];
  for (let start = periodStartOf(from, grain); start <= to; start = nextPeriodStart(start, grain)) {
    const end = addDays(nextPeriodStart(start, grain), -1);
    periods.push({ start: start < from ? from : start, end: end > to ? to : end });
  }
  return periods;
}

/** Whether a curve's last visit of a kind on or before `day` keeps it within its interval at `day`. */
export function isWithinInterval(kind: InspectionType, lastVisit: string | null, day: string): boolean {
  return lastVisit !== null && lastVisit <= day && daysBetween(lastVisit, day) <= INTERVAL_DAYS[kind];
}

/** part / whole, or null when there is no whole. */
export function shareOf(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

/** The p-th percentile (0-1), interpolated between the two nearest values: PostgreSQL's percentile_cont. */
export function percentileOf(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = p * (sorted.length - 1);
  const below = Math.floor(at);
  const lower = sorted[below] as number;
  const upper = sorted[Math.min(below + 1, sorted.length - 1)] as number;
  return lower + (upper - lower) * (at - below);
}

/** Whether readings (oldest first) each rise on the one before: the last three of a curve. */
export function isRising(readings: readonly number[]): boolean {
  return readings.length >= 3 && readings.every((value, i) => i === 0 || value > (readings[i - 1] as number));
}
