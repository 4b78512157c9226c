import { useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { DIVISIONS } from '../../../../../common/constants.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.js';
import { Input } from '../../../components/ui/input.js';
import { Label } from '../../../components/ui/label.js';
import { toast } from '../../../components/ui/toast-store.js';
import { failureText } from '../../../lib/api-failure.js';
import { FilterSelect } from '../../../components/ui/filter-select.js';
import { invalidateRegister, parseRegisterFilters, REGISTER_PAGE_SIZE, registerFiltersUrl } from './register-api.js';

/** The register's lists for the filters: sections of the chosen division and SSE names. */
export function useRegisterFilters(division: string) {
  return useQuery({ queryKey: [registerFiltersUrl(division)], select: parseRegisterFilters, staleTime: 0 });
}

interface FilterBase {
  division: string;
  section: string;
  q: string;
}

/**
 * The filters of the curve and station views. A list choice applies at once; the search applies
 * on Enter or Search, so typing does not send a query per letter. A new division clears the
 * section and SSE choices that belonged to the old one.
 */
export function RegisterFilterBar<T extends FilterBase>({
  applied,
  onApply,
  searchLabel,
  extra,
}: {
  applied: T;
  onApply: (next: T) => void;
  searchLabel: string;
  /** More lists (the SSE filter of the curve view), given the applied filters and the register's lists. */
  extra?: (sses: readonly string[]) => ReactNode;
}) {
  const { t } = useLingui();
  const [search, setSearch] = useState(applied.q);
  const lists = useRegisterFilters(applied.division);
  const sections = (lists.data?.sections ?? []).map((s) => s.section);
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...applied, q: search });
  };
  return (
    <Card aria-labelledby="register-filters-title">
      <CardTitle id="register-filters-title">{t`Filters`}</CardTitle>
      <form role="search" onSubmit={onSearch} className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <FilterSelect
          id="register-division"
          label={t`Division`}
          value={applied.division}
          onChange={(division) => onApply({ ...applied, division, section: '', ...('sse' in applied ? { sse: '' } : {}) })}
          all={{ value: '', label: t`All divisions` }}
          options={DIVISIONS}
        />
        <FilterSelect
          id="register-section"
          label={t`Section`}
          value={applied.section}
          onChange={(section) => onApply({ ...applied, section })}
          all={{ value: '', label: t`All sections` }}
          options={[...new Set(sections)]}
        />
        {extra?.(lists.data?.sses ?? [])}
        <div className="sm:col-span-2 lg:col-span-1">
          <Label htmlFor="register-search">{searchLabel}</Label>
          <div className="mt-1 flex gap-2">
            <Input id="register-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} enterKeyHint="search" />
            <Button type="submit" variant="outline">
              {t`Search`}
            </Button>
          </div>
        </div>
      </form>
    </Card>
  );
}

/**
 * One page of a register list (curves or stations) and its filters: a new filter starts again
 * at page 1, and a page past the end (its last rows were deleted) goes back to the last one.
 */
export function useRegisterPage<F extends FilterBase, T>(
  initial: F,
  urlOf: (filters: F, page: number) => string,
  parse: (body: unknown) => { rows: T[]; total: number },
) {
  const [filters, setFilters] = useState<F>(initial);
  const [page, setPage] = useState(1);
  const list = useQuery({ queryKey: [urlOf(filters, page)], select: parse, staleTime: 0, placeholderData: (previous) => previous });
  const shown = list.data?.rows.length;
  const total = list.data?.total;
  // Adjusted while rendering (React's pattern for state derived from data), not in an effect.
  if (shown === 0 && total !== undefined && total > 0 && page > 1) setPage(Math.ceil(total / REGISTER_PAGE_SIZE));
  const apply = (next: F) => {
    setFilters(next);
    setPage(1);
  };
  return { filters, apply, page, setPage, list };
}

