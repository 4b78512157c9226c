import { ACTION_KINDS, type ActionKind } from '../../../../../common/rules/follow-up-actions.js';
import { ACTIONS_PAGE_MAX } from '../../../../../common/schemas/actions.js';

/** Actions per page: the records view's 50, each card a few lines until it is opened. */
export const ACTIONS_PAGE_SIZE = 50;

const STATE_CHOICES = ['open', 'closed', 'all'] as const;
export type ActionStateChoice = (typeof STATE_CHOICES)[number];

/** The Actions view's filters as the URL holds them, next to `view`: '' means "any". */
export interface ActionFilters {
  division: string;
  section: string;
  sse: string;
  kind: '' | ActionKind;
  state: ActionStateChoice;
  overdue: boolean;
}

export const NO_ACTION_FILTERS: ActionFilters = { division: '', section: '', sse: '', kind: '', state: 'open', overdue: false };

const PAGE_PARAM = 'page';
const TEXT_KEYS = ['division', 'section', 'sse'] as const satisfies readonly (keyof ActionFilters)[];

/** Filters from the page's URL; anything a hand-edited URL got wrong is dropped, not sent. */
export function actionFiltersFromParams(params: URLSearchParams): ActionFilters {
  const text = (key: string) => (params.get(key) ?? '').trim();
  return {
    division: text('division'),
    section: text('section'),
    sse: text('sse'),
    kind: ACTION_KINDS.find((k) => k === text('kind')) ?? '',
    state: STATE_CHOICES.find((s) => s === text('state')) ?? 'open',
    overdue: text('overdue') === 'true',
  };
}

export function actionPageFromParams(params: URLSearchParams): number {
  const raw = params.get(PAGE_PARAM);
  if (raw === null || !/^\d{1,7}$/.test(raw)) return 1;
  return Math.max(1, Number(raw));
}

/** The search params with these filters and page, keeping `view`; defaults are left out so a plain view has a plain URL. */
export function withActionFilters(params: URLSearchParams, filters: ActionFilters, page: number): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of TEXT_KEYS) {
    if (filters[key] === '') next.delete(key);
    else next.set(key, filters[key]);
  }
  if (filters.kind === '') next.delete('kind');
  else next.set('kind', filters.kind);
  if (filters.state === 'open') next.delete('state');
  else next.set('state', filters.state);
  if (filters.overdue) next.set('overdue', 'true');
  else next.delete('overdue');
  if (page <= 1) next.delete(PAGE_PARAM);
  else next.set(PAGE_PARAM, String(page));
  return next;
}

/** The address of the Actions view filtered to one division, as the landing's counts link to it. */
export function actionsViewSearch(division: string, overdue: boolean): string {
  return `?${withActionFilters(new URLSearchParams({ view: 'actions' }), { ...NO_ACTION_FILTERS, division, overdue }, 1).toString()}`;
}

export function hasActionFilters(filters: ActionFilters): boolean {
  return (
    filters.division !== '' ||
    filters.section !== '' ||
    filters.sse !== '' ||
    filters.kind !== '' ||
    filters.state !== NO_ACTION_FILTERS.state ||
    filters.overdue
  );
}

function queryOf(filters: ActionFilters, state: ActionStateChoice, limit: number, offset: number): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of TEXT_KEYS) if (filters[key] !== '') query.set(key, filters[key]);
  if (filters.kind !== '') query.set('kind', filters.kind);
  query.set('state', state);
  // Overdue is a property of open actions only: the server answers it for open ones.
  if (filters.overdue) query.set('overdue', 'true');
  query.set('limit', String(limit));
  query.set('offset', String(offset));
  return query;
}

/** GET /api/actions for one page of the view. */
export function actionsUrl(filters: ActionFilters, page: number): string {
  return `/api/actions?${queryOf(filters, filters.state, ACTIONS_PAGE_SIZE, (page - 1) * ACTIONS_PAGE_SIZE).toString()}`;
}

/** GET /api/actions for the ageing counts: the open actions of the same filters, as many as one answer holds. */
export function openActionsUrl(filters: ActionFilters): string {
  return `/api/actions?${queryOf(filters, 'open', ACTIONS_PAGE_MAX, 0).toString()}`;
}

export const actionCountsUrl = (division: string) =>
  division === '' || division === 'all' ? '/api/actions/counts' : `/api/actions/counts?division=${encodeURIComponent(division)}`;

/** Every page, filter and count of actions starts with this, so one prefix finds them after a change. */
export const ACTIONS_URL_PREFIX = '/api/actions';

export function actionPageRange(page: number, shown: number): { first: number; last: number } {
  const first = shown === 0 ? 0 : (page - 1) * ACTIONS_PAGE_SIZE + 1;
  return { first, last: shown === 0 ? 0 : first + shown - 1 };
}

export const lastActionPageOf = (total: number) => Math.max(1, Math.ceil(total / ACTIONS_PAGE_SIZE));
