/**
 * One analytics chart's data as Excel (GET /api/analytics/export?chart=...):
 * Analytics_{chart}_{division}_{yyyy-MM-dd}.xlsx, streamed as it is written: the chart's series
 * per period, then its tables (compliance: by section and by SSE; parts: items and categories;
 * field work: each technician with a column per period), and an About sheet naming the scope,
 * who downloaded it and when. Shares are 0-1 numbers shown as percentages.
 */
import { dateInTimeZone } from '../../../common/rules/dates.js';
import type { PublicUser } from '../../../common/schemas/auth.js';
import type { AnalyticsChart, AnalyticsDashboard, AnalyticsExportQuery, ComplianceFigures, CofFigures } from '../../../common/schemas/analytics.js';
import { datedFileName } from '../../content-disposition.js';
import type { CellValue, SheetColumn, StreamWorkbook } from '../../xlsx/stream-workbook.js';
import type { AnalyticsService } from '../analytics/index.js';
import { periodLabel, scopeFacts } from './analytics-text.js';
import type { ReportJob, ReportOutput } from './report-job.js';
import { type Bilingual, both, REPORT_PHRASES as P, REPORT_WORDS as W, type SheetTitle, sheetNamed, word } from './report-words.js';
import { column, writeAboutSheet, xlsxReportOutput } from './xlsx-report.js';

export const ANALYTICS_CHART_TITLES: Record<AnalyticsChart, Bilingual> = {
  compliance: W.scheduleCompliance,
  friction: W.frictionCofReadings,
  faults: W.machineFaults,
  parts: W.partsBrokenOrStolen,
  grease: W.greaseDepth,
  'field-work': W.fieldWork,
};

type Row = CellValue[];
type Sheet = { name: SheetTitle; columns: SheetColumn[]; rows: Row[] };

const text = (title: Bilingual, width = 18): SheetColumn => column(title, width, { text: true });
const number = (title: Bilingual, width = 12): SheetColumn => column(title, width);
const percent = (title: Bilingual, width = 14): SheetColumn => column(title, width, { percent: true });
const date = (title: Bilingual, width = 11): SheetColumn => column(title, width, { date: true });
const PERIOD_COLUMNS: SheetColumn[] = [text(W.period, 12), date(W.start), date(W.end)];
const SECTION_COLUMNS: SheetColumn[] = [text(W.division, 12), text(W.section, 20)];
const CURVE_COLUMNS: SheetColumn[] = [...SECTION_COLUMNS, text(W.curve, 8), text(W.line, 8)];

const COMPLIANCE_COLUMNS = (['Service', 'CoF'] as const).flatMap((kind) => [
  number(P.ofKind(kind, 'onSchedule'), 13),
  number(P.ofKind(kind, 'within'), 11),
  number(P.ofKind(kind, 'overdue'), 11),
  number(P.ofKind(kind, 'neverVisited'), 13),
  percent(P.ofKind(kind, 'shareWithin')),
]);
const complianceCells = (row: { service: ComplianceFigures; cof: ComplianceFigures }): Row =>
  [row.service, row.cof].flatMap((f) => [f.onSchedule, f.within, f.overdue, f.never, f.share]);

const COF_COLUMNS = [number(W.readings, 10), number(W.median), number(W.percentile90, 14), percent(W.shareAboveThreshold, 20)];
const cofCells = (f: CofFigures): Row => [f.count, f.median, f.p90, f.aboveThresholdShare];

