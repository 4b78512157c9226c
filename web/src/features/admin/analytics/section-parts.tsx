/** The pieces every section of the Analytics view builds on: a figure per period, a table per section, a list of curves, a tile. */
import type { ReactNode } from 'react';
import { INSPECTION_TYPES, type InspectionType } from '../../../../../common/constants.js';
import type { AnalyticsChart, AnalyticsDashboard } from '../../../../../common/schemas/analytics.js';
import type { RecordsDrill } from './analytics-query.js';
import { useAnalyticsTexts } from './analytics-texts.js';
import { PeriodChart, type PeriodChartProps } from './charts.js';
import { Figure, FigureTable, type Column, RecordsLink } from './figure.js';

/** The records behind a figure for an Admin (the range and scope filled in); null for a Client, who cannot open them. */
export type Drill = ((drill: Partial<RecordsDrill>) => string) | null;

export interface SectionProps {
  dashboard: AnalyticsDashboard;
  /** Each period's name on the axis. */
  labels: readonly string[];
  drill: Drill;
  excelUrl: (chart: AnalyticsChart) => string;
}

/** The records' kinds as stored (and sent in the records view's URL), never translated. */
export type Kind = InspectionType;
export const [SERVICE, COF] = INSPECTION_TYPES;
const KIND_OF_SERIES: Record<string, Kind> = { service: SERVICE, cof: COF, median: COF, p90: COF, depth: SERVICE, working: SERVICE };

/** A period's records of the kind a series counts. */
export function periodDrill(dashboard: AnalyticsDashboard, drill: Drill) {
  return (index: number, seriesKey: string) => {
    const period = dashboard.periods[index];
    if (!drill || !period) return null;
    return drill({ type: KIND_OF_SERIES[seriesKey] ?? SERVICE, from: period.start, to: period.end });
  };
}

/** A figure per period: its chart, and its table a row a period with the figure's own columns. */
export function PeriodFigure({
  title,
  summary,
  excelUrl,
  labels,
  chart,
  columns,
  cells,
}: {
  title: string;
  summary: string;
  excelUrl?: string;
  labels: readonly string[];
  chart: Omit<PeriodChartProps, 'title' | 'description' | 'labels'>;
  columns: readonly Column[];
  /** A period's cells after its name. */
  cells: (index: number, label: string) => ReactNode[];
}) {
  const T = useAnalyticsTexts();
  return (
    <Figure
      title={title}
      summary={summary}
      excelUrl={excelUrl}
      chart={<PeriodChart title={title} description={summary} labels={labels} {...chart} />}
      table={<FigureTable caption={title} columns={[{ header: T.periodColumn }, ...columns]} rows={labels.map((label, i) => ({ key: `${i}`, cells: [label, ...cells(i, label)] }))} />}
    />
  );
}

/** A table a row a section, its name opening the section's records of a kind (Admins). */
export function SectionTable<R extends { divisionRailway: string; section: string }>({
  caption,
  kind,
  drill,
  rows,
  columns,
  cells,
}: {
  caption: string;
  kind: Kind;
  drill: Drill;
  rows: readonly R[];
  columns: readonly Column[];
  cells: (row: R) => ReactNode[];
}) {
  const T = useAnalyticsTexts();
  return (
    <FigureTable
      caption={caption}
      columns={[{ header: T.sectionColumn }, ...columns]}
      rows={rows.map((row) => ({
        key: `${row.divisionRailway}|${row.section}`,
        cells: [
          <RecordsLink key="n" href={drill?.({ type: kind, division: row.divisionRailway, section: row.section }) ?? null} label={T.recordsOf(kind, row.section)}>
            {row.section}
          </RecordsLink>,
          ...cells(row),
        ],
      }))}
    />
  );
}

export function Tile({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-300 bg-slate-50 p-2">
      <dt className="text-sm text-slate-800">{label}</dt>
      <dd className="text-2xl font-bold text-slate-900 tabular-nums">{value}</dd>
    </div>
  );
}

export function CurveList({ label, empty, items }: { label: string; empty: string; items: readonly { key: string; name: string; detail: string }[] }) {
  return (
    <div>
      <h3 className="text-base font-bold text-slate-900">{label}</h3>
      {items.length === 0 ? (
        <p className="mt-1 text-base text-slate-800">{empty}</p>
      ) : (
        <ul aria-label={label} className="mt-1 flex flex-col gap-1 text-base text-slate-900">
          {items.map((item) => (
            <li key={item.key} className="border-b border-slate-200 py-1">
              <span className="font-semibold">{item.name}</span> <span className="text-slate-800">{item.detail}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

