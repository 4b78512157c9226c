import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ACTION_KINDS, AGEING_BANDS, type AgeingBand } from '../../../../../common/rules/follow-up-actions.js';
import type { PublicUser } from '../../../../../common/schemas/auth.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { FilterSelect } from '../../../components/ui/filter-select.js';
import { failureText } from '../../../lib/api-failure.js';
import { cn } from '../../../lib/cn.js';
import { ScopeFilterFields } from '../register/index.js';
import { ReportProgress, useReportJob } from '../reports/index.js';
import { ActionCard } from './action-card.js';
import {
  type ActionFilters,
  actionFiltersFromParams,
  actionPageFromParams,
  actionPageRange,
  actionsUrl,
  hasActionFilters,
  lastActionPageOf,
  NO_ACTION_FILTERS,
  openActionsUrl,
  withActionFilters,
} from './action-query.js';
import { AGEING_BAND_LABELS, kindText } from './action-texts.js';
import { parseActionList } from './actions-api.js';

/** Indian grouping (1,23,456) in both languages: Hindi's hi-IN writes the same Latin digits. */
const numberText = (n: number) => n.toLocaleString('en-IN');

/**
 * Follow-up Actions (issue 25): the faults reported in the field, open until a visit proves
 * them fixed, filtered on the server a page at a time, with the filters and page in the URL next
 * to `view` (the reports landing links here with a division). Clients read their own division
 * only, which the server imposes whatever is asked; Admins close and reopen with a note.
 */
export function ActionsView({ user }: { user: PublicUser }) {
  const { t } = useLingui();
  const isClient = user.role === 'Client';
  const [params, setParams] = useSearchParams();
  const fromUrl = useMemo(() => actionFiltersFromParams(params), [params]);
  // A Client's division is theirs, whatever the address says: asked for, but not a filter they chose.
  const chosen: ActionFilters = isClient ? { ...fromUrl, division: '' } : fromUrl;
  const filters: ActionFilters = isClient ? { ...fromUrl, division: user.divisionAccess ?? '' } : fromUrl;
  const page = actionPageFromParams(params);

  const apply = (next: ActionFilters) => setParams(withActionFilters(params, isClient ? { ...next, division: '' } : next, 1));
  const goToPage = (next: number, replace = false) => setParams(withActionFilters(params, chosen, next), { replace });

  return (
    <div className="flex flex-col gap-4">
      <ActionFilterForm
        filters={filters}
        divisionFixed={isClient ? (user.divisionAccess ?? t`No division assigned`) : null}
        canClear={hasActionFilters(chosen)}
        onApply={apply}
      />
      <ActionsExcel filters={filters} />
      {filters.state !== 'closed' ? <AgeingCounts filters={filters} /> : null}
      {/* New filters start with every card closed, as a new list. */}
      <ActionResults key={JSON.stringify(filters)} filters={filters} filtered={hasActionFilters(chosen)} page={page} goToPage={goToPage} isAdmin={user.role === 'Admin'} />
    </div>
  );
}

