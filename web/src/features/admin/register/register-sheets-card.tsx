import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { DIVISIONS } from '../../../../../common/constants.js';
import type { RegisterKind } from '../../../../../common/schemas/register.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { toast } from '../../../components/ui/toast-store.js';
import { ApiError } from '../../../lib/api-client.js';
import { failureText } from '../../../lib/api-failure.js';
import { FilterSelect } from '../../../components/ui/filter-select.js';
import { saveFile } from '../records/index.js';
import { ImportPreviewDialog } from './import-preview-dialog.js';
import { exportRegister, importSheet, invalidateRegister, type PendingImport, rowErrorsOf } from './register-api.js';

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Data-management's sheets ('Import Station Data', CSV; docs/functional-requirements.md, 'Data management'): pick a CSV or XLSX,
 * see what it would do (a dry run: rows to add, change and leave, unknown columns, every bad
 * row), then import it all or nothing. The register goes back out as XLSX, whole or one division.
 */
export function RegisterSheetsCard() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const [picking, setPicking] = useState<RegisterKind>('stations');
  const [pending, setPending] = useState<PendingImport | null>(null);
  const [division, setDivision] = useState('');
  const [exportFailed, setExportFailed] = useState(false);

  const importFailed = (error: unknown) =>
    toast({ variant: 'destructive', title: t`Import Failed`, description: failureText(t`Failed to import Excel file`, error) });

  const check = useMutation({
    mutationFn: ({ type, file }: { type: RegisterKind; file: File }) => importSheet(type, file, true).then((result) => ({ type, file, result })),
    onSuccess: setPending,
    onError: importFailed,
  });

  const load = useMutation({
    mutationFn: ({ type, file }: PendingImport) => importSheet(type, file, false),
    onSuccess: async (result) => {
      setPending(null);
      const { count } = result;
      toast({ title: t`Import Successful`, description: t`Imported ${count} records successfully` });
      await invalidateRegister(queryClient);
    },
    onError: (error, asked) => {
      importFailed(error);
      // Rows refused now (another admin changed the register since the preview) show in the preview.
      const rowErrors = error instanceof ApiError ? rowErrorsOf(error.bodyText) : [];
      if (rowErrors.length > 0) setPending({ ...asked, result: { ...asked.result, valid: false, rowErrors } });
    },
  });

  const exporting = useMutation({
    mutationFn: ({ kind }: { kind: RegisterKind }) => exportRegister(kind, division),
    onMutate: () => setExportFailed(false),
    onSuccess: saveFile,
    onError: () => setExportFailed(true),
  });

  const pick = (type: RegisterKind) => {
    setPicking(type);
    inputRef.current?.click();
  };
  const importLabels: Record<RegisterKind, string> = { stations: t`Import Station Data`, curves: t`Import Curve Data` };
  const exportLabels: Record<RegisterKind, string> = { stations: t`Export Stations`, curves: t`Export Curves` };
  const busyKind = check.isPending ? check.variables.type : load.isPending ? load.variables.type : null;

  return (
    <Card aria-labelledby="register-sheets-title">
      <CardTitle id="register-sheets-title">{t`Station & Curve Sheets`}</CardTitle>
      <CardDescription>
        <Trans>
          Import a CSV (UTF-8) or XLSX sheet: rows are matched by section and station code, or by section, curve number and line, and
          nothing is written unless every row is valid. Export gives the register as XLSX, to edit and import back.
        </Trans>
      </CardDescription>
      <input
        ref={inputRef}
        type="file"
        accept={ACCEPT}
        // Opened by the two import buttons, which are what people and screen readers meet.
        hidden
        data-testid="register-import-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) check.mutate({ type: picking, file });
        }}
      />
      <div className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-2">
        {(['stations', 'curves'] as const).map((kind) => (
          <Button key={kind} onClick={() => pick(kind)} disabled={busyKind !== null} aria-busy={busyKind === kind || undefined}>
            {busyKind === kind ? t`Importing...` : importLabels[kind]}
          </Button>
        ))}
      </div>
      <div className="mt-4 grid grid-cols-1 items-end gap-2 sm:grid-cols-3">
        <FilterSelect
          id="export-division"
          label={t`Export division`}
          value={division}
          onChange={setDivision}
          all={{ value: '', label: t`All divisions` }}
          options={DIVISIONS}
        />
        {(['stations', 'curves'] as const).map((kind) => (
          <Button
            key={kind}
            variant="outline"
            onClick={() => exporting.mutate({ kind })}
            disabled={exporting.isPending}
            aria-busy={(exporting.isPending && exporting.variables.kind === kind) || undefined}
          >
            {exporting.isPending && exporting.variables.kind === kind ? t`Exporting...` : exportLabels[kind]}
          </Button>
        ))}
      </div>
      {exportFailed ? (
        <p role="alert" className="mt-2 text-base font-medium text-red-700">
          {t`Export failed. Please try again.`}
        </p>
      ) : null}
      {pending ? (
        <ImportPreviewDialog
          pending={pending}
          importing={load.isPending}
          onImport={() => load.mutate(pending)}
          onCancel={() => setPending(null)}
        />
      ) : null}
    </Card>
  );
}