/** A register list's states: loading, failed, nothing matching, or the page between its pagers. */
export function RegisterResults<T>({
  list,
  page,
  onPage,
  loadingText,
  failedText,
  emptyText,
  summary,
  children,
}: {
  list: UseQueryResult<{ rows: T[]; total: number }>;
  page: number;
  onPage: (page: number) => void;
  /** 'Loading curves...' */
  loadingText: string;
  /** 'Failed to load curves': the server's reason follows it. */
  failedText: string;
  emptyText: string;
  summary: (first: number, last: number, total: number) => string;
  children: (rows: T[]) => ReactNode;
}) {
  let body;
  if (list.isPending) {
    body = <p className="text-base text-slate-700">{loadingText}</p>;
  } else if (list.isError) {
    body = (
      <p role="alert" className="text-base font-medium text-red-700">
        {failureText(failedText, list.error)}
      </p>
    );
  } else if (list.data.total === 0) {
    body = (
      <Card>
        <CardDescription className="text-base">{emptyText}</CardDescription>
      </Card>
    );
  } else {
    const { rows, total } = list.data;
    body = (
      <>
        <RegisterPager page={page} total={total} shown={rows.length} summary={summary} onPage={onPage} />
        {children(rows)}
        {total > rows.length ? <RegisterPager page={page} total={total} shown={rows.length} summary={summary} onPage={onPage} withSummary={false} /> : null}
      </>
    );
  }
  return (
    <div className="flex flex-col gap-3" aria-busy={list.isFetching || undefined}>
      {body}
    </div>
  );
}

/** The page's place in the list and the way to the rest: every match is reachable. */
export function RegisterPager({
  page,
  total,
  shown,
  summary,
  onPage,
  withSummary = true,
}: {
  page: number;
  total: number;
  shown: number;
  summary: (first: number, last: number, total: number) => string;
  onPage: (page: number) => void;
  /** The pager under a list repeats only the buttons: the count is said once, above it. */
  withSummary?: boolean;
}) {
  const { t } = useLingui();
  const first = total === 0 ? 0 : (page - 1) * REGISTER_PAGE_SIZE + 1;
  const last = (page - 1) * REGISTER_PAGE_SIZE + shown;
  const hasNext = last < total;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      {withSummary ? (
        <p className="text-base text-slate-800" aria-live="polite">
          {summary(first, last, total)}
        </p>
      ) : (
        <span />
      )}
      {page > 1 || hasNext ? (
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            {t`Previous`}
          </Button>
          <Button variant="outline" size="sm" disabled={!hasNext} onClick={() => onPage(page + 1)}>
            {t`Next`}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** The delete confirmation (docs/functional-requirements.md, 'Curve and station register'), then the delete, its toast and a fresh list. */
export function RegisterDeleteDialog<T>({
  item,
  question,
  remove,
  deletedTitle,
  deletedText,
  failedText,
  onDone,
}: {
  item: T;
  question: string;
  remove: (item: T) => Promise<T>;
  deletedTitle: string;
  deletedText: string;
  failedText: string;
  onDone: () => void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: async () => {
      toast({ title: deletedTitle, description: deletedText });
      onDone();
      await invalidateRegister(queryClient);
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: t`Delete Error`, description: failureText(failedText, error) });
      onDone();
    },
  });
  return (
    <ConfirmDialog
      title={t`Confirm Delete`}
      confirmLabel={mutation.isPending ? t`Deleting...` : t`Delete`}
      destructive
      busy={mutation.isPending}
      onConfirm={() => mutation.mutate(item)}
      onCancel={onDone}
    >
      {question}
    </ConfirmDialog>
  );
}

/** A fact of a register card: label and value, '—' when empty. */
export function Fact({ label, value }: { label: string; value: string | number | null }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="text-base font-medium break-words text-slate-900">{value === null || value === '' ? '—' : value}</dd>
    </div>
  );
}

/** Edit and Delete of one curve or station, named for screen readers ('Edit curve 12 Up'); `name` is said in the reader's language. */
export function ItemActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useLingui();
  return (
    <div className="mt-auto grid grid-cols-2 gap-2">
      <Button variant="outline" size="sm" onClick={onEdit} aria-label={t`Edit ${name}`}>
        {t`Edit`}
      </Button>
      <Button variant="outline" size="sm" className="text-red-800" onClick={onDelete} aria-label={t`Delete ${name}`}>
        {t`Delete`}
      </Button>
    </div>
  );
}