/** The filters apply as they are chosen: every one is a list or a box, so nothing is typed letter by letter. */
function ActionFilterForm({
  filters,
  divisionFixed,
  canClear,
  onApply,
}: {
  filters: ActionFilters;
  /** A Client's division, shown instead of the division list; null for Admins. */
  divisionFixed: string | null;
  canClear: boolean;
  onApply: (next: ActionFilters) => void;
}) {
  const { t } = useLingui();
  const set = (changes: Partial<ActionFilters>) => onApply({ ...filters, ...changes });
  return (
    <Card aria-labelledby="action-filters-title">
      <CardTitle id="action-filters-title">{t`Filters`}</CardTitle>
      <form role="search" aria-labelledby="action-filters-title" onSubmit={(e) => e.preventDefault()} className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-3">
        <ScopeFilterFields idPrefix="action" scope={filters} divisionFixed={divisionFixed} onChange={set} />
        <FilterSelect
          id="action-kind"
          label={t`Kind`}
          value={filters.kind}
          onChange={(value) => set({ kind: ACTION_KINDS.find((k) => k === value) ?? '' })}
          all={{ value: '', label: t`All kinds` }}
          options={ACTION_KINDS.map((kind) => ({ value: kind, label: kindText(kind) }))}
        />
        <FilterSelect
          id="action-state"
          label={t`State`}
          value={filters.state}
          // Only an open action can be overdue.
          onChange={(value) => set(value === 'closed' ? { state: 'closed', overdue: false } : { state: value === 'all' ? 'all' : 'open' })}
          all={{ value: 'open', label: t`Open` }}
          options={[
            { value: 'closed', label: t`Closed` },
            { value: 'all', label: t`Open and closed` },
          ]}
        />
        {/* On a phone two lists a row, these two sharing the last one. */}
        <div className="col-span-2 flex flex-wrap items-end justify-between gap-3 lg:col-span-1">
          <label className="inline-flex min-h-12 cursor-pointer items-center gap-2 rounded-lg px-1 text-base font-semibold whitespace-nowrap text-slate-900 has-disabled:cursor-not-allowed has-disabled:text-slate-500">
            <input
              type="checkbox"
              checked={filters.overdue}
              disabled={filters.state === 'closed'}
              onChange={(e) => set({ overdue: e.target.checked })}
              className="size-6 cursor-pointer accent-brand-700"
            />
            {t`Overdue only`}
          </label>
          <Button variant="outline" disabled={!canClear} onClick={() => onApply(NO_ACTION_FILTERS)} className="whitespace-nowrap">
            {t`Clear Filters`}
          </Button>
        </div>
      </form>
    </Card>
  );
}

interface AgeingAnswer {
  counts: Record<AgeingBand, number>;
  shown: number;
  total: number;
}

function countByAge(body: unknown): AgeingAnswer {
  const { actions, total } = parseActionList(body);
  const counts: Record<AgeingBand, number> = { '0-2': 0, '3-7': 0, '8-30': 0, 'over-30': 0 };
  for (const action of actions) counts[action.ageing] += 1;
  return { counts, shown: actions.length, total };
}

/**
 * How long the open actions of these filters have waited, in the rule's bands. Counted from
 * one answer of the open ones (the server's page limit); past that the card says how many it counted.
 */
function AgeingCounts({ filters }: { filters: ActionFilters }) {
  const { i18n, t } = useLingui();
  const ageing = useQuery({ queryKey: [openActionsUrl(filters)], select: countByAge, staleTime: 0, placeholderData: (previous) => previous });
  return (
    <Card aria-labelledby="action-ageing-title" aria-busy={ageing.isFetching || undefined}>
      <CardTitle id="action-ageing-title">{t`Open actions by age`}</CardTitle>
      <CardDescription>{t`Days since the fault was first reported`}</CardDescription>
      {ageing.isError ? (
        <p role="alert" className="mt-2 text-base font-medium text-red-700">
          {failureText(t`Failed to count the open actions by age`, ageing.error)}
        </p>
      ) : (
        <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
          {AGEING_BANDS.map((band) => (
            <div key={band} className="rounded-lg border border-slate-300 bg-slate-50 p-2">
              <dt className="text-sm text-slate-800">{i18n._(AGEING_BAND_LABELS[band])}</dt>
              <dd className="text-2xl font-bold text-slate-900 tabular-nums">{ageing.data ? numberText(ageing.data.counts[band]) : '–'}</dd>
            </div>
          ))}
        </dl>
      )}
      {ageing.data && ageing.data.shown < ageing.data.total ? <CountedOver shown={ageing.data.shown} total={ageing.data.total} /> : null}
    </Card>
  );
}

function CountedOver({ shown, total }: { shown: number; total: number }) {
  const { t } = useLingui();
  return <p className="mt-2 text-sm text-slate-800">{t`Counted over the first ${shown} of ${total} open actions.`}</p>;
}

