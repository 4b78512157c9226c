import { Trans, useLingui } from '@lingui/react/macro';
import type { SessionEntry } from '../../../../../common/schemas/inspection.js';
import { Card, CardTitle } from '../../../components/ui/card.js';
import { lineLabel } from '../value-labels.js';

/** What step 1 chose, so the technician can check they are logging the right curve. */
export function CurveSummary({ entry }: { entry: SessionEntry }) {
  const { t, i18n } = useLingui();
  const rows: [string, string][] = [
    [t`Division/Railway`, entry.divisionRailway],
    [t`Section`, entry.section],
    [t`Curve Number`, entry.curveNumber],
    [t`Line`, lineLabel(entry.line, i18n)],
    [t`Station 1`, entry.station1],
    [t`Station 2`, entry.station2],
    [t`SSE (Railway Engineer)`, entry.railwayEngineer || entry.sse],
  ];
  return (
    <Card aria-labelledby="curve-summary-title">
      <CardTitle id="curve-summary-title">
        <Trans>Selected Curve</Trans>
      </CardTitle>
      {/* Two columns of label-over-value: long labels never squeeze the values on a phone. */}
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3">
        {rows.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className="break-words text-base font-semibold text-slate-900">{value || '—'}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
