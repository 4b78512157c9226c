/**
 * The analytics report (issue 26; POST /api/reports/analytics): the whole dashboard as
 * Analytics_{division}_{yyyy-MM-dd}.pdf, a job like every report. The first page names the
 * filters and scope, who asked and when, and the headline figures; then one page or more per
 * section (schedule compliance, friction, machines and parts, grease, field work), each with
 * its charts drawn as vectors and its figures as tables, so they can be read and searched.
 */
import { dateInTimeZone } from '../../../common/rules/dates.js';
import type { AnalyticsDashboard, AnalyticsReportRequest, AnalyticsScope, ComplianceFigures } from '../../../common/schemas/analytics.js';
import type { ReportJobResponse } from '../../../common/schemas/reports.js';
import type { Actor } from '../../audit/index.js';
import { datedFileName } from '../../content-disposition.js';
import type { Db } from '../../db/client.js';
import { readTableVersions } from '../../db/versioned-cache.js';
import { type BarChart, drawBarChart, SERIES_COLORS } from '../../pdf/pdf-bar-chart.js';
import { COLORS, PdfReport } from '../../pdf/pdf-report.js';
import { PdfTable, type TableColumn } from '../../pdf/pdf-table.js';
import { ANALYTICS_TABLES, type AnalyticsService } from '../analytics/index.js';
import { cofReadingText, curveText, depthText, divisionText, periodLabel, scopeFacts, shareText } from './analytics-text.js';
import { answerSoon } from './record-reports.js';
import type { RenderControl, ReportJob, ReportOutput } from './report-job.js';
import { madeAtText, reportIdText, reportPdfOptions, requesterText } from './report-text.js';
import { type Bilingual, both, joined, REPORT_PHRASES as P, REPORT_WORDS as W, stacked, word } from './report-words.js';
import type { ReportService } from './service.js';

const CHART_HEIGHT = 190;
const CHART_GAP = 12;
/** Technicians and parts in a chart: the most first; the tables list them all. */
const CHART_MAX_CATEGORIES = 12;
const SECTIONS = 5;

export interface AnalyticsPdfDeps {
  db: Db;
  reports: ReportService;
  analytics: AnalyticsService;
  appTimeZone: string;
  now: () => Date;
}

type Requested = Pick<ReportJob, 'id' | 'requester' | 'createdAt'>;

const count = (n: number) => n.toLocaleString('en-GB');
const percentAxis = (v: number) => `${Math.round(v * 100)}%`;

/** Writes the dashboard as the report's PDF; `control` hears the progress and may stop it. */
export async function renderAnalyticsPdf(dashboard: AnalyticsDashboard, job: Requested, timeZone: string, control: RenderControl): Promise<ReportOutput> {
  const { scope } = dashboard;
  const pdf = await PdfReport.open(reportPdfOptions(job, { title: W.analytics, subject: `Analytics: ${scope.division ?? 'All divisions'}, ${scope.from} to ${scope.to}`, timeZone }));
  const sections = [compliancePages, frictionPages, machinePages, greasePages, fieldWorkPages];
  const finished = (async () => {
    firstPage(pdf, dashboard, job, timeZone);
    for (const [i, write] of sections.entries()) {
      control.signal.throwIfAborted();
      pdf.newPage();
      write(pdf, dashboard);
      control.progress((i + 1) / (SECTIONS + 1));
      await pdf.drained();
    }
    const pages = pdf.finish();
    const { visits } = dashboard.summary;
    return { recordCount: visits.service + visits.cof, summary: { pages } };
  })();
  finished.catch((error: unknown) => pdf.output.destroy(error instanceof Error ? error : new Error(String(error))));
  return {
    fileName: datedFileName('Analytics', [scope.division ?? undefined], dateInTimeZone(job.createdAt, timeZone), 'pdf'),
    contentType: 'application/pdf',
    stream: pdf.output,
    finished,
  };
}

const complianceText = (share: number | null, days: number, at: string) => both(share === null ? W.noCurveOnSchedule : P.complianceAt(shareText(share), days, at));

