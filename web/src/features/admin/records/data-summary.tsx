import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import type { DataSummary } from '../../../../../common/schemas/records.js';
import { Button } from '../../../components/ui/button.js';
import { Card, CardTitle } from '../../../components/ui/card.js';
import { failureText } from '../../../lib/api-failure.js';
import { DATA_SUMMARY_KEY, parseDataSummary } from './records-api.js';

const ITEMS = [
  ['curveRecords', msg`Curve Records`],
  ['stations', msg`Stations`],
  ['inspectionRecords', msg`Inspection Records`],
] as const satisfies ReadonlyArray<readonly [keyof DataSummary, MessageDescriptor]>;

/** Data Summary (docs/functional-requirements.md, 'Data management'): the counts of curves, stations and inspection records, counted by the server. */
export function DataSummaryCard() {
  const { i18n, t } = useLingui();
  // Counted again each time the view opens: technicians add records all day.
  const summary = useQuery({ queryKey: DATA_SUMMARY_KEY, select: parseDataSummary, staleTime: 0 });

  let body;
  if (summary.isPending) {
    body = <p className="mt-2 text-base text-slate-700">{t`Loading the data summary...`}</p>;
  } else if (summary.isError) {
    body = (
      <div className="mt-2 flex flex-col items-start gap-2">
        <p role="alert" className="text-base font-medium text-red-700">
          {failureText(t`Failed to load the data summary`, summary.error)}
        </p>
        <Button variant="outline" size="sm" onClick={() => void summary.refetch()}>
          {t`Try Again`}
        </Button>
      </div>
    );
  } else {
    const data = summary.data;
    body = (
      <dl className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-3">
        {ITEMS.map(([key, label]) => (
          <div key={key} className="rounded-lg border border-slate-300 p-3">
            <dt className="text-sm text-slate-700">{i18n._(label)}</dt>
            {/* Indian grouping (1,23,456) in both languages: Hindi's hi-IN writes the same Latin digits. */}
            <dd className="text-2xl font-bold text-slate-900 tabular-nums">{data[key].toLocaleString('en-IN')}</dd>
          </div>
        ))}
      </dl>
    );
  }

  return (
    <Card aria-labelledby="data-summary-title" aria-busy={summary.isFetching || undefined}>
      <CardTitle id="data-summary-title">{t`Data Summary`}</CardTitle>
      {body}
    </Card>
  );
}
