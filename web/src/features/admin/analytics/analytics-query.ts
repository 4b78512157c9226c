import { ANALYTICS_GRAINS, type AnalyticsGrain } from '../../../../../common/rules/analytics.js';
import { addDays, dateInTimeZone } from '../../../../../common/rules/dates.js';
import type { AnalyticsChart } from '../../../../../common/schemas/analytics.js';
import type { AnalyticsReportBody as AnalyticsRequest } from '../reports/index.js';

export const PERIOD_PRESETS = ['4w', '3m', '12m', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** The Analytics view's filters as the URL holds them, next to `view`: '' means "any". */
export interface AnalyticsFilters {
  division: string;
  section: string;
  sse: string;
  period: PeriodPreset;
  /** Custom range only: the presets count back from today. */
  from: string;
  to: string;
  by: AnalyticsGrain;
}

/** Four weeks read best week by week; three months and more month by month. */
export const defaultGrainOf = (period: PeriodPreset): AnalyticsGrain => (period === '4w' ? 'week' : 'month');

export const NO_ANALYTICS_FILTERS: AnalyticsFilters = { division: '', section: '', sse: '', period: '4w', from: '', to: '', by: 'week' };

const TEXT_KEYS = ['division', 'section', 'sse'] as const;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Filters from the page's URL; anything a hand-edited URL got wrong is dropped, not sent. */
export function analyticsFiltersFromParams(params: URLSearchParams): AnalyticsFilters {
  const text = (key: string) => (params.get(key) ?? '').trim();
  const date = (key: string) => (ISO_DATE.test(text(key)) ? text(key) : '');
  const period = PERIOD_PRESETS.find((p) => p === text('period')) ?? NO_ANALYTICS_FILTERS.period;
  return {
    division: text('division'),
    section: text('section'),
    sse: text('sse'),
    period,
    from: period === 'custom' ? date('from') : '',
    to: period === 'custom' ? date('to') : '',
    by: ANALYTICS_GRAINS.find((g) => g === text('by')) ?? defaultGrainOf(period),
  };
}

/** The search params with these filters, keeping `view`; defaults are left out so a plain view has a plain URL. */
export function withAnalyticsFilters(params: URLSearchParams, filters: AnalyticsFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  const put = (key: string, value: string, fallback = '') => (value === fallback ? next.delete(key) : next.set(key, value));
  for (const key of TEXT_KEYS) put(key, filters[key]);
  put('period', filters.period, NO_ANALYTICS_FILTERS.period);
  put('from', filters.period === 'custom' ? filters.from : '');
  put('to', filters.period === 'custom' ? filters.to : '');
  put('by', filters.by, defaultGrainOf(filters.period));
  return next;
}

/** Today as the viewer's calendar says: the railway's business day where the app is used. */
export const todayHere = (): string => dateInTimeZone(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone);

/** The same day `months` months before, clipped to that month's last day (31 May - 3 months is 28 Feb). */
function monthsBefore(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) - months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
}

/** The range a preset stands for on `today`, both days inclusive; a custom range leaves an empty end to the server. */
export function rangeOf(filters: AnalyticsFilters, today: string): { from: string; to: string } {
  switch (filters.period) {
    case '4w':
      return { from: addDays(today, -27), to: today };
    case '3m':
      return { from: addDays(monthsBefore(today, 3), 1), to: today };
    case '12m':
      return { from: addDays(monthsBefore(today, 12), 1), to: today };
    case 'custom':
      return { from: filters.from, to: filters.to };
  }
}

/** What every analytics request is sent: the filters with the range worked out, empty ones left out. */
export function analyticsRequest(filters: AnalyticsFilters, today: string): AnalyticsRequest {
  const { from, to } = rangeOf(filters, today);
  const request: AnalyticsRequest = { by: filters.by };
  if (filters.division !== '') request.division = filters.division;
  if (filters.section !== '') request.section = filters.section;
  if (filters.sse !== '') request.sse = filters.sse;
  if (from !== '') request.from = from;
  if (to !== '') request.to = to;
  return request;
}

function queryOf(request: AnalyticsRequest): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of ['division', 'section', 'sse', 'from', 'to', 'by'] as const) {
    const value = request[key];
    if (value !== undefined) query.set(key, value);
  }
  return query;
}

export const dashboardUrl = (request: AnalyticsRequest) => `/api/analytics/dashboard?${queryOf(request).toString()}`;

/** One chart's data as an Excel download, with the filters on screen. */
export function exportUrl(chart: AnalyticsChart, request: AnalyticsRequest): string {
  const query = queryOf(request);
  return `/api/analytics/export?${new URLSearchParams([['chart', chart], ...query]).toString()}`;
}

/** The records behind a figure: the records view opened with these filters (its FILTER_KEYS). */
export interface RecordsDrill {
  type?: 'Service' | 'CoF';
  from: string;
  to: string;
  division?: string | null;
  section?: string | null;
  technicianId?: string;
}

export function recordsViewSearch(drill: RecordsDrill): string {
  const query = new URLSearchParams({ view: 'records-management' });
  if (drill.type) query.set('type', drill.type);
  query.set('from', drill.from);
  query.set('to', drill.to);
  if (drill.division) query.set('division', drill.division);
  if (drill.section) query.set('section', drill.section);
  if (drill.technicianId) query.set('technicianId', drill.technicianId);
  return `/admin?${query.toString()}`;
}
