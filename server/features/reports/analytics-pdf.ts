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
import { madeAtText } from './report-text.js';
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
export function renderAnalyticsPdf(dashboard: AnalyticsDashboard, job: Requested, timeZone: string, control: RenderControl): ReportOutput {
  const { scope } = dashboard;
  const title = 'Analytics';
  const madeBy = `Made by ${job.requester.name} (${job.requester.employeeId}) on ${madeAtText(job.createdAt, timeZone)}`;
  const pdf = new PdfReport({ title, reference: `Report ${job.id}`, madeBy, subject: `${title}: ${divisionText(scope)}, ${scope.from} to ${scope.to}`, author: job.requester.name });
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

const complianceText = (share: number | null, days: number, at: string) =>
  share === null ? '– (no curve on the schedule)' : `${shareText(share)} within ${days} days at ${at}`;

function firstPage(pdf: PdfReport, dashboard: AnalyticsDashboard, job: Requested, timeZone: string): void {
  const { scope, summary } = dashboard;
  pdf.paragraph('Analytics', { size: 20, weight: 'bold' }, 2);
  const narrowed = [divisionText(scope), scope.section, scope.sse].filter((part): part is string => part !== null);
  pdf.paragraph(`${narrowed.join(', ')}, ${scope.from} to ${scope.to}, by ${scope.by}`, { size: 11 }, 8);
  pdf.heading('Filters and scope');
  pdf.facts([...scopeFacts(dashboard), ['Made by', `${job.requester.name} (${job.requester.employeeId})`], ['Made at', madeAtText(job.createdAt, timeZone)]]);
  pdf.heading('Headline figures');
  pdf.facts([
    ['Service compliance', complianceText(summary.serviceCompliance, 15, scope.to)],
    ['CoF compliance', complianceText(summary.cofCompliance, 30, scope.to)],
    ['CoF readings', count(summary.cof.count)],
    ['CoF median / 90th pct', `${cofReadingText(summary.cof.median)} / ${cofReadingText(summary.cof.p90)}`],
    [`Above ${dashboard.cofAlertThreshold.toFixed(2)}`, shareText(summary.cof.aboveThresholdShare)],
    ['Visits', `${count(summary.visits.service)} Service, ${count(summary.visits.cof)} CoF`],
    ['Parts broken', count(summary.faults.partBroken)],
    ['Parts stolen', count(summary.faults.partStolen)],
    ['Machines not working', count(summary.faults.machineNotWorking)],
    ['Actions open / overdue', `${count(summary.actions.open)} / ${count(summary.actions.overdue)}`],
    ['Median days to close', summary.actions.medianDaysToClose === null ? '–' : String(summary.actions.medianDaysToClose)],
    ['Opened / closed', `${count(summary.actions.openedInRange)} / ${count(summary.actions.closedInRange)} actions in the range`],
  ]);
  pdf.y += 6;
  pdf.paragraph(
    'Compliance is taken at the end of the range (and of each period in the charts): of the curves with a machine, the share whose last visit is within its interval. Readings, faults and visits are those dated in the range.',
    { size: 8.5, color: COLORS.muted },
    4,
  );
  pdf.paragraph(`Report ID: ${job.id}`, { size: 9, color: COLORS.muted }, 6);
}

/** A chart across the page at the cursor, on the next page when it does not fit. */
function chartAt(pdf: PdfReport, chart: BarChart): void {
  pdf.ensure(CHART_HEIGHT);
  drawBarChart(pdf, { x: pdf.left, y: pdf.y, width: pdf.width, height: CHART_HEIGHT }, chart);
  pdf.y += CHART_HEIGHT + CHART_GAP;
}

/** A titled table, or a line saying there is nothing to list. */
function tableAt(pdf: PdfReport, title: string, columns: readonly TableColumn[], rows: readonly string[][], none = 'None in the range.'): void {
  pdf.heading(title, 10.5);
  if (rows.length === 0) {
    pdf.paragraph(none, { size: 9, color: COLORS.muted });
    return;
  }
  const table = new PdfTable(pdf, columns);
  for (const row of rows) table.row(row);
  pdf.y += 6;
}

const periodLabels = (dashboard: AnalyticsDashboard) => dashboard.periods.map((p) => periodLabel(p, dashboard.scope.by));
const sectionText = (row: { divisionRailway: string; section: string }, scope: AnalyticsScope) => (scope.division ? row.section : `${row.section} (${row.divisionRailway})`);
const withinText = (f: ComplianceFigures) => `${count(f.within)} of ${count(f.onSchedule)}`;
const right = (header: string, weight = 1): TableColumn => ({ header, weight, align: 'right' });

const COMPLIANCE_COLUMNS: readonly TableColumn[] = [
  right('Service within', 1.2),
  right('Service share'),
  right('Service overdue'),
  right('Never serviced'),
  right('CoF within', 1.2),
  right('CoF share'),
  right('CoF overdue'),
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
  pdf.heading('Schedule compliance');
  chartAt(pdf, {
    title: 'Curves within their interval at each period’s end (Service 15 days, CoF 30 days)',
    categories: periodLabels(dashboard),
    bars: [
      { name: 'Service', color: SERIES_COLORS[0], values: compliance.series.map((p) => p.service.share) },
      { name: 'CoF', color: SERIES_COLORS[1], values: compliance.series.map((p) => p.cof.share) },
    ],
    max: 1,
    format: percentAxis,
  });
  const labels = periodLabels(dashboard);
  tableAt(pdf, 'By period', [{ header: 'Period', weight: 1.3 }, ...COMPLIANCE_COLUMNS], compliance.series.map((p, i) => [labels[i] ?? p.start, ...complianceCells(p)]));
  tableAt(pdf, `By section at ${scope.to}, worst Service share first`, [{ header: 'Section', weight: 1.8 }, ...COMPLIANCE_COLUMNS], compliance.bySection.map((s) => [sectionText(s, scope), ...complianceCells(s)]));
  tableAt(pdf, `By SSE at ${scope.to}, worst Service share first`, [{ header: 'SSE', weight: 1.8 }, ...COMPLIANCE_COLUMNS], compliance.bySse.map((s) => [s.sse ?? 'No SSE in the register', ...complianceCells(s)]));
}

const COF_COLUMNS: readonly TableColumn[] = [right('Readings'), right('Median'), right('90th percentile'), right('Above threshold')];
const cofCells = (f: { count: number; median: number | null; p90: number | null; aboveThresholdShare: number | null }) => [
  count(f.count),
  cofReadingText(f.median),
  cofReadingText(f.p90),
  shareText(f.aboveThresholdShare),
];

function frictionPages(pdf: PdfReport, dashboard: AnalyticsDashboard): void {
  const { friction, scope, cofAlertThreshold } = dashboard;
  pdf.heading('Friction');
  chartAt(pdf, {
    title: 'CoF readings per period: median and 90th percentile',
    categories: periodLabels(dashboard),
    lines: [
      { name: 'Median', color: SERIES_COLORS[0], values: friction.series.map((p) => p.median) },
      { name: '90th percentile', color: SERIES_COLORS[1], values: friction.series.map((p) => p.p90) },
    ],
    reference: { value: cofAlertThreshold, label: `Alert threshold ${cofAlertThreshold.toFixed(2)}` },
    format: (v) => v.toFixed(2),
  });
  const labels = periodLabels(dashboard);
  tableAt(pdf, 'By period', [{ header: 'Period', weight: 1.3 }, ...COF_COLUMNS], friction.series.map((p, i) => [labels[i] ?? p.start, ...cofCells(p)]));
  tableAt(pdf, 'By section over the range, highest median first', [{ header: 'Section', weight: 2 }, ...COF_COLUMNS], friction.bySection.map((s) => [sectionText(s, scope), ...cofCells(s)]));
  tableAt(
    pdf,
    `Curves whose last three readings rise (up to ${scope.to})`,
    [
      { header: 'Curve', weight: 2 },
      { header: 'Readings, oldest first', weight: 4 },
    ],
    friction.rising.map((c) => [curveText(c), c.readings.map((r) => `${r.date}: ${r.value.toFixed(2)}`).join(', ')]),
    'No curve’s friction rises over its last three readings.',
  );
}

function machinePages(pdf: PdfReport, dashboard: AnalyticsDashboard): void {
  const { machines } = dashboard;
  const labels = periodLabels(dashboard);
  pdf.heading('Machines and parts');
  chartAt(pdf, {
    title: 'Faults reported by Service visits, per period',
    categories: labels,
    bars: [
      { name: 'Part broken', color: SERIES_COLORS[0], values: machines.series.map((p) => p.partBroken) },
      { name: 'Part stolen', color: SERIES_COLORS[1], values: machines.series.map((p) => p.partStolen) },
      { name: 'Machine not working', color: SERIES_COLORS[3], values: machines.series.map((p) => p.machineNotWorking) },
    ],
    stacked: true,
    format: String,
    whole: true,
  });
  tableAt(
    pdf,
    'By period',
    [{ header: 'Period', weight: 1.3 }, right('Service visits'), right('Part broken'), right('Part stolen'), right('Not working'), right('Working rate')],
    machines.series.map((p, i) => [labels[i] ?? p.start, count(p.serviceVisits), count(p.partBroken), count(p.partStolen), count(p.machineNotWorking), shareText(p.workingRate)]),
  );
  const top = machines.parts.slice(0, CHART_MAX_CATEGORIES);
  if (top.length > 0) {
    chartAt(pdf, {
      title: `Parts broken or stolen over the range, most first${machines.parts.length > top.length ? ` (the first ${top.length})` : ''}`,
      categories: top.map((p) => p.item),
      bars: [
        { name: 'Broken', color: SERIES_COLORS[0], values: top.map((p) => p.broken) },
        { name: 'Stolen', color: SERIES_COLORS[1], values: top.map((p) => p.stolen) },
      ],
      stacked: true,
      format: String,
      whole: true,
    });
  }
  tableAt(
    pdf,
    'Parts, most faults first',
    [{ header: 'Category', weight: 1.5 }, { header: 'Item', weight: 2 }, right('Broken'), right('Stolen'), right('Faults'), right('Cumulative share')],
    machines.parts.map((p) => [p.category, p.item, count(p.broken), count(p.stolen), count(p.count), shareText(p.cumulativeShare)]),
  );
  tableAt(
    pdf,
    'Part categories',
    [{ header: 'Category', weight: 2 }, right('Faults'), right('Cumulative share')],
    machines.categories.map((c) => [c.category, count(c.count), shareText(c.cumulativeShare)]),
  );
  pdf.heading('Follow-up actions', 10.5);
  const { actions } = machines;
  pdf.facts([
    [`Open at ${dashboard.scope.to}`, count(actions.open)],
    ['Overdue', count(actions.overdue)],
    ['Opened in the range', count(actions.openedInRange)],
    ['Closed in the range', count(actions.closedInRange)],
    ['Median days to close', actions.medianDaysToClose === null ? '–' : String(actions.medianDaysToClose)],
  ]);
}

function greasePages(pdf: PdfReport, dashboard: AnalyticsDashboard): void {
  const { grease, scope } = dashboard;
  const labels = periodLabels(dashboard);
  pdf.heading('Grease');
  chartAt(pdf, {
    title: 'Grease depth read at Service visits: median per period (cm)',
    categories: labels,
    bars: [{ name: 'Median depth (cm)', color: SERIES_COLORS[0], values: grease.series.map((p) => p.median) }],
    format: (v) => v.toFixed(1),
  });
  const columns = [right('Readings'), right('Median depth (cm)')];
  tableAt(pdf, 'By period', [{ header: 'Period', weight: 1.3 }, ...columns], grease.series.map((p, i) => [labels[i] ?? p.start, count(p.count), depthText(p.median)]));
  tableAt(pdf, 'By section over the range', [{ header: 'Section', weight: 2 }, ...columns], grease.bySection.map((s) => [sectionText(s, scope), count(s.count), depthText(s.median)]));
  tableAt(
    pdf,
    'Curves that stay dry: depth 0 at their last two Service visits (a blocked or empty machine)',
    [
      { header: 'Curve', weight: 2 },
      { header: 'Last two visits', weight: 2 },
    ],
    grease.dry.map((c) => [curveText(c), c.lastVisits.join(', ')]),
    'No curve read a depth of 0 at its last two visits.',
  );
}

function fieldWorkPages(pdf: PdfReport, dashboard: AnalyticsDashboard): void {
  const { technicians } = dashboard.fieldWork;
  const labels = periodLabels(dashboard);
  pdf.heading('Field work');
  const total = (kind: 'service' | 'cof') => dashboard.periods.map((_, i) => technicians.reduce((sum, t) => sum + (t.series[i]?.[kind] ?? 0), 0));
  chartAt(pdf, {
    title: 'Visits per period, all technicians',
    categories: labels,
    bars: [
      { name: 'Service', color: SERIES_COLORS[0], values: total('service') },
      { name: 'CoF', color: SERIES_COLORS[1], values: total('cof') },
    ],
    stacked: true,
    format: String,
    whole: true,
  });
  const top = technicians.slice(0, CHART_MAX_CATEGORIES);
  if (top.length > 0) {
    chartAt(pdf, {
      title: `Visits per technician over the range, most first${technicians.length > top.length ? ` (the first ${top.length})` : ''}`,
      categories: top.map((t) => t.name),
      bars: [
        { name: 'Service', color: SERIES_COLORS[0], values: top.map((t) => t.service) },
        { name: 'CoF', color: SERIES_COLORS[1], values: top.map((t) => t.cof) },
      ],
      stacked: true,
      format: String,
      whole: true,
    });
  }
  tableAt(
    pdf,
    'Per technician, most visits first',
    [{ header: 'Technician', weight: 2.5 }, { header: 'ID', weight: 1 }, right('Service'), right('CoF'), right('Visits')],
    technicians.map((t) => [t.name, t.technicianId, count(t.service), count(t.cof), count(t.service + t.cof)]),
    'No visits in the range.',
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