function firstPage(pdf: PdfReport, dashboard: AnalyticsDashboard, job: Requested, timeZone: string): void {
  const { scope, summary } = dashboard;
  pdf.paragraph(word('analytics'), { size: 20, weight: 'bold' }, 2);
  const narrowed = [divisionText(scope), scope.section, scope.sse].filter((part): part is Bilingual | string => part !== null);
  pdf.paragraph(both(joined(', ', ...narrowed, P.dateRange(scope.from, scope.to), P.byGrain(scope.by))), { size: 11 }, 8);
  pdf.heading(word('filtersAndScope'));
  pdf.facts([...scopeFacts(dashboard), [word('madeBy'), requesterText(job)], [word('madeAt'), madeAtText(job.createdAt, timeZone)]]);
  pdf.heading(word('headlineFigures'));
  pdf.facts([
    [word('serviceCompliance'), complianceText(summary.serviceCompliance, 15, scope.to)],
    [word('cofCompliance'), complianceText(summary.cofCompliance, 30, scope.to)],
    [word('cofReadings'), count(summary.cof.count)],
    [word('cofMedianP90'), `${cofReadingText(summary.cof.median)} / ${cofReadingText(summary.cof.p90)}`],
    [both(P.aboveValue(dashboard.cofAlertThreshold.toFixed(2))), shareText(summary.cof.aboveThresholdShare)],
    [word('visits'), both(P.visitCounts(count(summary.visits.service), count(summary.visits.cof)))],
    [word('partsBroken'), count(summary.faults.partBroken)],
    [word('partsStolen'), count(summary.faults.partStolen)],
    [word('machinesNotWorking'), count(summary.faults.machineNotWorking)],
    [word('actionsOpenOverdue'), `${count(summary.actions.open)} / ${count(summary.actions.overdue)}`],
    [word('medianDaysToClose'), summary.actions.medianDaysToClose === null ? '–' : String(summary.actions.medianDaysToClose)],
    [word('openedClosed'), both(P.openedClosedCounts(count(summary.actions.openedInRange), count(summary.actions.closedInRange)))],
  ]);
  pdf.y += 6;
  pdf.paragraph(stacked(W.complianceNote), { size: 8.5, color: COLORS.muted }, 4);
  pdf.paragraph(reportIdText(job), { size: 9, color: COLORS.muted }, 6);
}

/** A chart across the page at the cursor, on the next page when it does not fit. */
function chartAt(pdf: PdfReport, chart: BarChart): void {
  pdf.ensure(CHART_HEIGHT);
  drawBarChart(pdf, { x: pdf.left, y: pdf.y, width: pdf.width, height: CHART_HEIGHT }, chart);
  pdf.y += CHART_HEIGHT + CHART_GAP;
}

/** A titled table, or a line saying there is nothing to list. */
function tableAt(pdf: PdfReport, title: Bilingual, columns: readonly TableColumn[], rows: readonly string[][], none: Bilingual = W.noneInRange): void {
  pdf.heading(both(title), 10.5);
  if (rows.length === 0) {
    pdf.paragraph(both(none), { size: 9, color: COLORS.muted });
    return;
  }
  const table = new PdfTable(pdf, columns);
  for (const row of rows) table.row(row);
  pdf.y += 6;
}

const periodLabels = (dashboard: AnalyticsDashboard) => dashboard.periods.map((p) => periodLabel(p, dashboard.scope.by));
const sectionText = (row: { divisionRailway: string; section: string }, scope: AnalyticsScope) => (scope.division ? row.section : `${row.section} (${row.divisionRailway})`);
const withinText = (f: ComplianceFigures) => `${count(f.within)} of ${count(f.onSchedule)}`;
const right = (header: Bilingual, weight = 1): TableColumn => ({ header: both(header), weight, align: 'right' });
const left = (header: Bilingual, weight: number): TableColumn => ({ header: both(header), weight });

const COMPLIANCE_COLUMNS: readonly TableColumn[] = [
  right(W.serviceWithin, 1.2),
  right(W.serviceShare),
  right(W.serviceOverdue),
  right(W.neverServiced),
  right(W.cofWithin, 1.2),
  right(W.cofShare),
  right(W.cofOverdue),
];
const complianceCells = (row: { service: ComplianceFigures; cof: ComplianceFigures }) => [
  withinText(row.service),
  shareText(row.service.share),
  count(row.service.overdue),
  count(row.service.never),
  withinText(row.cof),
  shareText(row.cof.share),
  count(row.cof.overdue),
];

function compliancePages(pdf: PdfReport, dashboard: AnalyticsDashboard): void {
  const { compliance, scope } = dashboard;
  pdf.heading(word('scheduleCompliance'));
  chartAt(pdf, {
    title: word('complianceChartTitle'),
    categories: periodLabels(dashboard),
    bars: [
      { name: word('service'), color: SERIES_COLORS[0], values: compliance.series.map((p) => p.service.share) },
      { name: word('cof'), color: SERIES_COLORS[1], values: compliance.series.map((p) => p.cof.share) },
    ],
    max: 1,
    format: percentAxis,
  });
  const labels = periodLabels(dashboard);
  tableAt(pdf, W.byPeriod, [left(W.period, 1.3), ...COMPLIANCE_COLUMNS], compliance.series.map((p, i) => [labels[i] ?? p.start, ...complianceCells(p)]));
  tableAt(pdf, P.bySectionAt(scope.to), [left(W.section, 1.8), ...COMPLIANCE_COLUMNS], compliance.bySection.map((s) => [sectionText(s, scope), ...complianceCells(s)]));
  tableAt(pdf, P.bySseAt(scope.to), [left(W.sse, 1.8), ...COMPLIANCE_COLUMNS], compliance.bySse.map((s) => [s.sse ?? word('noSseInRegister'), ...complianceCells(s)]));
}

