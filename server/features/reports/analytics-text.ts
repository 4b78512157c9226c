/**
 * How the analytics PDF and its charts' Excel files state what they cover and print the
 * figures, in the same words: the scope's facts, a period's label, shares and readings.
 */
import type { AnalyticsDashboard, AnalyticsScope } from '../../../common/schemas/analytics.js';
import { type Bilingual, both, REPORT_PHRASES, REPORT_WORDS as W, word } from './report-words.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Nov 2026" for a month; "W 16 Nov 2026" (its first day) for a week. */
export function periodLabel(period: { start: string }, grain: AnalyticsScope['by']): string {
  const [year, month, day] = period.start.split('-');
  const monthName = MONTHS[Number(month) - 1] ?? month;
  return grain === 'month' ? `${monthName} ${year}` : `W ${Number(day)} ${monthName} ${year}`;
}

/** "83.1%", or "–" when there is nothing to take a share of. */
export const shareText = (share: number | null) => (share === null ? '–' : `${(share * 100).toFixed(1)}%`);

/** A CoF reading: "0.19"; "–" when none. */
export const cofReadingText = (value: number | null) => (value === null ? '–' : value.toFixed(2));

/** A grease depth in cm: "1.4"; "–" when none. */
export const depthText = (value: number | null) => (value === null ? '–' : value.toFixed(1));

/** The scope's division: its code as stored, or "सभी मंडल / All divisions". */
export const divisionText = (scope: AnalyticsScope): Bilingual | string => scope.division ?? W.allDivisions;

const shown = (value: Bilingual | string) => (typeof value === 'string' ? value : both(value));

/** The filters as resolved, as label and value, for a first page or an About sheet. */
export function scopeFacts(dashboard: AnalyticsDashboard): [string, string][] {
  const { scope } = dashboard;
  return [
    [word('division'), shown(divisionText(scope))],
    [word('section'), scope.section ?? word('allSections')],
    [word('sse'), scope.sse ?? word('allSses')],
    [word('range'), both(REPORT_PHRASES.dateRange(scope.from, scope.to))],
    [word('by'), word(scope.by === 'month' ? 'month' : 'week')],
    [word('asOf'), dashboard.asOf],
  ];
}

/** A curve as people name it: "RTM-NAD, curve 30, UP". */
export const curveText = (curve: { section: string; curveNumber: string; line: string }) => `${curve.section}, curve ${curve.curveNumber}, ${curve.line}`;
