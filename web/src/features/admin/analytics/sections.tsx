import { Link } from 'react-router';
import type { AnalyticsSummary, CofFigures, ComplianceFigures } from '../../../../../common/schemas/analytics.js';
import { visitDateText } from '../../../lib/date-text.js';
import { type AnalyticsTexts, cofText, curveName, daysText, depthText, numberText, percentText, trendText, useAnalyticsTexts } from './analytics-texts.js';
import { COLOURS, RankChart } from './charts.js';
import { AnalyticsSection, Figure, FigureTable, RecordsLink } from './figure.js';
import { COF, CurveList, PeriodFigure, periodDrill, SectionTable, SERVICE, type SectionProps, Tile } from './section-parts.js';

export function HeadlineTiles({ summary, threshold }: { summary: Omit<AnalyticsSummary, 'asOf' | 'scope' | 'cofAlertThreshold'>; threshold: number }) {
  const T = useAnalyticsTexts();
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
const complianceColumns = (T: AnalyticsTexts) => [
  { header: T.serviceShare, numeric: true },
  { header: T.cofShare, numeric: true },
  { header: T.serviceOverdue, numeric: true },
  { header: T.cofOverdue, numeric: true },
];
const cofColumns = (T: AnalyticsTexts) => [{ header: T.readings, numeric: true }, { header: T.median, numeric: true }, { header: T.p90, numeric: true }, { header: T.aboveShare, numeric: true }];
const cofCells = (row: CofFigures) => [cofText(row.median), cofText(row.p90), percentText(row.aboveThresholdShare)];

export function ComplianceSection({ dashboard, labels, drill, excelUrl }: SectionProps) {
  const T = useAnalyticsTexts();
  const { series, bySection, bySse } = dashboard.compliance;
  const columns = complianceColumns(T);
  const service = series.map((p) => p.service.share);
  const cof = series.map((p) => p.cof.share);
  const hrefOf = periodDrill(dashboard, drill);
  return (
    <AnalyticsSection title={T.complianceTitle} caption={T.complianceCaption}>
      <PeriodFigure
        title={T.complianceChart}
        summary={`${trendText(T.serviceCompliance, service, percentText)} ${trendText(T.cofCompliance, cof, percentText)}`}
        excelUrl={excelUrl('compliance')}
        labels={labels}
        chart={{
          kind: 'line',
          maxAtLeast: 1,
          formatValue: percentText,
          hrefOf,
          series: [
            { key: 'service', label: T.serviceShare, colour: COLOURS.service, values: service },
            { key: 'cof', label: T.cofShare, colour: COLOURS.cof, values: cof },
          ],
        }}
        columns={columns}
        cells={(i, label) => {
          const [serviceShare, cofShare, ...overdue] = series[i] ? shareOfBoth(series[i]) : [];
          return [
            <RecordsLink key="s" href={hrefOf(i, 'service')} label={T.recordsOf(SERVICE, label)}>
              {serviceShare}
            </RecordsLink>,
            <RecordsLink key="c" href={hrefOf(i, 'cof')} label={T.recordsOf(COF, label)}>
              {cofShare}
            </RecordsLink>,
            ...overdue,
          ];
        }}
      />
      <SectionTable caption={T.bySection} kind={SERVICE} drill={drill} rows={bySection} columns={columns} cells={shareOfBoth} />
      <FigureTable caption={T.bySse} columns={[{ header: T.sse }, ...columns]} rows={bySse.map((row) => ({ key: row.sse ?? '', cells: [row.sse ?? T.noSse, ...shareOfBoth(row)] }))} />
    </AnalyticsSection>
  );
}

export function FrictionSection({ dashboard, labels, drill, excelUrl }: SectionProps) {
  const T = useAnalyticsTexts();
  const { series, bySection, rising } = dashboard.friction;
  const columns = cofColumns(T);
  const threshold = dashboard.cofAlertThreshold;
  const medians = series.map((p) => p.median);
  const hrefOf = periodDrill(dashboard, drill);
  const aboveNow = series.at(-1)?.aboveThresholdShare ?? null;
  return (
    <AnalyticsSection title={T.frictionTitle} caption={T.frictionCaption(threshold)}>
      <PeriodFigure
        title={T.frictionChart}
        summary={`${trendText(T.medianCof, medians, cofText)} ${T.aboveInLastPeriod(percentText(aboveNow))}`}
        excelUrl={excelUrl('friction')}
        labels={labels}
        chart={{
          kind: 'line',
          formatValue: cofText,
          threshold: { value: threshold, label: T.thresholdOf(cofText(threshold)) },
          hrefOf,
          series: [
            { key: 'median', label: T.median, colour: COLOURS.service, values: medians },
            { key: 'p90', label: T.p90, colour: COLOURS.p90, values: series.map((p) => p.p90) },
          ],
        }}
        columns={columns}
        cells={(i, label) => [
          <RecordsLink key="n" href={hrefOf(i, 'median')} label={T.recordsOf(COF, label)}>
            {numberText(series[i]?.count ?? null)}
          </RecordsLink>,
          ...(series[i] ? cofCells(series[i]) : []),
        ]}
      />
      <SectionTable caption={T.frictionBySection} kind={COF} drill={drill} rows={bySection} columns={columns} cells={(row) => [numberText(row.count), ...cofCells(row)]} />
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
  const T = useAnalyticsTexts();
  const { series, parts, actions } = dashboard.machines;
  const hrefOf = periodDrill(dashboard, drill);
  const faultTotals = series.map((p) => p.partBroken + p.partStolen + p.machineNotWorking);
  const working = series.map((p) => p.workingRate);
  const top = parts.slice(0, PARETO_ROWS);
  const partName = (p: { category: string; item: string }) => `${p.category} – ${p.item}`;
  const leader = parts[0];
  const partsSummary = leader ? T.partsLeader(partName(leader), leader.count, leader.broken, leader.stolen, percentText(leader.cumulativeShare)) : T.noParts;
  const visitsCell = (i: number, label: string) => (
    <RecordsLink key="v" href={hrefOf(i, 'service')} label={T.recordsOf(SERVICE, label)}>
      {numberText(series[i]?.serviceVisits ?? null)}
    </RecordsLink>
  );
  return (
    <AnalyticsSection title={T.machinesTitle}>
      <PeriodFigure
        title={T.faultsChart}
        summary={trendText(T.faultsChart, faultTotals, numberText)}
        excelUrl={excelUrl('faults')}
        labels={labels}
        chart={{
          kind: 'stacked',
          formatValue: numberText,
          counts: true,
          hrefOf,
          series: [
            { key: 'broken', label: T.partBroken, colour: COLOURS.broken, values: series.map((p) => p.partBroken) },
            { key: 'stolen', label: T.partStolen, colour: COLOURS.stolen, values: series.map((p) => p.partStolen) },
            { key: 'notWorking', label: T.machineNotWorking, colour: COLOURS.notWorking, values: series.map((p) => p.machineNotWorking) },
          ],
        }}
        columns={[{ header: T.partBroken, numeric: true }, { header: T.partStolen, numeric: true }, { header: T.machineNotWorking, numeric: true }, { header: T.serviceVisits, numeric: true }]}
        cells={(i, label) => [numberText(series[i]?.partBroken ?? null), numberText(series[i]?.partStolen ?? null), numberText(series[i]?.machineNotWorking ?? null), visitsCell(i, label)]}
      />
      <Figure
        title={T.partsChart}
        summary={partsSummary}
        excelUrl={excelUrl('parts')}
        chart={
          top.length === 0 ? (
            <p className="text-base text-slate-800">{T.noParts}</p>
          ) : (
            <RankChart
              title={T.partsChart}
              description={partsSummary}
              // The item names a part on a phone's narrow axis; the table gives its category too.
              rows={top.map((p) => p.item)}
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
      <PeriodFigure
        title={T.workingChart}
        summary={trendText(T.workingTrend, working, percentText)}
        labels={labels}
        chart={{ kind: 'line', maxAtLeast: 1, formatValue: percentText, hrefOf, series: [{ key: 'working', label: T.workingRate, colour: COLOURS.service, values: working }] }}
        columns={[{ header: T.workingRate, numeric: true }, { header: T.serviceVisits, numeric: true }]}
        cells={(i, label) => [percentText(working[i] ?? null), visitsCell(i, label)]}
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
  const T = useAnalyticsTexts();
  const { series, bySection, dry } = dashboard.grease;
  const medians = series.map((p) => p.median);
  const hrefOf = periodDrill(dashboard, drill);
  const greaseColumns = [{ header: T.readings, numeric: true }, { header: T.greaseMedian, numeric: true }];
  return (
    <AnalyticsSection title={T.greaseTitle}>
      <PeriodFigure
        title={T.greaseChart}
        summary={trendText(T.greaseTrend, medians, depthText)}
        excelUrl={excelUrl('grease')}
        labels={labels}
        chart={{ kind: 'bars', formatValue: (n) => n.toFixed(1), hrefOf, series: [{ key: 'depth', label: T.greaseMedianCm, colour: COLOURS.service, values: medians }] }}
        columns={greaseColumns}
        cells={(i, label) => [
          <RecordsLink key="n" href={hrefOf(i, 'depth')} label={T.recordsOf(SERVICE, label)}>
            {numberText(series[i]?.count ?? null)}
          </RecordsLink>,
          depthText(medians[i] ?? null),
        ]}
      />
      <SectionTable caption={T.greaseBySection} kind={SERVICE} drill={drill} rows={bySection} columns={greaseColumns} cells={(row) => [numberText(row.count), depthText(row.median)]} />
      <CurveList
        label={T.dry}
        empty={T.noneDry}
        items={dry.map((c) => ({ key: curveName(c) + c.divisionRailway, name: curveName(c), detail: T.lastVisits(c.lastVisits.map(visitDateText).join(', ')) }))}
      />
    </AnalyticsSection>
  );
}

export function FieldWorkSection({ dashboard, drill, excelUrl }: Omit<SectionProps, 'labels'>) {
  const T = useAnalyticsTexts();
  const { technicians } = dashboard.fieldWork;
  const leader = technicians[0];
  const summary = leader ? T.fieldWorkLeader(technicians.length, leader.name, leader.service, leader.cof) : T.noVisits;
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
                return technician && drill ? drill({ technicianId: technician.technicianId, type: key === 'cof' ? COF : SERVICE }) : null;
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
                <RecordsLink key="n" href={technicianRecords(t.technicianId)} label={T.recordsOfTechnician(t.name)}>
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
