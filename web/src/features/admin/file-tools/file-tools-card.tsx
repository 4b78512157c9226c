import { useLingui } from '@lingui/react/macro';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type {
  FileCheckSummary,
  FileRecreateSummary,
  FileRestoreSummary,
  FileTaskKind,
  PhotoProblemPage,
  PhotoProblemRecord,
} from '../../../../../common/schemas/file-tools.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { failureText } from '../../../lib/api-failure.js';
import { cn } from '../../../lib/cn.js';
import { submittedText, visitDateText } from '../../../lib/date-text.js';
import { fetchProblemPage, fileProblemsPageKey } from './file-tools-api.js';
import { n, pageOfText, problemsFoundText, progressText, recreatedText, skippedText } from './file-tools-texts.js';
import { type FileTaskProgress, useFileTask } from './use-file-task.js';

const KINDS = ['check', 'restore', 'recreate'] as const satisfies readonly FileTaskKind[];

const NONE = '–';
const atText = (iso: string | null) => (iso === null ? NONE : submittedText(iso));
const orNone = (value: string | null) => (value === null || value.trim() === '' ? NONE : value);

/**
 * A tool at work: a bar a glance can read outdoors and the same figure in words. Before the
 * server has counted the photos (total 0) the bar is indeterminate: no aria-valuenow.
 */
function TaskProgress({ kind, progress }: { kind: FileTaskKind; progress: FileTaskProgress }) {
  const { t } = useLingui();
  const determinate = progress.total > 0;
  const percent = determinate ? Math.max(0, Math.min(100, Math.round((progress.done / progress.total) * 100))) : null;
  const text = determinate ? progressText(kind, progress.done, progress.total) : t`Counting the photos...`;
  return (
    <div className="mt-3 flex flex-col gap-1 rounded-lg border border-slate-300 bg-slate-50 p-3">
      <p id="file-tools-progress-label" className="text-base font-semibold text-slate-900 tabular-nums">
        {text}
        {percent === null ? null : <span className="font-normal text-slate-700">{` · ${percent}%`}</span>}
      </p>
      <div
        role="progressbar"
        aria-labelledby="file-tools-progress-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={text}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        {percent === null ? (
          <div className="h-full w-full rounded-full bg-brand-700/50 motion-safe:animate-pulse" />
        ) : (
          <div className="h-full rounded-full bg-brand-700 transition-[width] duration-500" style={{ width: `${percent}%` }} />
        )}
      </div>
      <p className="text-sm text-slate-700">{t`The server carries on if you leave this page.`}</p>
    </div>
  );
}

function Figure({ label, value, alarm = false, hint }: { label: string; value: number; alarm?: boolean; hint?: string }) {
  return (
    <div className="rounded-lg border border-slate-300 p-3">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className={cn('text-2xl font-bold tabular-nums', alarm ? 'text-red-700' : 'text-slate-900')}>{n(value)}</dd>
      {hint ? <dd className="text-xs text-slate-700">{hint}</dd> : null}
    </div>
  );
}

function ResultBlock({ titleId, title, children }: { titleId: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={titleId} className="mt-4 border-t border-slate-200 pt-3">
      <h3 id={titleId} className="text-base font-bold text-slate-900">
        {title}
      </h3>
      {children}
    </section>
  );
}

function ProblemText({ problem }: { problem: PhotoProblemRecord['problem'] }) {
  const { t } = useLingui();
  return <span className={cn('font-bold', problem === 'missing' ? 'text-red-700' : 'text-amber-800')}>{problem === 'missing' ? t`Missing` : t`Corrupt`}</span>;
}

