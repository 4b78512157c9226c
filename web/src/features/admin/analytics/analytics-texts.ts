import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import type { InspectionType } from '../../../../../common/constants.js';
import type { AnalyticsGrain } from '../../../../../common/rules/analytics.js';
import { activeLanguage, intlLocale } from '../../../lib/i18n.js';
import type { PeriodPreset } from './analytics-query.js';
import { lineLabel } from '../../../lib/value-labels.js';

const DASH = '–';

/**
 * Figures keep the Indian grouping (1,00,000) in English as they always had; Hindi's own
 * locale groups the same way, with Latin digits.
 */
const numberLocale = () => (activeLanguage() === 'en' ? 'en-IN' : intlLocale());

export const numberText = (n: number | null) => (n === null ? DASH : n.toLocaleString(numberLocale()));
/** A share (0-1) as a whole percentage: rounded first, so "84%" reads the same in every language. */
export const percentText = (share: number | null) =>
  share === null ? DASH : new Intl.NumberFormat(intlLocale(), { style: 'percent', maximumFractionDigits: 0 }).format(Math.round(share * 100) / 100);
/** A CoF reading, as the meter shows it. */
export const cofText = (value: number | null) => (value === null ? DASH : value.toFixed(2));
export function depthText(value: number | null): string {
  if (value === null) return DASH;
  const depth = value.toFixed(1);
  return t`${depth} cm`;
}
export function daysText(value: number | null): string {
  if (value === null) return DASH;
  const days = value.toLocaleString(numberLocale(), { maximumFractionDigits: 1 });
  return t`${days} d`;
}

const utc = (day: string) => new Date(`${day}T00:00:00Z`);

