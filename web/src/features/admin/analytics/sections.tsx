import { Link } from 'react-router';
import type { AnalyticsDashboard, AnalyticsSummary, ComplianceFigures } from '../../../../../common/schemas/analytics.js';
import type { AnalyticsChart } from '../../../../../common/schemas/analytics.js';
import { visitDateText } from '../../../lib/date-text.js';
import type { RecordsDrill } from './analytics-query.js';
import { ANALYTICS_TEXTS as T, cofText, daysText, depthText, numberText, percentText, trendText } from './analytics-texts.js';
import { COLOURS, PeriodChart, RankChart } from './charts.js';
import { AnalyticsSection, Figure, FigureTable, RecordsLink } from './figure.js';

/** The records behind a figure for an Admin (the range and scope filled in); null for a Client, who cannot open them. */
export type Drill = ((drill: Partial<RecordsDrill>) => string) | null;

export interface SectionProps {
  dashboard: AnalyticsDashboard;
  /** Each period's name on the axis. */
  labels: readonly string[];
  drill: Drill;
  excelUrl: (chart: AnalyticsChart) => string;
}

type Kind = 'Service' | 'CoF';
const KIND_OF_SERIES: Record<string, Kind> = { service: 'Service', cof: 'CoF', median: 'CoF', p90: 'CoF', depth: 'Service', working: 'Service' };

/** A period's records of the kind a series counts. */
function periodDrill(dashboard: AnalyticsDashboard, drill: Drill) {
  return (index: number, seriesKey: string) => {
    const period = dashboard.periods[index];
    if (!drill || !period) return null;
    return drill({ type: KIND_OF_SERIES[seriesKey] ?? 'Service', from: period.start, to: period.end });
  };
}

function Tile({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-300 bg-slate-50 p-2">
      <dt className="text-sm text-slate-800">{label}</dt>
      <dd className="text-2xl font-bold text-slate-900 tabular-nums">{value}</dd>
    </div>
  );
}

export function HeadlineTiles({ summary, threshold }: { summary: Omit<AnalyticsSummary, 'asOf' | 'scope' | 'cofAlertThreshold'>; threshold: number }) {
  const tiles: [string, string][] = [
    [T.serviceCompliance, percentText(summary.serviceCompliance)],
    [T.cofCompliance, percentText(summary.cofCompliance)],
    [T.cofMedian, cofText(summary.cof.median)],
    [T.cofP90, cofText(summary.cof.p90)],
    [T.cofAbove(threshold), percentText(summary.cof.aboveThresholdShare)],
    [T.visitsService, numberText(summary.visits.service)],
    [T.visitsCof, numberText(summary.visits.cof)],
    [T.partBroken, numberText(summary.faults.partBroken)],
    [T.partStolen, numberText(summary.faults.partStolen)],
    [T.machineNotWorking, numberText(summary.faults.machineNotWorking)],
    [T.openActions, numberText(summary.actions.open)],
    [T.overdueActions, numberText(summary.actions.overdue)],
    [T.medianDaysToClose, daysText(summary.actions.medianDaysToClose)],
  ];
  return (
    <AnalyticsSection title={T.headline}>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
        {tiles.map(([label, value]) => (
          <Tile key={label} label={label} value={value} />
        ))}
      </dl>
    </AnalyticsSection>
  );
}

const shareOfBoth = (row: { service: ComplianceFigures; cof: ComplianceFigures }) => [percentText(row.service.share), percentText(row.cof.share), numberText(row.service.overdue), numberText(row.cof.overdue)];
const COMPLIANCE_COLUMNS = [
  { header: T.serviceShare, numeric: true },
  { header: T.cofShare, numeric: true },
  { header: T.serviceOverdue, numeric: true },
  { header: T.cofOverdue, numeric: true },
];

