import type { SessionEntry } from '../../../../../common/schemas/inspection.js';
import { Card, CardTitle } from '../../../components/ui/card.js';

/** What step 1 chose, so the technician can check they are logging the right curve. */
export function CurveSummary({ entry }: { entry: SessionEntry }) {
  const rows: [string, string][] = [
    ['Division/Railway', entry.divisionRailway],
    ['Section', entry.section],
    ['Curve Number', entry.curveNumber],
    ['Line', entry.line],
    ['Station 1', entry.station1],
    ['Station 2', entry.station2],
    ['SSE (Railway Engineer)', entry.railwayEngineer || entry.sse],
  ];
  return (
    <Card aria-labelledby="curve-summary-title">
      <CardTitle id="curve-summary-title">Selected Curve</CardTitle>
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