/** The affected records of one page: blocks on a phone, a table on a wider screen. */
function ProblemRows({ items }: { items: PhotoProblemRecord[] }) {
  const { t } = useLingui();
  const listTitle = t`Records with a photo problem`;
  const dateLabel = t`Date`;
  const divisionLabel = t`Division`;
  const curveLabel = t`Curve`;
  const technicianLabel = t`Technician`;
  return (
    <>
      {/* A phone has no room for six columns: one block per record instead. */}
      <ul className="mt-2 flex flex-col divide-y divide-slate-200 sm:hidden" aria-label={listTitle}>
        {items.map((item) => (
          <li key={item.recordId} className="py-2">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="font-mono text-sm font-semibold break-all text-slate-900">{item.recordId}</span>
              <ProblemText problem={item.problem} />
            </div>
            <dl className="mt-1 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
              {(
                [
                  [dateLabel, visitDateText(item.date)],
                  [divisionLabel, orNone(item.divisionRailway)],
                  [curveLabel, orNone(item.curveNumber)],
                  [technicianLabel, orNone(item.technicianName)],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="min-w-0">
                  <dt className="text-xs text-slate-700">{label}</dt>
                  <dd className="font-medium break-words text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      <div className="mt-2 hidden overflow-x-auto sm:block">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">{listTitle}</caption>
          <thead>
            <tr className="border-b-2 border-slate-300 text-slate-700">
              <th scope="col" className="py-2 pr-3">{t`Record ID`}</th>
              <th scope="col" className="py-2 pr-3">{t`Problem`}</th>
              <th scope="col" className="py-2 pr-3">{dateLabel}</th>
              <th scope="col" className="py-2 pr-3">{divisionLabel}</th>
              <th scope="col" className="py-2 pr-3">{curveLabel}</th>
              <th scope="col" className="py-2">{technicianLabel}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.recordId} className="border-b border-slate-200 align-top">
                <th scope="row" className="py-2 pr-3 font-mono font-semibold break-all text-slate-900">
                  {item.recordId}
                </th>
                <td className="py-2 pr-3">
                  <ProblemText problem={item.problem} />
                </td>
                <td className="py-2 pr-3 whitespace-nowrap">{visitDateText(item.date)}</td>
                <td className="py-2 pr-3">{orNone(item.divisionRailway)}</td>
                <td className="py-2 pr-3">{orNone(item.curveNumber)}</td>
                <td className="py-2">{orNone(item.technicianName)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * The records a finished check found, a page at a time. Page 1 comes with the check; others
 * are read again with the check's taskId (a read: no new check starts).
 */
function ProblemRecords({ taskId, firstPage }: { taskId: string; firstPage: PhotoProblemPage | undefined }) {
  const { t } = useLingui();
  const [page, setPage] = useState(1);
  const records = useQuery({
    queryKey: fileProblemsPageKey(taskId, page),
    queryFn: () => fetchProblemPage(taskId, page),
    initialData: page === 1 ? firstPage : undefined,
    placeholderData: keepPreviousData,
  });
  const shown = records.data;
  const pages = shown ? Math.max(1, Math.ceil(shown.total / shown.pageSize)) : 1;

  let body;
  if (records.isError) {
    body = (
      <div className="mt-2 flex flex-col items-start gap-2">
        <p role="alert" className="text-base font-medium text-red-700">
          {failureText(t`Failed to load the records`, records.error)}
        </p>
        <Button variant="outline" onClick={() => void records.refetch()}>
          {t`Try Again`}
        </Button>
      </div>
    );
  } else if (shown === undefined) {
    body = <p className="mt-2 text-base text-slate-700">{t`Loading the records...`}</p>;
  } else {
    body = <ProblemRows items={shown.items} />;
  }

  return (
    <div className="mt-3" aria-busy={records.isFetching || undefined}>
      <h4 className="text-base font-bold text-slate-900">{t`Records with a photo problem`}</h4>
      <div className={cn(records.isPlaceholderData && 'opacity-60')}>{body}</div>
      {pages > 1 || page > 1 ? (
        <nav aria-label={t`Pages of the records`} className="mt-3 flex items-center justify-between gap-2">
          <Button variant="outline" disabled={page <= 1} onClick={() => setPage((p) => Math.max(1, p - 1))}>
            {t`Previous`}
          </Button>
          <p className="text-base font-semibold text-slate-900 tabular-nums">{pageOfText(page, Math.max(page, pages))}</p>
          <Button variant="outline" disabled={page >= pages || records.isPlaceholderData} onClick={() => setPage((p) => p + 1)}>
            {t`Next`}
          </Button>
        </nav>
      ) : null}
    </div>
  );
}

function CheckResult({ taskId, finishedAt, summary, records }: { taskId: string; finishedAt: string | null; summary: FileCheckSummary; records?: PhotoProblemPage }) {
  const { t } = useLingui();
  const affected = summary.missing + summary.corrupt;
  return (
    <ResultBlock titleId="file-tools-check-title" title={t`Status check`}>
      <dl className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label={t`Records with photos`} value={summary.total} />
        <Figure label={t`Missing`} value={summary.missing} alarm={summary.missing > 0} />
        <Figure label={t`Corrupt`} value={summary.corrupt} alarm={summary.corrupt > 0} />
        <Figure label={t`Unused photo files`} value={summary.orphans} hint={t`Photo files no record uses, older than an hour.`} />
        <div className="col-span-2 sm:col-span-4">
          <dt className="inline text-sm text-slate-700">{`${t`Checked at`} `}</dt>
          <dd className="inline text-sm font-semibold text-slate-900">{atText(finishedAt)}</dd>
        </div>
      </dl>
      {affected === 0 ? (
        <p className="mt-3 rounded-lg border-2 border-green-700 bg-green-50 p-3 text-base font-semibold text-green-800">{t`All photos are present and intact.`}</p>
      ) : (
        <>
          <p className="mt-3 text-base font-semibold text-red-700">{problemsFoundText(affected)}</p>
          {/* A new check is a new list: keyed so it starts again at page 1. */}
          <ProblemRecords key={taskId} taskId={taskId} firstPage={records} />
        </>
      )}
    </ResultBlock>
  );
}

function RestoreResult({ finishedAt, summary }: { finishedAt: string | null; summary: FileRestoreSummary }) {
  const { t } = useLingui();
  const at = atText(finishedAt);
  return (
    <ResultBlock titleId="file-tools-restore-title" title={t`Restored from backups`}>
      <dl className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Figure label={t`Restored`} value={summary.restoredCount} />
        <Figure label={t`Could not restore`} value={summary.failedCount} alarm={summary.failedCount > 0} />
        <Figure label={t`Still missing`} value={summary.stillMissingCount} alarm={summary.stillMissingCount > 0} />
      </dl>
      {summary.stillMissingCount > 0 ? <p className="mt-3 text-base text-slate-900">{t`Still-missing photos are not in any backup: they cannot be restored and stay listed as missing.`}</p> : null}
      <p className="mt-2 text-base font-semibold text-slate-900">{t`Run Check Files again to see which records still have a photo problem.`}</p>
      <p className="mt-2 text-sm text-slate-700">{t`Finished at ${at}`}</p>
    </ResultBlock>
  );
}

function RecreateResult({ finishedAt, summary }: { finishedAt: string | null; summary: FileRecreateSummary }) {
  const { t } = useLingui();
  const at = atText(finishedAt);
  return (
    <ResultBlock titleId="file-tools-recreate-title" title={t`Derived files made again`}>
      <p className="mt-2 text-base font-semibold text-slate-900">{recreatedText(summary.recreatedCount)}</p>
      {summary.skippedCount > 0 ? <p className="mt-2 text-base font-semibold text-amber-800">{skippedText(summary.skippedCount)}</p> : null}
      <p className="mt-2 text-sm text-slate-700">{t`Finished at ${at}`}</p>
    </ResultBlock>
  );
}

/**
 * Data-management's photo file tools (docs/functional-requirements.md, 'Data management'): check every record's photo,
 * restore missing or corrupt ones from the backups, make the derived files again. One tool
 * at a time; the last outcome stays until the next tool is started. After a restore the card
 * asks for another check rather than starting one: a check can take minutes over a large
 * store, and the Admin may want to restore first and check later.
 */
export function FileToolsCard() {
  const { t } = useLingui();
  const { run, runningKind, start } = useFileTask();
  const result = run.phase === 'done' ? run.result : null;
  const startLabels: Record<FileTaskKind, string> = { check: t`Check Files`, restore: t`Restore from Backups`, recreate: t`Recreate Derived Files` };
  const busyLabels: Record<FileTaskKind, string> = { check: t`Checking...`, restore: t`Restoring...`, recreate: t`Recreating...` };
  /** Said once to a screen reader when a tool finishes. */
  const finishedLabels: Record<FileTaskKind, string> = {
    check: t`Status check finished.`,
    restore: t`Restoration finished.`,
    recreate: t`Derived files made again.`,
  };

  return (
    <Card aria-labelledby="file-tools-title" aria-busy={runningKind !== null || undefined}>
      <CardTitle id="file-tools-title">{t`Photo Files`}</CardTitle>
      <CardDescription>
        {t`Check that every record's photo is on the server and intact; restore damaged or missing photos from the backups; make thumbnails and print copies again.`}
      </CardDescription>
      <div className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-3">
        {KINDS.map((kind) => (
          <Button
            key={kind}
            variant={kind === 'check' ? 'primary' : 'outline'}
            onClick={() => start(kind)}
            disabled={runningKind !== null}
            aria-busy={runningKind === kind || undefined}
          >
            {runningKind === kind ? busyLabels[kind] : startLabels[kind]}
          </Button>
        ))}
      </div>
      {run.phase === 'running' ? <TaskProgress kind={run.kind} progress={run.progress} /> : null}
      <p className="sr-only" aria-live="polite">
        {result ? finishedLabels[result.kind] : ''}
      </p>
      {result?.kind === 'check' ? (
        <CheckResult taskId={result.taskId} finishedAt={result.finishedAt} summary={result.summary} records={result.records} />
      ) : null}
      {result?.kind === 'restore' ? <RestoreResult finishedAt={result.finishedAt} summary={result.summary} /> : null}
      {result?.kind === 'recreate' ? <RecreateResult finishedAt={result.finishedAt} summary={result.summary} /> : null}
    </Card>
  );
}