function ActionResults({
  filters,
  filtered,
  page,
  goToPage,
  isAdmin,
}: {
  filters: ActionFilters;
  /** Whether the user narrowed the list (which of the two empty texts to show). */
  filtered: boolean;
  page: number;
  goToPage: (page: number, replace?: boolean) => void;
  isAdmin: boolean;
}) {
  const list = useQuery({
    queryKey: [actionsUrl(filters, page)],
    select: parseActionList,
    staleTime: 0,
    // The last page stays on screen while the next one loads, so paging does not flash an empty list.
    placeholderData: (previous) => previous,
  });
  const { t } = useLingui();
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpened((ids) => {
      const next = new Set(ids);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const actions = list.data?.actions ?? [];
  const total = list.data?.total ?? 0;
  const showingCurrent = list.data !== undefined && !list.isPlaceholderData;

  // Past the end (the last actions of the last page were closed, or an old link): go to the last page.
  useEffect(() => {
    if (showingCurrent && actions.length === 0 && page > 1) goToPage(total > 0 ? lastActionPageOf(total) : 1, true);
  }, [showingCurrent, actions.length, page, total, goToPage]);

  const changePage = (next: number) => {
    goToPage(next);
    summaryRef.current?.focus();
  };

  let body;
  if (list.isPending) {
    body = <p className="text-base text-slate-700">{t`Loading follow-up actions...`}</p>;
  } else if (list.isError) {
    body = (
      <Card className="flex flex-col items-start gap-3">
        <p role="alert" className="text-base font-medium text-red-700">
          {failureText(t`Failed to load follow-up actions`, list.error)}
        </p>
        <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
          {t`Try Again`}
        </Button>
      </Card>
    );
  } else if (actions.length === 0) {
    body = (
      <Card>
        <CardDescription className="text-base">{filtered ? t`No follow-up actions match the selected filters.` : t`No follow-up actions: nothing reported in the field is waiting.`}</CardDescription>
      </Card>
    );
  } else {
    const { first, last } = actionPageRange(page, actions.length);
    const lastPage = lastActionPageOf(total);
    const asOf = list.data.asOf;
    body = (
      <>
        <p ref={summaryRef} tabIndex={-1} aria-live="polite" className="text-base font-medium text-slate-800 outline-none">
          {plural(total, { 1: 'Showing 1 of 1 action', other: `Showing ${first}–${last} of ${total} actions` })}
        </p>
        <ul aria-label={t`Follow-up actions`} className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-busy={list.isFetching || undefined}>
          {actions.map((action) => (
            <li key={action.id} className={cn(opened.has(action.id) && 'sm:col-span-2 lg:col-span-3')}>
              <ActionCard action={action} asOf={asOf} isAdmin={isAdmin} open={opened.has(action.id)} onToggle={() => toggle(action.id)} />
            </li>
          ))}
        </ul>
        {lastPage > 1 ? (
          <nav aria-label={t`Pages`} className="flex flex-wrap items-center justify-between gap-3">
            <Button variant="outline" disabled={page <= 1 || list.isFetching} onClick={() => changePage(page - 1)}>
              <span aria-hidden="true">←</span> {t`Previous`}
            </Button>
            <span className="text-base text-slate-800">{t`Page ${page} of ${lastPage}`}</span>
            <Button variant="outline" disabled={page >= lastPage || list.isFetching} onClick={() => changePage(page + 1)}>
              {t`Next`} <span aria-hidden="true">→</span>
            </Button>
          </nav>
        ) : null}
      </>
    );
  }

  return (
    <section aria-label={t`Results`} className="flex flex-col gap-3">
      {body}
    </section>
  );
}

/**
 * The actions in view as an Excel report (POST /api/reports/follow-up-actions): a report job
 * like the others, followed with its progress, then downloaded; the server holds a Client to
 * their division whatever is sent.
 */
function ActionsExcel({ filters }: { filters: ActionFilters }) {
  const { t } = useLingui();
  const job = useReportJob('follow-up-actions', {
    doneTitle: t`Excel report ready`,
    // Read when the report is done, in the language shown then.
    doneDescription: (count) =>
      plural(count, { one: `${count} follow-up action: the download has started.`, other: `${count} follow-up actions: the download has started.` }),
    failed: t`The Excel report could not be made.`,
  });
  const body = {
    division: filters.division || undefined,
    section: filters.section || undefined,
    sse: filters.sse || undefined,
    kind: filters.kind || undefined,
    state: filters.state,
    overdue: filters.overdue && filters.state !== 'closed' ? ('true' as const) : undefined,
  };
  return (
    <div className="flex flex-col gap-2">
      <Button variant="outline" className="self-start" disabled={job.working} onClick={() => job.generate(body)}>
        {t`Download Excel`}
      </Button>
      {job.state.phase === 'working' ? <ReportProgress id="actions-excel" progress={job.state.progress} recordCount={job.state.recordCount} /> : null}
    </div>
  );
}