const COF_COLUMNS: readonly TableColumn[] = [right(W.readings), right(W.median), right(W.percentile90), right(W.aboveThreshold)];
const cofCells = (f: { count: number; median: number | null; p90: number | null; aboveThresholdShare: number | null }) => [
  count(f.count),
  cofReadingText(f.median),
  cofReadingText(f.p90),
  shareText(f.aboveThresholdShare),
];

function frictionPages(pdf: PdfReport, dashboard: AnalyticsDashboard): void {
  const { friction, scope, cofAlertThreshold } = dashboard;
  pdf.heading(word('friction'));
  chartAt(pdf, {
    title: word('frictionChartTitle'),
    categories: periodLabels(dashboard),
    lines: [
      { name: word('median'), color: SERIES_COLORS[0], values: friction.series.map((p) => p.median) },
      { name: word('percentile90'), color: SERIES_COLORS[1], values: friction.series.map((p) => p.p90) },
    ],
    reference: { value: cofAlertThreshold, label: both(P.alertThreshold(cofAlertThreshold.toFixed(2))) },
    format: (v) => v.toFixed(2),
  });
  const labels = periodLabels(dashboard);
  tableAt(pdf, W.byPeriod, [left(W.period, 1.3), ...COF_COLUMNS], friction.series.map((p, i) => [labels[i] ?? p.start, ...cofCells(p)]));
  tableAt(pdf, W.bySectionHighestMedian, [left(W.section, 2), ...COF_COLUMNS], friction.bySection.map((s) => [sectionText(s, scope), ...cofCells(s)]));
  tableAt(
    pdf,
    P.risingCurves(scope.to),
    [left(W.curve, 2), left(W.readingsOldestFirst, 4)],
    friction.rising.map((c) => [curveText(c), c.readings.map((r) => `${r.date}: ${r.value.toFixed(2)}`).join(', ')]),
    W.noRisingCurve,
  );
}

function machinePages(pdf: PdfReport, dashboard: AnalyticsDashboard): void {
  const { machines } = dashboard;
  const labels = periodLabels(dashboard);
  pdf.heading(word('machinesAndParts'));
  chartAt(pdf, {
    title: word('faultsChartTitle'),
    categories: labels,
    bars: [
      { name: word('partBroken'), color: SERIES_COLORS[0], values: machines.series.map((p) => p.partBroken) },
      { name: word('partStolen'), color: SERIES_COLORS[1], values: machines.series.map((p) => p.partStolen) },
      { name: word('machineNotWorking'), color: SERIES_COLORS[3], values: machines.series.map((p) => p.machineNotWorking) },
    ],
    stacked: true,
    format: String,
    whole: true,
  });
  tableAt(
    pdf,
    W.byPeriod,
    [left(W.period, 1.3), right(W.serviceVisits), right(W.partBroken), right(W.partStolen), right(W.notWorking), right(W.workingRate)],
    machines.series.map((p, i) => [labels[i] ?? p.start, count(p.serviceVisits), count(p.partBroken), count(p.partStolen), count(p.machineNotWorking), shareText(p.workingRate)]),
  );
  const top = machines.parts.slice(0, CHART_MAX_CATEGORIES);
  if (top.length > 0) {
    chartAt(pdf, {
      title: both(P.partsChartTitle(machines.parts.length > top.length ? top.length : null)),
      categories: top.map((p) => p.item),
      bars: [
        { name: word('broken'), color: SERIES_COLORS[0], values: top.map((p) => p.broken) },
        { name: word('stolen'), color: SERIES_COLORS[1], values: top.map((p) => p.stolen) },
      ],
      stacked: true,
      format: String,
      whole: true,
    });
  }
  tableAt(
    pdf,
    W.partsMostFaultsFirst,
    [left(W.category, 1.5), left(W.item, 2), right(W.broken), right(W.stolen), right(W.faults), right(W.cumulativeShare)],
    machines.parts.map((p) => [p.category, p.item, count(p.broken), count(p.stolen), count(p.count), shareText(p.cumulativeShare)]),
  );
  tableAt(
    pdf,
    W.partCategories,
    [left(W.category, 2), right(W.faults), right(W.cumulativeShare)],
    machines.categories.map((c) => [c.category, count(c.count), shareText(c.cumulativeShare)]),
  );
  pdf.heading(word('followUpActions'), 10.5);
  const { actions } = machines;
  pdf.facts([
    [both(P.openAt(dashboard.scope.to)), count(actions.open)],
    [word('overdue'), count(actions.overdue)],
    [word('openedInTheRange'), count(actions.openedInRange)],
    [word('closedInTheRange'), count(actions.closedInRange)],
    [word('medianDaysToClose'), actions.medianDaysToClose === null ? '–' : String(actions.medianDaysToClose)],
  ]);
}

