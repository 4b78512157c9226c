import { Trans, useLingui } from '@lingui/react/macro';
import type { SessionEntry } from '../../../../../common/schemas/inspection.js';
import { Card, CardTitle } from '../../../components/ui/card.js';
import { inspectionTypeLabel, lineLabel } from '../value-labels.js';

/** The inspection details the technician confirms before the photo (docs/functional-requirements.md, 'Inspection flow: Service'). */
export function InspectionSummary({ entry, technicianName }: { entry: SessionEntry; technicianName: string }) {
  const { t, i18n } = useLingui();
  const rows: Array<[string, string]> = [
    [t`Type`, inspectionTypeLabel(entry.type, i18n)],
    [t`Date`, entry.date],
    [t`Division`, entry.divisionRailway],
    [t`Section`, entry.section],
    [t`Curve`, entry.curveNumber],
    [t`Line`, lineLabel(entry.line, i18n)],
    [t`Technician`, technicianName],
  ];
  return (
    <Card aria-labelledby="inspection-details-title">
      <CardTitle id="inspection-details-title">
        <Trans>Inspection Details</Trans>
      </CardTitle>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-base">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-semibold text-slate-700">{term}</dt>
            <dd className="break-words text-slate-900">{value || '—'}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
