import type { AnalyticsGrain } from '../../../../../common/rules/analytics.js';
import type { PeriodPreset } from './analytics-query.js';

const DASH = '–';

export const numberText = (n: number | null) => (n === null ? DASH : n.toLocaleString('en-IN'));
/** A share (0-1) as a whole percentage. */
export const percentText = (share: number | null) => (share === null ? DASH : `${Math.round(share * 100)}%`);
/** A CoF reading, as the meter shows it. */
export const cofText = (value: number | null) => (value === null ? DASH : value.toFixed(2));
export const depthText = (value: number | null) => (value === null ? DASH : `${value.toFixed(1)} cm`);
export const daysText = (value: number | null) => (value === null ? DASH : `${value.toLocaleString('en-IN', { maximumFractionDigits: 1 })} d`);

const utc = (day: string) => new Date(`${day}T00:00:00Z`);

/** A period as its axis names it: "Nov 2026" by month, its first day "16 Nov" by week. */
export function periodLabel(start: string, grain: AnalyticsGrain): string {
  return grain === 'month'
    ? utc(start).toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' })
    : utc(start).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

export const rangeText = (from: string, to: string) =>
  `${utc(from).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })} to ${utc(to).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })}`;

/**
 * What a series did over the range, in a sentence a screen reader reads instead of the drawing:
 * from its first figure to its last.
 */
export function trendText(name: string, values: readonly (number | null)[], format: (n: number) => string): string {
  const known = values.filter((v): v is number => v !== null);
  const first = known[0];
  const last = known.at(-1);
  if (first === undefined || last === undefined) return `${name}: no figures in the range.`;
  if (known.length === 1) return `${name} was ${format(first)}.`;
  if (format(first) === format(last)) return `${name} stayed at ${format(last)} over the range.`;
  return `${name} ${last > first ? 'rose' : 'fell'} from ${format(first)} to ${format(last)} over the range.`;
}

/** Every text of the Analytics view, in one place for the Hindi translation that follows. */
export const ANALYTICS_TEXTS = {
  filters: 'Filters',
  noDivision: 'No division assigned',
  sse: 'SSE',
  period: 'Period',
  periods: { '4w': 'Last 4 weeks', '3m': 'Last 3 months', '12m': 'Last 12 months', custom: 'Custom' } satisfies Record<PeriodPreset, string>,
  from: 'From',
  to: 'To',
  grain: 'Show',
  grains: { week: 'By week', month: 'By month' } satisfies Record<AnalyticsGrain, string>,
  clearFilters: 'Clear Filters',

  loading: 'Loading the figures…',
  loadFailed: 'Failed to load the figures',
  tryAgain: 'Try Again',
  empty: 'No records in this range for these filters: choose a longer period or other filters.',
  covering: (range: string, scope: string) => `${range} · ${scope}`,
  everywhere: 'all divisions',

  showTable: 'Show as table',
  showChart: 'Show as chart',
  showAll: (count: number) => `Show all ${count} rows`,
  showFirst: (count: number) => `Show the first ${count}`,
  downloadExcel: 'Download Excel',
  downloadExcelOf: (title: string) => `Download Excel: ${title}`,
  downloadPdf: 'Download PDF',
  pdfDoneTitle: 'PDF report ready',
  pdfDone: () => 'The Analytics report is downloading.',
  pdfFailed: 'Failed to make the PDF report',

  headline: 'At a glance',
  serviceCompliance: 'Service compliance',
  cofCompliance: 'CoF compliance',
  cofMedian: 'CoF median',
  cofP90: 'CoF 90th percentile',
  cofAbove: (threshold: number) => `Readings above ${threshold.toFixed(2)}`,
  visitsService: 'Service visits',
  visitsCof: 'CoF visits',
  partBroken: 'Part broken',
  partStolen: 'Part stolen',
  machineNotWorking: 'Machine not working',
  openActions: 'Open actions',
  overdueActions: 'Overdue actions',
  medianDaysToClose: 'Median days to close',

  complianceTitle: 'Schedule compliance',
  complianceCaption: 'Of the curves with a machine, the share serviced within 15 days and CoF-measured within 30 days, at each period’s end.',
  complianceChart: 'Share within interval per period',
  bySection: 'By section at the range’s end, worst first',
  bySse: 'By SSE at the range’s end, worst first',
  noSse: 'No SSE in the register',
  overdue: 'overdue',
  serviceShare: 'Service within 15 d',
  cofShare: 'CoF within 30 d',
  serviceOverdue: 'Service overdue',
  cofOverdue: 'CoF overdue',

  frictionTitle: 'Friction',
  frictionCaption: (threshold: number) => `CoF readings per period; the alert threshold is ${threshold.toFixed(2)}.`,
  frictionChart: 'CoF median and 90th percentile per period',
  median: 'Median',
  p90: '90th percentile',
  threshold: 'Alert threshold',
  readings: 'Readings',
  aboveShare: 'Above threshold',
  frictionBySection: 'By section over the range, highest median first',
  rising: 'Curves whose last three readings rise',
  noneRising: 'No curve’s last three readings rise.',

  machinesTitle: 'Machines and parts',
  faultsChart: 'Faults reported per period',
  partsChart: 'Parts broken or stolen, most first',
  part: 'Part',
  broken: 'Broken',
  stolen: 'Stolen',
  cumulative: 'Cumulative share',
  noParts: 'No part was reported broken or stolen in the range.',
  workingChart: 'Machines working rate per period',
  workingRate: 'Working rate',
  serviceVisits: 'Service visits',
  actionsTitle: 'Follow-up actions',
  openedInRange: 'Opened in the range',
  closedInRange: 'Closed in the range',
  openActionsView: 'Open Follow-up Actions',

  greaseTitle: 'Grease',
  greaseChart: 'Median grease depth per period',
  greaseMedian: 'Median depth',
  greaseBySection: 'By section over the range',
  dry: 'Curves that stay dry (depth 0 at the last two visits)',
  noneDry: 'No curve read a depth of 0 at its last two visits.',
  lastVisits: 'Last visits',

  fieldWorkTitle: 'Field work',
  fieldWorkChart: 'Visits per technician',
  technician: 'Technician',
  service: 'Service',
  cof: 'CoF',
  total: 'Total',
  noVisits: 'No visits in the range.',

  periodColumn: 'Period',
  sectionColumn: 'Section',
  curveColumn: 'Curve',
  recordsOf: (what: string, when: string) => `Open the ${what} records of ${when}`,
  chartOf: (title: string) => `Chart: ${title}`,
} as const;