function greasePages(pdf: PdfReport, dashboard: AnalyticsDashboard): void {
  const { grease, scope } = dashboard;
  const labels = periodLabels(dashboard);
  pdf.heading(word('grease'));
  chartAt(pdf, {
    title: word('greaseChartTitle'),
    categories: labels,
    bars: [{ name: word('medianDepthCm'), color: SERIES_COLORS[0], values: grease.series.map((p) => p.median) }],
    format: (v) => v.toFixed(1),
  });
  const columns = [right(W.readings), right(W.medianDepthCm)];
  tableAt(pdf, W.byPeriod, [left(W.period, 1.3), ...columns], grease.series.map((p, i) => [labels[i] ?? p.start, count(p.count), depthText(p.median)]));
  tableAt(pdf, W.bySectionOverRange, [left(W.section, 2), ...columns], grease.bySection.map((s) => [sectionText(s, scope), count(s.count), depthText(s.median)]));
  tableAt(
    pdf,
    W.dryCurves,
    [left(W.curve, 2), left(W.lastTwoVisits, 2)],
    grease.dry.map((c) => [curveText(c), c.lastVisits.join(', ')]),
    W.noDryCurve,
  );
}

function fieldWorkPages(pdf: PdfReport, dashboard: AnalyticsDashboard): void {
  const { technicians } = dashboard.fieldWork;
  const labels = periodLabels(dashboard);
  pdf.heading(word('fieldWork'));
  const total = (kind: 'service' | 'cof') => dashboard.periods.map((_, i) => technicians.reduce((sum, t) => sum + (t.series[i]?.[kind] ?? 0), 0));
  chartAt(pdf, {
    title: word('visitsChartTitle'),
    categories: labels,
    bars: [
      { name: word('service'), color: SERIES_COLORS[0], values: total('service') },
      { name: word('cof'), color: SERIES_COLORS[1], values: total('cof') },
    ],
    stacked: true,
    format: String,
    whole: true,
  });
  const top = technicians.slice(0, CHART_MAX_CATEGORIES);
  if (top.length > 0) {
    chartAt(pdf, {
      title: both(P.technicianChartTitle(technicians.length > top.length ? top.length : null)),
      categories: top.map((t) => t.name),
      bars: [
        { name: word('service'), color: SERIES_COLORS[0], values: top.map((t) => t.service) },
        { name: word('cof'), color: SERIES_COLORS[1], values: top.map((t) => t.cof) },
      ],
      stacked: true,
      format: String,
      whole: true,
    });
  }
  tableAt(
    pdf,
    W.perTechnician,
    [left(W.technician, 2.5), left(W.id, 1), right(W.service), right(W.cof), right(W.visits)],
    technicians.map((t) => [t.name, t.technicianId, count(t.service), count(t.cof), count(t.service + t.cof)]),
    W.noVisitsInRange,
  );
}

export function createAnalyticsPdfReport(deps: AnalyticsPdfDeps) {
  async function render(job: ReportJob, control: RenderControl): Promise<ReportOutput> {
    const scope = job.snapshot.scope as AnalyticsScope | undefined;
    if (!scope) throw new Error(`report ${job.id} has no analytics scope`);
    return renderAnalyticsPdf(await deps.analytics.dashboardOf(scope), job, deps.appTimeZone, control);
  }
  deps.reports.register('analytics-pdf', render);

  /** POST /api/reports/analytics: queues the dashboard of the requester's scope, waits a moment, answers where it stands. */
  async function generate(actor: Actor, request: AnalyticsReportRequest): Promise<{ done: boolean; body: ReportJobResponse }> {
    // A Client's own division whatever they ask; the range's defaults fixed now.
    const scope = deps.analytics.scopeOf(actor.user, request);
    const today = dateInTimeZone(deps.now(), deps.appTimeZone);
    const versions = await readTableVersions(deps.db, ANALYTICS_TABLES);
    const queued = await deps.reports.request(actor, {
      kind: 'analytics-pdf',
      // As the recent reports list it: the scope as resolved (a Client's division, the range's defaults).
      params: { ...scope, division: scope.division ?? 'all' },
      snapshot: { scope: { ...scope } },
      division: scope.division,
      // The same figures (no write since, the same day for "as of") and the same person, named in it.
      dependsOn: [scope, today, [...versions.entries()], actor.user.id],
    });
    return answerSoon(deps.reports, queued);
  }

  return { generate };
}

export type AnalyticsPdfReport = ReturnType<typeof createAnalyticsPdfReport>;
