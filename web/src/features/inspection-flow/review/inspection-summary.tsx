import type { SessionEntry } from '../../../../../common/schemas/inspection.js';
import { Card, CardTitle } from '../../../components/ui/card.js';

const TYPE_LABELS: Record<SessionEntry['type'], string> = { Service: 'Service Inspection', CoF: 'CoF Measurement' };

/** The inspection details the technician confirms before the photo (docs/functional-requirements.md, 'Inspection flow: Service'). */
export function InspectionSummary({ entry, technicianName }: { entry: SessionEntry; technicianName: string }) {
  const rows: Array<[string, string]> = [
    ['Type', TYPE_LABELS[entry.type] ?? entry.type],
    ['Date', entry.date],
    ['Division', entry.divisionRailway],
    ['Section', entry.section],
    ['Curve', entry.curveNumber],
    ['Line', entry.line],
    ['Technician', technicianName],
  ];
  return (
    <Card aria-labelledby="inspection-details-title">
      <CardTitle id="inspection-details-title">Inspection Details</CardTitle>
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
