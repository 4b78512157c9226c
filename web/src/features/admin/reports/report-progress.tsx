import { Trans, useLingui } from '@lingui/react/macro';

/**
 * A report being made: a bar a glance can read outdoors and the same figure in words. The
 * percentage is not a live region (it changes every poll); the toast announces the outcome.
 */
export function ReportProgress({ id, progress, recordCount }: { id: string; progress: number; recordCount: number | null }) {
  const { t } = useLingui();
  const text = t`Making the report: ${progress}%`;
  const records = recordCount === null ? null : t`${recordCount} records`;
  return (
    <div className="mt-3 flex flex-col gap-1 rounded-lg border border-slate-300 bg-slate-50 p-3">
      <p id={`${id}-label`} className="text-base font-semibold text-slate-900">
        {text}
        {records === null ? null : <span className="font-normal text-slate-700">{` · ${records}`}</span>}
      </p>
      <div
        role="progressbar"
        aria-labelledby={`${id}-label`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        aria-valuetext={text}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-700 transition-[width] duration-500" style={{ width: `${progress}%` }} />
      </div>
      <p className="text-sm text-slate-700">
        <Trans>You may leave this page: the report is still made, and waits under Your recent reports.</Trans>
      </p>
    </div>
  );
}
