import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type InspectionListResponse, inspectionListResponseSchema, type InspectionLog } from '../../../../../common/schemas/inspection.js';
import { RECORD_BATCH_MAX } from '../../../../../common/schemas/records.js';
import type { Technician } from '../../../../../common/schemas/reference.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription } from '../../../components/ui/card.js';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.js';
import { toast } from '../../../components/ui/toast-store.js';
import { errorStatus } from '../../../lib/api-client.js';
import { failureText } from '../../../lib/api-failure.js';
import { RecordCard } from './record-card.js';
import { RecordDetails } from './record-details.js';
import { RecordFilterForm } from './record-filter-form.js';
import {
  filtersFromParams,
  FILTER_KEYS,
  hasFilters,
  inspectionsUrl,
  lastPageOf,
  pageFromParams,
  pageRange,
  type RecordFilters,
  withFiltersAndPage,
} from './record-query.js';
import {
  deleteImages,
  deleteRecord,
  downloadMany,
  downloadOne,
  invalidateAfterDelete,
  saveFile,
  parseTechnicians,
  TECHNICIANS_KEY,
  TECHNICIANS_STALE_MS,
} from './records-api.js';

const parseList = (body: unknown): InspectionListResponse => inspectionListResponseSchema.parse(body);
const NO_TECHNICIANS: Technician[] = [];
/** Indian grouping (1,23,456) in both languages: Hindi's hi-IN writes the same Latin digits. */
const numberText = (n: number) => n.toLocaleString('en-IN');
/** One row of the desktop grid (the first card on a phone): what is on screen when the page opens. */
const EAGER_THUMBNAILS = 3;

type Confirming = { kind: 'one'; recordId: string } | { kind: 'selected'; recordIds: string[] } | null;

/**
 * The records view (docs/functional-requirements.md, 'Inspection records and images'): one server page of 50 records at a time, filtered
 * on the server, with the page and filters in the URL next to `view`. Nothing here ever asks
 * for the whole table.
 */
export function RecordsView() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const page = pageFromParams(params);
  // A new set of filters starts a new selection: hidden records must never be deleted by surprise.
  const filtersKey = FILTER_KEYS.map((key) => filters[key]).join('\u0000');

  // A convenience: an answer that is not the contract's leaves "All technicians".
  const technicians = useQuery({ queryKey: TECHNICIANS_KEY, select: parseTechnicians, staleTime: TECHNICIANS_STALE_MS });

  const apply = (next: RecordFilters) => setParams(withFiltersAndPage(params, next, 1));
  const goToPage = (next: number, replace = false) => setParams(withFiltersAndPage(params, filters, next), { replace });

  return (
    <div className="flex flex-col gap-4">
      <RecordFilterForm key={`filters:${filtersKey}`} applied={filters} technicians={technicians.data ?? NO_TECHNICIANS} onApply={apply} />
      <RecordResults key={`results:${filtersKey}`} filters={filters} page={page} goToPage={goToPage} />
    </div>
  );
}