export function ComplianceSection({ dashboard, labels, drill, excelUrl }: SectionProps) {
  const { series, bySection, bySse } = dashboard.compliance;
  const service = series.map((p) => p.service.share);
  const cof = series.map((p) => p.cof.share);
  const hrefOf = periodDrill(dashboard, drill);
  return (
    <AnalyticsSection title={T.complianceTitle} caption={T.complianceCaption}>
      <Figure
        title={T.complianceChart}
        summary={`${trendText(T.serviceCompliance, service, percentText)} ${trendText(T.cofCompliance, cof, percentText)}`}
        excelUrl={excelUrl('compliance')}
        chart={
          <PeriodChart
            title={T.complianceChart}
            description={trendText(T.serviceCompliance, service, percentText)}
            labels={labels}
            kind="line"
            maxAtLeast={1}
            formatValue={percentText}
            hrefOf={hrefOf}
            series={[
              { key: 'service', label: T.serviceShare, colour: COLOURS.service, values: service },
              { key: 'cof', label: T.cofShare, colour: COLOURS.cof, values: cof },
            ]}
          />
        }
        table={
          <FigureTable
            caption={T.complianceChart}
            columns={[{ header: T.periodColumn }, ...COMPLIANCE_COLUMNS]}
            rows={series.map((p, i) => {
              const [serviceShare, cofShare, ...overdue] = shareOfBoth(p);
              return {
                key: p.start,
                cells: [
                  labels[i],
                  <RecordsLink key="s" href={hrefOf(i, 'service')} label={T.recordsOf('Service', labels[i] ?? '')}>
                    {serviceShare}
                  </RecordsLink>,
                  <RecordsLink key="c" href={hrefOf(i, 'cof')} label={T.recordsOf('CoF', labels[i] ?? '')}>
                    {cofShare}
                  </RecordsLink>,
                  ...overdue,
                ],
              };
            })}
          />
        }
      />
      <FigureTable
        caption={T.bySection}
        columns={[{ header: T.sectionColumn }, ...COMPLIANCE_COLUMNS]}
        rows={bySection.map((row) => ({
          key: `${row.divisionRailway}|${row.section}`,
          cells: [
            <RecordsLink key="n" href={drill?.({ type: 'Service', division: row.divisionRailway, section: row.section }) ?? null} label={T.recordsOf('Service', row.section)}>
              {row.section}
            </RecordsLink>,
            ...shareOfBoth(row),
          ],
        }))}
      />
      <FigureTable caption={T.bySse} columns={[{ header: T.sse }, ...COMPLIANCE_COLUMNS]} rows={bySse.map((row) => ({ key: row.sse ?? '', cells: [row.sse ?? T.noSse, ...shareOfBoth(row)] }))} />
    </AnalyticsSection>
  );
}

