import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef } from 'react';
import { Button } from '../../../components/ui/button.js';
import { useModalFocus } from '../../../components/ui/use-modal-focus.js';
import type { PendingImport } from './register-api.js';

/** Rows of errors drawn at once; the rest are counted (the server names them all). */
const ERRORS_SHOWN = 200;
// Indian digit grouping (12,34,567) in both languages: hi-IN writes the same Latin digits.
const count = (n: number) => n.toLocaleString('en-IN');

/**
 * What an import would do, before it does it: the dry run's counts, the columns it will not
 * read, and every bad row with its column and rule. Import stays off while any row is bad.
 */
export function ImportPreviewDialog({
  pending,
  importing,
  onImport,
  onCancel,
}: {
  pending: PendingImport;
  importing: boolean;
  onImport: () => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const onKeyDown = useModalFocus(dialogRef, cancelRef, () => {
    if (!importing) onCancel();
  });
  const { result, file } = pending;
  const badRows = new Set(result.rowErrors.map((e) => e.row)).size;
  const fileName = file.name;
  const more = count(result.rowErrors.length - ERRORS_SHOWN);
  const bad = count(badRows);
  const columns = result.unknownColumns.join(', ');
  const rows = count(result.count);
  const nothingToDo = result.added + result.changed === 0;

  return (
    <div className="fixed inset-0 z-30 overflow-y-auto bg-slate-900/60 sm:p-4">
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
        className="mx-auto flex min-h-full w-full max-w-2xl flex-col gap-4 bg-white p-4 shadow-xl sm:min-h-0 sm:rounded-xl"
      >
        <div>
          <h2 id={titleId} className="text-xl font-bold text-slate-900">
            {t`Import preview`}
          </h2>
          <p className="text-sm break-all text-slate-700">
            {result.type === 'stations' ? t`${fileName} · station data` : t`${fileName} · curve data`}
          </p>
        </div>
        {result.valid ? (
          <p className="text-base text-slate-900">
            {t`${rows} rows are valid.`}{' '}
            {nothingToDo ? t`The register already holds every one of them: importing changes nothing.` : t`Nothing is written until you import.`}
          </p>
        ) : (
          <p role="alert" className="rounded-lg border-2 border-red-700 bg-red-50 p-3 text-base font-semibold text-red-800">
            {badRows === 1
              ? t`1 row is not valid. Nothing can be imported until the file is corrected.`
              : t`${bad} rows are not valid. Nothing can be imported until the file is corrected.`}
          </p>
        )}
        <dl className="grid grid-cols-3 gap-3">
          {(
            [
              [t`To add`, result.added],
              [t`To change`, result.changed],
              [t`Unchanged`, result.unchanged],
            ] as const
          ).map(([label, value]) => (
            <div key={label} className="rounded-lg border border-slate-300 p-3">
              <dt className="text-sm text-slate-700">{label}</dt>
              <dd className="text-2xl font-bold text-slate-900 tabular-nums">{count(value)}</dd>
            </div>
          ))}
        </dl>
        {result.unknownColumns.length > 0 ? (
          <p className="rounded-lg border border-amber-600 bg-amber-50 p-3 text-base text-slate-900">
            <Trans>
              Columns not read (no such field): <span className="font-semibold">{columns}</span>
            </Trans>
          </p>
        ) : null}
        {result.rowErrors.length > 0 ? (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="mb-2 text-left text-base font-semibold text-slate-900">{t`Rows to correct`}</caption>
              <thead>
                <tr className="border-b border-slate-300">
                  <th scope="col" className="py-2 pr-3">
                    {t`Row`}
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    {t`Column`}
                  </th>
                  <th scope="col" className="py-2">
                    {t`Problem`}
                  </th>
                </tr>
              </thead>
              <tbody>
                {result.rowErrors.slice(0, ERRORS_SHOWN).map((e, i) => (
                  <tr key={`${e.row}-${e.column}-${i}`} className="border-b border-slate-200 align-top">
                    <td className="py-2 pr-3 font-semibold tabular-nums">{e.row}</td>
                    <td className="py-2 pr-3">{e.column}</td>
                    <td className="py-2">{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {result.rowErrors.length > ERRORS_SHOWN ? (
              <p className="mt-2 text-sm text-slate-700">{t`and ${more} more problems.`}</p>
            ) : null}
          </div>
        ) : null}
        <div className="sticky bottom-0 -mx-4 -mb-4 grid grid-cols-2 gap-3 border-t border-slate-200 bg-white px-4 py-3 sm:rounded-b-xl">
          <Button ref={cancelRef} variant="outline" size="lg" onClick={onCancel} disabled={importing}>
            {t`Cancel`}
          </Button>
          <Button size="lg" onClick={onImport} disabled={importing || !result.valid || result.count === 0} aria-busy={importing || undefined}>
            {importing ? t`Importing...` : t`Import ${rows} records`}
          </Button>
        </div>
      </div>
    </div>
  );
}