function RecordResults({
  filters,
  page,
  goToPage,
}: {
  filters: RecordFilters;
  page: number;
  goToPage: (page: number, replace?: boolean) => void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const url = inspectionsUrl(filters, page);
  const list = useQuery({
    queryKey: [url],
    select: parseList,
    // The inspections list is never cached; the last page stays on screen
    // while the next one loads, so paging does not flash an empty grid.
    staleTime: 0,
    gcTime: 0,
    // The same as TanStack's keepPreviousData, which would land in the shared entry chunk.
    placeholderData: (previous) => previous,
  });

  const [selected, setSelected] = useState<string[]>([]);
  const [opened, setOpened] = useState<InspectionLog | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [downloadingId, setDownloadingId] = useState<string | null>(null);
  const confirmOpener = useRef<HTMLElement | null>(null);
  const summaryRef = useRef<HTMLParagraphElement>(null);

  const logs = list.data?.logs ?? [];
  const total = list.data?.total ?? 0;
  const showingCurrent = list.data !== undefined && !list.isPlaceholderData;

  // Past the end (the last records of the last page were deleted, or an old link): go to the last page.
  useEffect(() => {
    if (showingCurrent && logs.length === 0 && page > 1) goToPage(total > 0 ? lastPageOf(total) : 1, true);
  }, [showingCurrent, logs.length, page, total, goToPage]);

  const forget = (recordIds: readonly string[]) => {
    const gone = new Set(recordIds);
    setSelected((ids) => ids.filter((id) => !gone.has(id)));
    setOpened((log) => (log !== null && gone.has(log.recordId) ? null : log));
  };

  const closeConfirm = () => {
    setConfirming(null);
    const opener = confirmOpener.current;
    confirmOpener.current = null;
    if (opener?.isConnected) opener.focus();
  };

  // The button that asked may belong to a card that is about to go: land on the page summary.
  const focusSummaryAfterDelete = () => {
    confirmOpener.current = summaryRef.current;
  };

  const askToConfirm = (next: Exclude<Confirming, null>) => {
    confirmOpener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setConfirming(next);
  };

  const deleteOne = useMutation({
    mutationFn: deleteRecord,
    onSuccess: (recordId) => {
      toast({ title: t`Record Deleted`, description: t`${recordId} has been deleted.` });
      focusSummaryAfterDelete();
      forget([recordId]);
    },
    onError: (error, recordId) => {
      toast({ variant: 'destructive', title: t`Delete Error`, description: failureText(t`Failed to delete inspection record`, error) });
      // Already gone (deleted elsewhere): the card must not linger.
      if (errorStatus(error) === 404) forget([recordId]);
    },
    onSettled: () => {
      closeConfirm();
      void invalidateAfterDelete(queryClient);
    },
  });

  const deleteSelected = useMutation({
    mutationFn: deleteImages,
    onSuccess: (deletedCount, recordIds) => {
      // The spec's text, "images" whatever the count.
      toast({ title: t`Images Deleted`, description: t`${deletedCount} images deleted successfully` });
      focusSummaryAfterDelete();
      // Named but not found means already gone: either way, none of them is selectable now.
      forget(recordIds);
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: t`Delete Error`, description: failureText(t`Failed to delete images`, error) });
    },
    onSettled: () => {
      closeConfirm();
      // A failure in a later batch may follow earlier batches that did delete.
      void invalidateAfterDelete(queryClient);
    },
  });

  const onDownloadFailed = (error: unknown) =>
    toast({ variant: 'destructive', title: t`Download Failed`, description: failureText(t`Failed to download image`, error) });

  const downloadSingle = useMutation({
    mutationFn: downloadOne,
    onMutate: (recordId) => setDownloadingId(recordId),
    onSuccess: saveFile,
    onError: onDownloadFailed,
    onSettled: () => setDownloadingId(null),
  });

  const downloadSelected = useMutation({ mutationFn: downloadMany, onSuccess: saveFile, onError: onDownloadFailed });

  const selectedSet = new Set(selected);
  const pageIds = logs.map((log) => log.recordId);
  const pageSelected = pageIds.filter((id) => selectedSet.has(id)).length;
  const allOnPage = pageIds.length > 0 && pageSelected === pageIds.length;

  const toggle = (recordId: string) =>
    setSelected((ids) => (ids.includes(recordId) ? ids.filter((id) => id !== recordId) : [...ids, recordId]));
  const toggleAllOnPage = () =>
    setSelected((ids) => {
      if (allOnPage) return ids.filter((id) => !pageIds.includes(id));
      return [...ids, ...pageIds.filter((id) => !ids.includes(id))];
    });

  const changePage = (next: number) => {
    goToPage(next);
    // Keyboard and screen reader users land on the new page's summary, at the top of the grid.
    summaryRef.current?.focus();
  };

  let body;
  if (list.isPending) {
    body = <p className="text-base text-slate-700">{t`Loading inspection records...`}</p>;
  } else if (list.isError) {
    body = (
      <Card className="flex flex-col items-start gap-3">
        <p role="alert" className="text-base font-medium text-red-700">
          {failureText(t`Failed to load inspection records`, list.error)}
        </p>
        <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
          {t`Try Again`}
        </Button>
      </Card>
    );
  } else if (logs.length === 0) {
    body = (
      <Card>
        <CardDescription className="text-base">
          {hasFilters(filters) ? t`No inspection records match the selected filters.` : t`No inspection records yet.`}
        </CardDescription>
      </Card>
    );
  } else {
    const { first, last } = pageRange(page, logs.length);
    const lastPage = lastPageOf(total);
    const noPhotos = logs.every((log) => log.imageUrl === null && log.thumbnailUrl === null);
    const busy = deleteSelected.isPending || downloadSelected.isPending;
    const [firstText, lastText, totalText] = [numberText(first), numberText(last), numberText(total)];
    const [pageText, lastPageText] = [numberText(page), numberText(lastPage)];
    body = (
      <>
        <p ref={summaryRef} tabIndex={-1} aria-live="polite" className="text-base font-medium text-slate-800 outline-none">
          {t`Showing ${firstText}–${lastText} of ${totalText} records`}
        </p>
        <SelectionBar
          allOnPage={allOnPage}
          someOnPage={pageSelected > 0}
          selectedCount={selected.length}
          busy={busy}
          downloading={downloadSelected.isPending}
          onToggleAll={toggleAllOnPage}
          onClear={() => setSelected([])}
          onDownload={() => downloadSelected.mutate(selected)}
          onDelete={() => askToConfirm({ kind: 'selected', recordIds: selected })}
        />
        {noPhotos ? (
          <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-base text-amber-950">
            {t`None of the records on this page has a photo.`}
          </p>
        ) : null}
        <ul aria-label={t`Inspection records`} className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-busy={list.isFetching || undefined}>
          {logs.map((log, index) => (
            <li key={log.recordId}>
              <RecordCard
                log={log}
                eager={index < EAGER_THUMBNAILS}
                selected={selectedSet.has(log.recordId)}
                downloading={downloadingId === log.recordId}
                onToggle={toggle}
                onOpen={setOpened}
                onDownload={(id) => downloadSingle.mutate(id)}
                onDelete={(recordId) => askToConfirm({ kind: 'one', recordId })}
              />
            </li>
          ))}
        </ul>
        <nav aria-label={t`Pages`} className="flex flex-wrap items-center justify-between gap-3">
          <Button variant="outline" disabled={page <= 1 || list.isFetching} onClick={() => changePage(page - 1)}>
            <span aria-hidden="true">←</span> {t`Previous`}
          </Button>
          <span className="text-base text-slate-800">{t`Page ${pageText} of ${lastPageText}`}</span>
          <Button variant="outline" disabled={page >= lastPage || list.isFetching} onClick={() => changePage(page + 1)}>
            {t`Next`} <span aria-hidden="true">→</span>
          </Button>
        </nav>
      </>
    );
  }

  const confirmingId = confirming?.kind === 'one' ? confirming.recordId : '';
  return (
    <section aria-label={t`Results`} className="flex flex-col gap-3">
      {body}
      {opened !== null ? (
        <RecordDetails
          log={opened}
          downloading={downloadingId === opened.recordId}
          onDownload={(id) => downloadSingle.mutate(id)}
          onDelete={(recordId) => askToConfirm({ kind: 'one', recordId })}
          onClose={() => setOpened(null)}
        />
      ) : null}
      {confirming?.kind === 'one' ? (
        <ConfirmDialog
          title={t`Delete Record`}
          confirmLabel={deleteOne.isPending ? t`Deleting...` : t`Delete`}
          cancelLabel={t`Cancel`}
          destructive
          busy={deleteOne.isPending}
          onConfirm={() => deleteOne.mutate(confirming.recordId)}
          onCancel={closeConfirm}
        >
          {t`Delete inspection record ${confirmingId} and its photo? This cannot be undone.`}
        </ConfirmDialog>
      ) : null}
      {confirming?.kind === 'selected' ? (
        <ConfirmDialog
          title={t`Delete Selected Images`}
          confirmLabel={deleteSelected.isPending ? t`Deleting...` : t`Delete Selected`}
          cancelLabel={t`Cancel`}
          destructive
          busy={deleteSelected.isPending}
          onConfirm={() => deleteSelected.mutate(confirming.recordIds)}
          onCancel={closeConfirm}
        >
          {deleteSelectedQuestion(confirming.recordIds.length)}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/** The question before deleting the selection; the count as the page shows numbers. */
function deleteSelectedQuestion(count: number): string {
  const countText = numberText(count);
  return plural(count, {
    one: `Delete ${countText} selected record and its image? This cannot be undone.`,
    other: `Delete ${countText} selected records and their images? This cannot be undone.`,
  });
}

function SelectionBar({
  allOnPage,
  someOnPage,
  selectedCount,
  busy,
  downloading,
  onToggleAll,
  onClear,
  onDownload,
  onDelete,
}: {
  allOnPage: boolean;
  someOnPage: boolean;
  selectedCount: number;
  busy: boolean;
  downloading: boolean;
  onToggleAll: () => void;
  onClear: () => void;
  onDownload: () => void;
  onDelete: () => void;
}) {
  const { t } = useLingui();
  const none = selectedCount === 0;
  const selectedText = numberText(selectedCount);
  const tooManyToDownload = selectedCount > RECORD_BATCH_MAX;
  const batchMax = RECORD_BATCH_MAX;
  return (
    <div
      role="toolbar"
      aria-label={t`Selection`}
      className="flex flex-col gap-2 rounded-xl border border-slate-300 bg-white p-2 shadow-sm sm:flex-row sm:items-center"
    >
      <div className="flex items-center gap-2 sm:flex-1">
        <label className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-2 text-base font-semibold whitespace-nowrap text-slate-900 hover:bg-slate-100">
          <input
            type="checkbox"
            checked={allOnPage}
            // Some but not all of the page: the mixed state says so.
            ref={(box) => {
              if (box) box.indeterminate = someOnPage && !allOnPage;
            }}
            onChange={onToggleAll}
            className="size-6 cursor-pointer accent-brand-700"
          />
          {t`Select all`}
        </label>
        <span className="px-1 text-base whitespace-nowrap text-slate-800" aria-live="polite">{t`${selectedText} selected`}</span>
        {/* 'Clear' on a phone so the row fits; the name is 'Clear Selection' everywhere. */}
        <Button variant="ghost" size="sm" disabled={none || busy} onClick={onClear} className="ml-auto whitespace-nowrap sm:ml-0">
          <Trans>
            Clear<span className="sr-only sm:not-sr-only">&nbsp;Selection</span>
          </Trans>
        </Button>
      </div>
      <div className="grid grid-cols-2 gap-2 sm:flex">
        <Button
          variant="outline"
          size="sm"
          disabled={none || busy || tooManyToDownload}
          aria-busy={downloading || undefined}
          title={tooManyToDownload ? t`Download at most ${batchMax} images at once` : undefined}
          onClick={onDownload}
        >
          {downloading ? t`Downloading...` : t`Download Selected`}
        </Button>
        <Button variant="destructive" size="sm" disabled={none || busy} onClick={onDelete}>
          {t`Delete Selected`}
        </Button>
      </div>
    </div>
  );
}