/** A period as its axis names it: "Nov 2026" by month, its first day "16 Nov" by week. */
export function periodLabel(start: string, grain: AnalyticsGrain): string {
  return grain === 'month'
    ? utc(start).toLocaleDateString(intlLocale(), { month: 'short', year: 'numeric', timeZone: 'UTC' })
    : utc(start).toLocaleDateString(intlLocale(), { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

export function rangeText(from: string, to: string): string {
  const day = (date: string) => utc(date).toLocaleDateString(intlLocale(), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const first = day(from);
  const last = day(to);
  return t`${first} to ${last}`;
}

/**
 * What a series did over the range, in a sentence a screen reader reads instead of the drawing:
 * from its first figure to its last. Each outcome is a sentence of its own, so a translation
 * orders its words freely.
 */
export function trendText(name: string, values: readonly (number | null)[], format: (n: number) => string): string {
  const known = values.filter((v): v is number => v !== null);
  const firstValue = known[0];
  const lastValue = known.at(-1);
  if (firstValue === undefined || lastValue === undefined) return t`${name}: no figures in the range.`;
  const first = format(firstValue);
  const last = format(lastValue);
  if (known.length === 1) return t`${name} was ${first}.`;
  if (first === last) return t`${name} stayed at ${last} over the range.`;
  return lastValue > firstValue ? t`${name} rose from ${first} to ${last} over the range.` : t`${name} fell from ${first} to ${last} over the range.`;
}

/** The lines are stored in English (Up, Down, Single) and shown in the reader's language. */

/** A curve as the lists name it: "NAD-UJN · Curve 12 · Up". */
export function curveName(c: { section: string; curveNumber: string; line: string }): string {
  const { section, curveNumber } = c;
  const line = lineLabel(c.line);
  return t`${section} · Curve ${curveNumber} · ${line}`;
}

/**
 * Every text of the Analytics view, in the language shown now: read while rendering, never
 * kept, so a change of language shows at the next render.
 */
export function analyticsTexts() {
  return {
    filters: t`Filters`,
    noDivision: t`No division assigned`,
    sse: t`SSE`,
    period: t`Period`,
    periods: { '4w': t`Last 4 weeks`, '3m': t`Last 3 months`, '12m': t`Last 12 months`, custom: t`Custom` } satisfies Record<PeriodPreset, string>,
    from: t`From`,
    to: t`To`,
    grain: t`Show`,
    grains: { week: t`By week`, month: t`By month` } satisfies Record<AnalyticsGrain, string>,
    clearFilters: t`Clear Filters`,

    loading: t`Loading the figures…`,
    loadFailed: t`Failed to load the figures`,
    tryAgain: t`Try Again`,
    empty: t`No records in this range for these filters: choose a longer period or other filters.`,
    everywhere: t`all divisions`,

    showTable: t`Show as table`,
    showChart: t`Show as chart`,
    showAll: (count: number) => t`Show all ${count} rows`,
    showFirst: (count: number) => t`Show the first ${count}`,
    downloadExcel: t`Download Excel`,
    downloadExcelOf: (title: string) => t`Download Excel: ${title}`,
    downloadPdf: t`Download PDF`,
    pdfDoneTitle: t`PDF report ready`,
    pdfDone: () => t`The Analytics report is downloading.`,
    pdfFailed: t`Failed to make the PDF report`,

    headline: t`At a glance`,
    serviceCompliance: t`Service compliance`,
    cofCompliance: t`CoF compliance`,
    cofMedian: t`CoF median`,
    cofP90: t`CoF 90th percentile`,
    cofAbove: (value: number) => {
      const threshold = value.toFixed(2);
      return t`Readings above ${threshold}`;
    },
    visitsService: t`Service visits`,
    visitsCof: t`CoF visits`,
    partBroken: t`Part broken`,
    partStolen: t`Part stolen`,
    machineNotWorking: t`Machine not working`,
    openActions: t`Open actions`,
    overdueActions: t`Overdue actions`,
    medianDaysToClose: t`Median days to close`,

    complianceTitle: t`Schedule compliance`,
    complianceCaption: t`Of the curves with a machine, the share serviced within 15 days and CoF-measured within 30 days, at each period’s end.`,
    complianceChart: t`Share within interval per period`,
    bySection: t`By section at the range’s end, worst first`,
    bySse: t`By SSE at the range’s end, worst first`,
    noSse: t`No SSE in the register`,
    serviceShare: t`Service within 15 d`,
    cofShare: t`CoF within 30 d`,
    serviceOverdue: t`Service overdue`,
    cofOverdue: t`CoF overdue`,

    frictionTitle: t`Friction`,
    frictionCaption: (value: number) => {
      const threshold = value.toFixed(2);
      return t`CoF readings per period; the alert threshold is ${threshold}.`;
    },
    frictionChart: t`CoF median and 90th percentile per period`,
    medianCof: t`The median CoF`,
    aboveInLastPeriod: (share: string) => t`Above threshold in the last period: ${share}.`,
    median: t`Median`,
    p90: t`90th percentile`,
    thresholdOf: (threshold: string) => t`Alert threshold ${threshold}`,
    readings: t`Readings`,
    aboveShare: t`Above threshold`,
    frictionBySection: t`By section over the range, highest median first`,
    rising: t`Curves whose last three readings rise`,
    noneRising: t`No curve’s last three readings rise.`,

    machinesTitle: t`Machines and parts`,
    faultsChart: t`Faults reported per period`,
    partsChart: t`Parts broken or stolen, most first`,
    partsLeader: (part: string, count: number, broken: number, stolen: number, share: string) =>
      t`${part} leads with ${count} (${broken} broken, ${stolen} stolen), ${share} of all part faults.`,
    part: t`Part`,
    broken: t`Broken`,
    stolen: t`Stolen`,
    cumulative: t`Cumulative share`,
    noParts: t`No part was reported broken or stolen in the range.`,
    workingChart: t`Machines working rate per period`,
    workingTrend: t`The machines working rate`,
    workingRate: t`Working rate`,
    serviceVisits: t`Service visits`,
    actionsTitle: t`Follow-up actions`,
    openedInRange: t`Opened in the range`,
    closedInRange: t`Closed in the range`,
    openActionsView: t`Open Follow-up Actions`,

    greaseTitle: t`Grease`,
    greaseChart: t`Median grease depth per period`,
    greaseTrend: t`The median grease depth`,
    greaseMedian: t`Median depth`,
    greaseMedianCm: t`Median depth (cm)`,
    greaseBySection: t`By section over the range`,
    dry: t`Curves that stay dry (depth 0 at the last two visits)`,
    noneDry: t`No curve read a depth of 0 at its last two visits.`,
    lastVisits: (dates: string) => t`Last visits: ${dates}`,

    fieldWorkTitle: t`Field work`,
    fieldWorkChart: t`Visits per technician`,
    fieldWorkLeader: (technicians: number, name: string, service: number, cof: number) =>
      t`${technicians} technicians; ${name} made the most visits: ${service} Service and ${cof} CoF.`,
    technician: t`Technician`,
    service: t`Service`,
    cof: t`CoF`,
    total: t`Total`,
    noVisits: t`No visits in the range.`,

    periodColumn: t`Period`,
    sectionColumn: t`Section`,
    /** The kind is stored in English (Service, CoF); each has its own sentence. */
    recordsOf: (kind: InspectionType, period: string) => (kind === 'Service' ? t`Open the Service records of ${period}` : t`Open the CoF records of ${period}`),
    recordsOfTechnician: (name: string) => t`Open the records of ${name}`,
  };
}

export type AnalyticsTexts = ReturnType<typeof analyticsTexts>;

/** The view's texts for a component, which renders again when the language changes. */
export function useAnalyticsTexts(): AnalyticsTexts {
  // Subscribes to the language: the texts themselves are read from the shared i18n instance.
  useLingui();
  return analyticsTexts();
}
