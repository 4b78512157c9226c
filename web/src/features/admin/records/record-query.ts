import { INSPECTION_TYPES, type InspectionType } from '../../../../../common/constants.js';
import { inspectionListQuerySchema } from '../../../../../common/schemas/inspection.js';

/** Records per page. The server allows 500; a phone showing 50 photos is already a long scroll. */
export const RECORDS_PAGE_SIZE = 50;

/** The filters of the records view, as the form and the URL hold them: '' means "any". */
export interface RecordFilters {
  from: string;
  to: string;
  type: '' | InspectionType;
  division: string;
  section: string;
  curveNumber: string;
  technicianId: string;
  q: string;
}

export const FILTER_KEYS = ['from', 'to', 'type', 'division', 'section', 'curveNumber', 'technicianId', 'q'] as const satisfies readonly (keyof RecordFilters)[];

export const NO_FILTERS: RecordFilters = { from: '', to: '', type: '', division: '', section: '', curveNumber: '', technicianId: '', q: '' };

/** The search param that holds the 1-based page; the filters use their API names. */
export const PAGE_PARAM = 'page';

/** Filters from the page's URL. Anything a hand-edited URL got wrong is dropped, not sent. */
export function filtersFromParams(params: URLSearchParams): RecordFilters {
  const text = (key: string) => (params.get(key) ?? '').trim();
  // The list's own date rule: a date the server would refuse is not sent.
  const date = (key: 'from' | 'to') => {
    const parsed = inspectionListQuerySchema.shape[key].safeParse(text(key));
    return parsed.success ? (parsed.data ?? '') : '';
  };
  const type = INSPECTION_TYPES.find((t) => t === text('type')) ?? '';
  return {
    from: date('from'),
    to: date('to'),
    type,
    division: text('division'),
    section: text('section'),
    curveNumber: text('curveNumber'),
    technicianId: text('technicianId'),
    q: text('q'),
  };
}

/** The 1-based page of the URL; 1 for anything that is not a whole number of at least 1. */
export function pageFromParams(params: URLSearchParams): number {
  const raw = params.get(PAGE_PARAM);
  if (raw === null || !/^\d{1,7}$/.test(raw)) return 1;
  return Math.max(1, Number(raw));
}

/**
 * The view's search params with new filters and page, keeping every other param (`view`).
 * Empty filters and page 1 are left out, so a plain view has a plain URL.
 */
export function withFiltersAndPage(params: URLSearchParams, filters: RecordFilters, page: number): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of FILTER_KEYS) {
    const value = filters[key].trim();
    if (value === '') next.delete(key);
    else next.set(key, value);
  }
  if (page <= 1) next.delete(PAGE_PARAM);
  else next.set(PAGE_PARAM, String(page));
  return next;
}

export function hasFilters(filters: RecordFilters): boolean {
  return FILTER_KEYS.some((key) => filters[key].trim() !== '');
}

/** GET /api/inspections for one page: limit and offset always, filters only when given. */
export function inspectionsUrl(filters: RecordFilters, page: number): string {
  const query = new URLSearchParams({ limit: String(RECORDS_PAGE_SIZE), offset: String((page - 1) * RECORDS_PAGE_SIZE) });
  for (const key of FILTER_KEYS) {
    const value = filters[key].trim();
    if (value !== '') query.set(key, value);
  }
  return `/api/inspections?${query.toString()}`;
}

/** 'Showing 51–100 of 1,234 records', the numbers of one page. */
export function pageRange(page: number, shown: number): { first: number; last: number } {
  const first = shown === 0 ? 0 : (page - 1) * RECORDS_PAGE_SIZE + 1;
  return { first, last: shown === 0 ? 0 : first + shown - 1 };
}

export function lastPageOf(total: number): number {
  return Math.max(1, Math.ceil(total / RECORDS_PAGE_SIZE));
}