/** The sheets of one chart, in order. */
function sheetsOf(dashboard: AnalyticsDashboard, chart: AnalyticsChart): Sheet[] {
  const { scope } = dashboard;
  const periodCells = (p: { start: string; end: string }): Row => [periodLabel(p, scope.by), p.start, p.end];
  switch (chart) {
    case 'compliance':
      return [
        { name: 'byPeriod', columns: [...PERIOD_COLUMNS, ...COMPLIANCE_COLUMNS], rows: dashboard.compliance.series.map((p) => [...periodCells(p), ...complianceCells(p)]) },
        { name: 'bySection', columns: [...SECTION_COLUMNS, ...COMPLIANCE_COLUMNS], rows: dashboard.compliance.bySection.map((s) => [s.divisionRailway, s.section, ...complianceCells(s)]) },
        { name: 'bySse', columns: [text(W.sse, 24), ...COMPLIANCE_COLUMNS], rows: dashboard.compliance.bySse.map((s) => [s.sse ?? word('noSseInRegister'), ...complianceCells(s)]) },
      ];
    case 'friction':
      return [
        { name: 'byPeriod', columns: [...PERIOD_COLUMNS, ...COF_COLUMNS], rows: dashboard.friction.series.map((p) => [...periodCells(p), ...cofCells(p)]) },
        { name: 'bySection', columns: [...SECTION_COLUMNS, ...COF_COLUMNS], rows: dashboard.friction.bySection.map((s) => [s.divisionRailway, s.section, ...cofCells(s)]) },
        {
          name: 'risingCurves',
          columns: [...CURVE_COLUMNS, ...[1, 2, 3].flatMap((n) => [date(P.readingDate(n), 14), number(P.reading(n), 10)])],
          rows: dashboard.friction.rising.map((c) => [c.divisionRailway, c.section, c.curveNumber, c.line, ...c.readings.flatMap((r) => [r.date, r.value])]),
        },
      ];
    case 'faults': {
      const { actions } = dashboard.machines;
      return [
        {
          name: 'byPeriod',
          columns: [...PERIOD_COLUMNS, number(W.serviceVisits, 13), number(W.partBroken), number(W.partStolen), number(W.machineNotWorking, 18), percent(W.machineWorkingRate, 19)],
          rows: dashboard.machines.series.map((p) => [...periodCells(p), p.serviceVisits, p.partBroken, p.partStolen, p.machineNotWorking, p.workingRate]),
        },
        {
          name: 'followUpActions',
          columns: [number(P.openAt(scope.to), 18), number(W.overdue, 10), number(W.openedInRange, 15), number(W.closedInRange, 15), number(W.medianDaysToClose, 19)],
          rows: [[actions.open, actions.overdue, actions.openedInRange, actions.closedInRange, actions.medianDaysToClose]],
        },
      ];
    }
    case 'parts':
      return [
        {
          name: 'items',
          columns: [text(W.category, 16), text(W.item, 24), number(W.broken, 9), number(W.stolen, 9), number(W.faults, 9), percent(W.cumulativeShare, 16)],
          rows: dashboard.machines.parts.map((p) => [p.category, p.item, p.broken, p.stolen, p.count, p.cumulativeShare]),
        },
        {
          name: 'categories',
          columns: [text(W.category, 16), number(W.faults, 9), percent(W.cumulativeShare, 16)],
          rows: dashboard.machines.categories.map((c) => [c.category, c.count, c.cumulativeShare]),
        },
      ];
    case 'grease':
      return [
        { name: 'byPeriod', columns: [...PERIOD_COLUMNS, number(W.readings, 10), number(W.medianDepthCm, 17)], rows: dashboard.grease.series.map((p) => [...periodCells(p), p.count, p.median]) },
        { name: 'bySection', columns: [...SECTION_COLUMNS, number(W.readings, 10), number(W.medianDepthCm, 17)], rows: dashboard.grease.bySection.map((s) => [s.divisionRailway, s.section, s.count, s.median]) },
        {
          name: 'dryCurves',
          columns: [...CURVE_COLUMNS, date(W.visitBefore, 13), date(W.lastVisit, 13)],
          rows: dashboard.grease.dry.map((c) => [c.divisionRailway, c.section, c.curveNumber, c.line, ...[...c.lastVisits].sort()]),
        },
      ];
    case 'field-work': {
      const labels = dashboard.periods.map((p) => periodLabel(p, scope.by));
      return [
        {
          name: 'technicians',
          columns: [
            text(W.technicianId, 14),
            text(W.name, 24),
            number(W.service),
            number(W.cof),
            number(W.visits),
            ...labels.flatMap((label) => [number(P.periodVisits(label, 'Service'), 15), number(P.periodVisits(label, 'CoF'), 13)]),
          ],
          rows: dashboard.fieldWork.technicians.map((t) => [t.technicianId, t.name, t.service, t.cof, t.service + t.cof, ...t.series.flatMap((s) => [s.service, s.cof])]),
        },
      ];
    }
  }
}

/** The chart's workbook, streamed as it is written; `made` names who asked and when. */
export function analyticsWorkbook(dashboard: AnalyticsDashboard, chart: AnalyticsChart, made: Pick<ReportJob, 'requester' | 'createdAt'>, timeZone: string): ReportOutput {
  const fileName = datedFileName('Analytics', [chart, dashboard.scope.division ?? undefined], dateInTimeZone(made.createdAt, timeZone), 'xlsx');
  return xlsxReportOutput(fileName, async (workbook: StreamWorkbook) => {
    let rows = 0;
    for (const sheet of sheetsOf(dashboard, chart)) {
      const writer = workbook.addSheet(sheetNamed(sheet.name), sheet.columns);
      await writer.writeRows(sheet.rows);
      writer.end();
      rows += sheet.rows.length;
    }
    await writeAboutSheet(
      workbook,
      [[word('chart'), both(ANALYTICS_CHART_TITLES[chart])], ...scopeFacts(dashboard), [word('shares'), both(W.sharesNote)]],
      made,
      timeZone,
    );
    return { recordCount: rows, summary: {} };
  });
}

export interface AnalyticsExportDeps {
  analytics: AnalyticsService;
  appTimeZone: string;
  now: () => Date;
}

export function createAnalyticsExport(deps: AnalyticsExportDeps) {
  /** The chart's workbook for `user`: a Client's own division whatever they ask. */
  async function open(user: PublicUser, query: AnalyticsExportQuery): Promise<ReportOutput> {
    const dashboard = await deps.analytics.dashboardOf(deps.analytics.scopeOf(user, query));
    return analyticsWorkbook(dashboard, query.chart, { requester: { userId: user.id, employeeId: user.employeeId, name: user.name }, createdAt: deps.now() }, deps.appTimeZone);
  }
  return { open };
}

export type AnalyticsExport = ReturnType<typeof createAnalyticsExport>;