function CurveList({ label, empty, items }: { label: string; empty: string; items: readonly { key: string; name: string; detail: string }[] }) {
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

const curveName = (c: { divisionRailway: string; section: string; curveNumber: string; line: string }) => `${c.section} · Curve ${c.curveNumber} · ${c.line}`;

export function FrictionSection({ dashboard, labels, drill, excelUrl }: SectionProps) {
  const { series, bySection, rising } = dashboard.friction;
  const threshold = dashboard.cofAlertThreshold;
  const medians = series.map((p) => p.median);
  const hrefOf = periodDrill(dashboard, drill);
  const aboveNow = series.at(-1)?.aboveThresholdShare ?? null;
  return (
    <AnalyticsSection title={T.frictionTitle} caption={T.frictionCaption(threshold)}>
      <Figure
        title={T.frictionChart}
        summary={`${trendText('The median CoF', medians, cofText)} ${T.aboveShare} in the last period: ${percentText(aboveNow)}.`}
        excelUrl={excelUrl('friction')}
        chart={
          <PeriodChart
            title={T.frictionChart}
            description={trendText('The median CoF', medians, cofText)}
            labels={labels}
            kind="line"
            formatValue={cofText}
            threshold={{ value: threshold, label: `${T.threshold} ${cofText(threshold)}` }}
            hrefOf={hrefOf}
            series={[
              { key: 'median', label: T.median, colour: COLOURS.service, values: medians },
              { key: 'p90', label: T.p90, colour: COLOURS.p90, values: series.map((p) => p.p90) },
            ]}
          />
        }
        table={
          <FigureTable
            caption={T.frictionChart}
            columns={[{ header: T.periodColumn }, { header: T.readings, numeric: true }, { header: T.median, numeric: true }, { header: T.p90, numeric: true }, { header: T.aboveShare, numeric: true }]}
            rows={series.map((p, i) => ({
              key: p.start,
              cells: [
                labels[i],
                <RecordsLink key="n" href={hrefOf(i, 'median')} label={T.recordsOf('CoF', labels[i] ?? '')}>
                  {numberText(p.count)}
                </RecordsLink>,
                cofText(p.median),
                cofText(p.p90),
                percentText(p.aboveThresholdShare),
              ],
            }))}
          />
        }
      />
      <FigureTable
        caption={T.frictionBySection}
        columns={[{ header: T.sectionColumn }, { header: T.readings, numeric: true }, { header: T.median, numeric: true }, { header: T.p90, numeric: true }, { header: T.aboveShare, numeric: true }]}
        rows={bySection.map((row) => ({
          key: `${row.divisionRailway}|${row.section}`,
          cells: [
            <RecordsLink key="n" href={drill?.({ type: 'CoF', division: row.divisionRailway, section: row.section }) ?? null} label={T.recordsOf('CoF', row.section)}>
              {row.section}
            </RecordsLink>,
            numberText(row.count),
            cofText(row.median),
            cofText(row.p90),
            percentText(row.aboveThresholdShare),
          ],
        }))}
      />
      <CurveList
        label={T.rising}
        empty={T.noneRising}
        items={rising.map((c) => ({ key: curveName(c) + c.divisionRailway, name: curveName(c), detail: c.readings.map((r) => cofText(r.value)).join(' → ') }))}
      />
    </AnalyticsSection>
  );
}

/** The Pareto reads at a glance with its first dozen items; the table holds them all. */
const PARETO_ROWS = 12;

export function MachinesSection({ dashboard, labels, drill, excelUrl, actionsSearch }: SectionProps & { actionsSearch: string }) {
  const { series, parts, actions } = dashboard.machines;
  const hrefOf = periodDrill(dashboard, drill);
  const faultTotals = series.map((p) => p.partBroken + p.partStolen + p.machineNotWorking);
  const working = series.map((p) => p.workingRate);
  const top = parts.slice(0, PARETO_ROWS);
  const partName = (p: { category: string; item: string }) => `${p.category} – ${p.item}`;
  const leader = parts[0];
  return (
    <AnalyticsSection title={T.machinesTitle}>
      <Figure
        title={T.faultsChart}
        summary={trendText('Faults reported per period', faultTotals, numberText)}
        excelUrl={excelUrl('faults')}
        chart={
          <PeriodChart
            title={T.faultsChart}
            description={trendText('Faults reported per period', faultTotals, numberText)}
            labels={labels}
            kind="stacked"
            formatValue={numberText}
            hrefOf={hrefOf}
            series={[
              { key: 'broken', label: T.partBroken, colour: COLOURS.broken, values: series.map((p) => p.partBroken) },
              { key: 'stolen', label: T.partStolen, colour: COLOURS.stolen, values: series.map((p) => p.partStolen) },
              { key: 'notWorking', label: T.machineNotWorking, colour: COLOURS.notWorking, values: series.map((p) => p.machineNotWorking) },
            ]}
          />
        }
        table={
          <FigureTable
            caption={T.faultsChart}
            columns={[{ header: T.periodColumn }, { header: T.partBroken, numeric: true }, { header: T.partStolen, numeric: true }, { header: T.machineNotWorking, numeric: true }, { header: T.serviceVisits, numeric: true }]}
            rows={series.map((p, i) => ({
              key: p.start,
              cells: [
                labels[i],
                numberText(p.partBroken),
                numberText(p.partStolen),
                numberText(p.machineNotWorking),
                <RecordsLink key="v" href={hrefOf(i, 'service')} label={T.recordsOf('Service', labels[i] ?? '')}>
                  {numberText(p.serviceVisits)}
                </RecordsLink>,
              ],
            }))}
          />
        }
      />
      <Figure
        title={T.partsChart}
        summary={leader ? `${partName(leader)} leads with ${leader.count} (${leader.broken} broken, ${leader.stolen} stolen), ${percentText(leader.cumulativeShare)} of all part faults.` : T.noParts}
        excelUrl={excelUrl('parts')}
        chart={
          top.length === 0 ? (
            <p className="text-base text-slate-800">{T.noParts}</p>
          ) : (
            <RankChart
              title={T.partsChart}
              description={leader ? `${partName(leader)} leads with ${leader.count}.` : T.noParts}
              rows={top.map(partName)}
              series={[
                { key: 'broken', label: T.broken, colour: COLOURS.broken, values: top.map((p) => p.broken) },
                { key: 'stolen', label: T.stolen, colour: COLOURS.stolen, values: top.map((p) => p.stolen) },
              ]}
              cumulative={{ label: T.cumulative, values: top.map((p) => p.cumulativeShare) }}
            />
          )
        }
        table={
          <FigureTable
            caption={T.partsChart}
            columns={[{ header: T.part }, { header: T.broken, numeric: true }, { header: T.stolen, numeric: true }, { header: T.total, numeric: true }, { header: T.cumulative, numeric: true }]}
            rows={parts.map((p) => ({ key: partName(p), cells: [partName(p), numberText(p.broken), numberText(p.stolen), numberText(p.count), percentText(p.cumulativeShare)] }))}
          />
        }
      />
      <Figure
        title={T.workingChart}
        summary={trendText('The machines working rate', working, percentText)}
        chart={
          <PeriodChart
            title={T.workingChart}
            description={trendText('The machines working rate', working, percentText)}
            labels={labels}
            kind="line"
            maxAtLeast={1}
            formatValue={percentText}
            hrefOf={hrefOf}
            series={[{ key: 'working', label: T.workingRate, colour: COLOURS.service, values: working }]}
          />
        }
        table={
          <FigureTable
            caption={T.workingChart}
            columns={[{ header: T.periodColumn }, { header: T.workingRate, numeric: true }, { header: T.serviceVisits, numeric: true }]}
            rows={series.map((p, i) => ({ key: p.start, cells: [labels[i], percentText(p.workingRate), numberText(p.serviceVisits)] }))}
          />
        }
      />
      <div>
        <h3 className="text-base font-bold text-slate-900">{T.actionsTitle}</h3>
        <dl className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-5">
          <Tile label={T.openActions} value={numberText(actions.open)} />
          <Tile label={T.overdueActions} value={numberText(actions.overdue)} />
          <Tile label={T.medianDaysToClose} value={daysText(actions.medianDaysToClose)} />
          <Tile label={T.openedInRange} value={numberText(actions.openedInRange)} />
          <Tile label={T.closedInRange} value={numberText(actions.closedInRange)} />
        </dl>
        <Link to={actionsSearch} className="mt-2 inline-flex min-h-11 items-center font-semibold text-brand-800 underline">
          {T.openActionsView}
        </Link>
      </div>
    </AnalyticsSection>
  );
}

export function GreaseSection({ dashboard, labels, drill, excelUrl }: SectionProps) {
  const { series, bySection, dry } = dashboard.grease;
  const medians = series.map((p) => p.median);
  const hrefOf = periodDrill(dashboard, drill);
  return (
    <AnalyticsSection title={T.greaseTitle}>
      <Figure
        title={T.greaseChart}
        summary={trendText('The median grease depth', medians, depthText)}
        excelUrl={excelUrl('grease')}
        chart={
          <PeriodChart
            title={T.greaseChart}
            description={trendText('The median grease depth', medians, depthText)}
            labels={labels}
            kind="bars"
            formatValue={(n) => n.toFixed(1)}
            hrefOf={hrefOf}
            series={[{ key: 'depth', label: `${T.greaseMedian} (cm)`, colour: COLOURS.service, values: medians }]}
          />
        }
        table={
          <FigureTable
            caption={T.greaseChart}
            columns={[{ header: T.periodColumn }, { header: T.readings, numeric: true }, { header: T.greaseMedian, numeric: true }]}
            rows={series.map((p, i) => ({
              key: p.start,
              cells: [
                labels[i],
                <RecordsLink key="n" href={hrefOf(i, 'depth')} label={T.recordsOf('Service', labels[i] ?? '')}>
                  {numberText(p.count)}
                </RecordsLink>,
                depthText(p.median),
              ],
            }))}
          />
        }
      />
      <FigureTable
        caption={T.greaseBySection}
        columns={[{ header: T.sectionColumn }, { header: T.readings, numeric: true }, { header: T.greaseMedian, numeric: true }]}
        rows={bySection.map((row) => ({
          key: `${row.divisionRailway}|${row.section}`,
          cells: [
            <RecordsLink key="n" href={drill?.({ type: 'Service', division: row.divisionRailway, section: row.section }) ?? null} label={T.recordsOf('Service', row.section)}>
              {row.section}
            </RecordsLink>,
            numberText(row.count),
            depthText(row.median),
          ],
        }))}
      />
      <CurveList
        label={T.dry}
        empty={T.noneDry}
        items={dry.map((c) => ({ key: curveName(c) + c.divisionRailway, name: curveName(c), detail: `${T.lastVisits}: ${c.lastVisits.map(visitDateText).join(', ')}` }))}
      />
    </AnalyticsSection>
  );
}

export function FieldWorkSection({ dashboard, drill, excelUrl }: Omit<SectionProps, 'labels'>) {
  const { technicians } = dashboard.fieldWork;
  const leader = technicians[0];
  const summary = leader ? `${technicians.length} technicians; ${leader.name} made the most visits: ${leader.service} Service and ${leader.cof} CoF.` : T.noVisits;
  const technicianRecords = (technicianId: string) => drill?.({ technicianId }) ?? null;
  return (
    <AnalyticsSection title={T.fieldWorkTitle}>
      <Figure
        title={T.fieldWorkChart}
        summary={summary}
        excelUrl={excelUrl('field-work')}
        chart={
          technicians.length === 0 ? (
            <p className="text-base text-slate-800">{T.noVisits}</p>
          ) : (
            <RankChart
              title={T.fieldWorkChart}
              description={summary}
              rows={technicians.map((t) => t.name)}
              hrefOf={(i, key) => {
                const technician = technicians[i];
                return technician && drill ? drill({ technicianId: technician.technicianId, type: key === 'cof' ? 'CoF' : 'Service' }) : null;
              }}
              series={[
                { key: 'service', label: T.service, colour: COLOURS.service, values: technicians.map((t) => t.service) },
                { key: 'cof', label: T.cof, colour: COLOURS.cof, values: technicians.map((t) => t.cof) },
              ]}
            />
          )
        }
        table={
          <FigureTable
            caption={T.fieldWorkChart}
            columns={[{ header: T.technician }, { header: T.service, numeric: true }, { header: T.cof, numeric: true }, { header: T.total, numeric: true }]}
            rows={technicians.map((t) => ({
              key: t.technicianId,
              cells: [
                <RecordsLink key="n" href={technicianRecords(t.technicianId)} label={`Open the records of ${t.name}`}>
                  {t.name}
                </RecordsLink>,
                numberText(t.service),
                numberText(t.cof),
                numberText(t.service + t.cof),
              ],
            }))}
          />
        }
      />
    </AnalyticsSection>
  );
}
