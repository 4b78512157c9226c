/**
 * Analytics' contracts: the headline figures (GET /api/analytics/summary), the dashboard's
 * series and tables (GET /api/analytics/dashboard), a chart's data as Excel
 * (GET /api/analytics/export) and the dashboard as a PDF report job (POST /api/reports/analytics).
 * Each figure's definition is common/rules/analytics.ts. A Client is answered for their own
 * division whatever they ask for.
 */
import { z } from 'zod';
import { ANALYTICS_GRAINS, ANALYTICS_MAX_DAYS } from '../rules/analytics.js';
import { daysBetween, isoDateToUtcMs } from '../rules/dates.js';
import { filterDate } from './inspection.js';
import { optionalName } from './schedule.js';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * The filters every analytics request takes. Without `to` the range ends today (APP_TIMEZONE);
 * without `from` it starts 27 days before `to` (the last 4 weeks).
 */
const analyticsFilters = z.object({
  division: optionalName('division', 50),
  section: optionalName('section', 100),
  sse: optionalName('sse', 150),
  from: filterDate('from'),
  to: filterDate('to'),
  by: z.enum(ANALYTICS_GRAINS, { error: `by must be one of ${ANALYTICS_GRAINS.join(', ')}` }).default('month'),
});

type RangeChecked = { from?: string | undefined; to?: string | undefined };

/** Both ends given and real dates: the object's checks run even when a field's own check failed. */
function isCalendarDate(value: string): boolean {
  try {
    isoDateToUtcMs(value);
    return true;
  } catch {
    return false;
  }
}
const bothDates = (q: RangeChecked): q is { from: string; to: string } => !!q.from && !!q.to && isCalendarDate(q.from) && isCalendarDate(q.to);

/** from before to, and no more than two years between. */
function rangeChecked<T extends z.ZodType<RangeChecked>>(schema: T) {
  return schema
    .refine((q) => !bothDates(q) || q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
    .refine((q) => !bothDates(q) || daysBetween(q.from, q.to) < ANALYTICS_MAX_DAYS, {
      message: `The range may span at most ${ANALYTICS_MAX_DAYS} days`,
      path: ['from'],
    });
}

/**
 * The filters every analytics request takes. Without `to` the range ends today (APP_TIMEZONE);
 * without `from` it starts 27 days before `to` (the last 4 weeks).
 */
export const analyticsQuerySchema = rangeChecked(analyticsFilters);
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

/** The charts whose data can be taken away as Excel. */
export const ANALYTICS_CHARTS = ['compliance', 'friction', 'faults', 'parts', 'grease', 'field-work'] as const;
export type AnalyticsChart = (typeof ANALYTICS_CHARTS)[number];

export const analyticsExportQuerySchema = rangeChecked(
  analyticsFilters.extend({ chart: z.enum(ANALYTICS_CHARTS, { error: `chart must be one of ${ANALYTICS_CHARTS.join(', ')}` }) }),
);
export type AnalyticsExportQuery = z.infer<typeof analyticsExportQuerySchema>;

/** What an answer covers: the filters as resolved for the requester (a Client's division). */
export const analyticsScopeSchema = z.object({
  division: z.string().nullable(),
  section: z.string().nullable(),
  sse: z.string().nullable(),
  from: isoDate,
  to: isoDate,
  by: z.enum(ANALYTICS_GRAINS),
});
export type AnalyticsScope = z.infer<typeof analyticsScopeSchema>;

const share = z.number().min(0).max(1).nullable();
const reading = z.number().nullable();

export const cofFiguresSchema = z.object({
  count: z.number().int(),
  median: reading,
  p90: reading,
  aboveThresholdShare: share,
});
export type CofFigures = z.infer<typeof cofFiguresSchema>;

export const faultCountsSchema = z.object({
  partBroken: z.number().int(),
  partStolen: z.number().int(),
  machineNotWorking: z.number().int(),
});
export type FaultCounts = z.infer<typeof faultCountsSchema>;

export const actionFiguresSchema = z.object({
  /** Open at the end of `to`. */
  open: z.number().int(),
  overdue: z.number().int(),
  /** Median of closed on - opened on over the actions closed in the range; null when none closed. */
  medianDaysToClose: z.number().nullable(),
  openedInRange: z.number().int(),
  closedInRange: z.number().int(),
});
export type ActionFigures = z.infer<typeof actionFiguresSchema>;

/** GET /api/analytics/summary: the range's headline figures. */
export const analyticsSummarySchema = z.object({
  asOf: isoDate,
  scope: analyticsScopeSchema,
  cofAlertThreshold: z.number(),
  /** Of the curves on the schedule at `to`, the share within their Service interval; null when none is on it. */
  serviceCompliance: share,
  cofCompliance: share,
  cof: cofFiguresSchema,
  visits: z.object({ service: z.number().int(), cof: z.number().int() }),
  faults: faultCountsSchema,
  actions: actionFiguresSchema,
});
export type AnalyticsSummary = z.infer<typeof analyticsSummarySchema>;

export const periodSchema = z.object({ start: isoDate, end: isoDate });

/** One kind's schedule at a day: the curves on it, those within their interval, overdue, never visited. */
export const complianceFiguresSchema = z.object({
  onSchedule: z.number().int(),
  within: z.number().int(),
  overdue: z.number().int(),
  never: z.number().int(),
  share,
});
export type ComplianceFigures = z.infer<typeof complianceFiguresSchema>;

const complianceBothSchema = z.object({ service: complianceFiguresSchema, cof: complianceFiguresSchema });

const curveKeySchema = z.object({
  divisionRailway: z.string(),
  section: z.string(),
  curveNumber: z.string(),
  line: z.string(),
});

export const analyticsDashboardSchema = z.object({
  asOf: isoDate,
  scope: analyticsScopeSchema,
  cofAlertThreshold: z.number(),
  summary: analyticsSummarySchema.omit({ asOf: true, scope: true, cofAlertThreshold: true }),
  periods: z.array(periodSchema),
  compliance: z.object({
    /** One entry per period, taken at its last day. */
    series: z.array(periodSchema.extend(complianceBothSchema.shape)),
    /** At `to`, worst Service share first. */
    bySection: z.array(z.object({ divisionRailway: z.string(), section: z.string() }).extend(complianceBothSchema.shape)),
    /** At `to`, worst Service share first; curves with no SSE in the register under null. */
    bySse: z.array(z.object({ sse: z.string().nullable() }).extend(complianceBothSchema.shape)),
  }),
  friction: z.object({
    series: z.array(periodSchema.extend(cofFiguresSchema.shape)),
    /** Over the whole range, highest median first. */
    bySection: z.array(z.object({ divisionRailway: z.string(), section: z.string() }).extend(cofFiguresSchema.shape)),
    /** Curves whose last three readings on or before `to` each rise, the highest last reading first (at most 50). */
    rising: z.array(curveKeySchema.extend({ readings: z.array(z.object({ date: isoDate, value: z.number() })) })),
  }),
  machines: z.object({
    series: z.array(
      periodSchema.extend(faultCountsSchema.shape).extend({
        serviceVisits: z.number().int(),
        /** Of the Service visits that say whether the machine works, the share that say it does. */
        workingRate: share,
      }),
    ),
    /** Parts reported broken or stolen in the range, by category then item: a Pareto, most first. */
    parts: z.array(
      z.object({
        category: z.string(),
        item: z.string(),
        broken: z.number().int(),
        stolen: z.number().int(),
        count: z.number().int(),
        /** Share of all part faults in the range up to and including this row. */
        cumulativeShare: z.number(),
      }),
    ),
    categories: z.array(z.object({ category: z.string(), count: z.number().int(), cumulativeShare: z.number() })),
    actions: actionFiguresSchema,
  }),
  grease: z.object({
    series: z.array(periodSchema.extend({ count: z.number().int(), median: reading })),
    bySection: z.array(z.object({ divisionRailway: z.string(), section: z.string(), count: z.number().int(), median: reading })),
    /** Curves whose last two Service visits on or before `to` both read a depth of 0 (at most 50). */
    dry: z.array(curveKeySchema.extend({ lastVisits: z.array(isoDate) })),
  }),
  fieldWork: z.object({
    /** Most visits first. */
    technicians: z.array(
      z.object({
        technicianId: z.string(),
        name: z.string(),
        service: z.number().int(),
        cof: z.number().int(),
        /** One entry per period. */
        series: z.array(z.object({ service: z.number().int(), cof: z.number().int() })),
      }),
    ),
  }),
});
export type AnalyticsDashboard = z.infer<typeof analyticsDashboardSchema>;

/** POST /api/reports/analytics: the dashboard as a PDF report job. */
export const analyticsReportRequestSchema = analyticsQuerySchema;
export type AnalyticsReportRequest = z.infer<typeof analyticsReportRequestSchema>;
