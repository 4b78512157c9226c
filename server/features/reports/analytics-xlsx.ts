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
import { writeAboutSheet, xlsxReportOutput } from './xlsx-report.js';

export const ANALYTICS_CHART_TITLES: Record<AnalyticsChart, string> = {
  compliance: 'Schedule compliance',
  friction: 'Friction (CoF readings)',
  faults: 'Machine faults',
  parts: 'Parts broken or stolen',
  grease: 'Grease depth',
  'field-work': 'Field work',
};

type Row = CellValue[];
type Sheet = { name: string; columns: SheetColumn[]; rows: Row[] };

const text = (header: string, width = 18): SheetColumn => ({ header, width, text: true });
const number = (header: string, width = 12): SheetColumn => ({ header, width });
const percent = (header: string, width = 14): SheetColumn => ({ header, width, percent: true });
const PERIOD_COLUMNS: SheetColumn[] = [text('Period', 12), { header: 'Start', width: 11, date: true }, { header: 'End', width: 11, date: true }];
const SECTION_COLUMNS: SheetColumn[] = [text('Division', 12), text('Section', 20)];
const CURVE_COLUMNS: SheetColumn[] = [...SECTION_COLUMNS, text('Curve', 8), text('Line', 8)];

const COMPLIANCE_COLUMNS = (['Service', 'CoF'] as const).flatMap((kind) => [
  number(`${kind} on schedule`, 13),
  number(`${kind} within`, 11),
  number(`${kind} overdue`, 11),
  number(`${kind} never visited`, 13),
  percent(`${kind} share within`),
]);
const complianceCells = (row: { service: ComplianceFigures; cof: ComplianceFigures }): Row =>
  [row.service, row.cof].flatMap((f) => [f.onSchedule, f.within, f.overdue, f.never, f.share]);

const COF_COLUMNS = [number('Readings', 10), number('Median'), number('90th percentile', 14), percent('Share above threshold', 20)];
const cofCells = (f: CofFigures): Row => [f.count, f.median, f.p90, f.aboveThresholdShare];

/** The sheets of one chart, in order. */
function sheetsOf(dashboard: AnalyticsDashboard, chart: AnalyticsChart): Sheet[] {
  const { scope } = dashboard;
  const periodCells = (p: { start: string; end: string }): Row => [periodLabel(p, scope.by), p.start, p.end];
  switch (chart) {
    case 'compliance':
      return [
        { name: 'By period', columns: [...PERIOD_COLUMNS, ...COMPLIANCE_COLUMNS], rows: dashboard.compliance.series.map((p) => [...periodCells(p), ...complianceCells(p)]) },
        { name: 'By section', columns: [...SECTION_COLUMNS, ...COMPLIANCE_COLUMNS], rows: dashboard.compliance.bySection.map((s) => [s.divisionRailway, s.section, ...complianceCells(s)]) },
        { name: 'By SSE', columns: [text('SSE', 24), ...COMPLIANCE_COLUMNS], rows: dashboard.compliance.bySse.map((s) => [s.sse ?? 'No SSE in the register', ...complianceCells(s)]) },
      ];
    case 'friction':
      return [
        { name: 'By period', columns: [...PERIOD_COLUMNS, ...COF_COLUMNS], rows: dashboard.friction.series.map((p) => [...periodCells(p), ...cofCells(p)]) },
        { name: 'By section', columns: [...SECTION_COLUMNS, ...COF_COLUMNS], rows: dashboard.friction.bySection.map((s) => [s.divisionRailway, s.section, ...cofCells(s)]) },
        {
          name: 'Rising curves',
          columns: [...CURVE_COLUMNS, ...[1, 2, 3].flatMap((n) => [{ header: `Reading ${n} date`, width: 14, date: true }, number(`Reading ${n}`, 10)])],
          rows: dashboard.friction.rising.map((c) => [c.divisionRailway, c.section, c.curveNumber, c.line, ...c.readings.flatMap((r) => [r.date, r.value])]),
        },
      ];
    case 'faults': {
      const { actions } = dashboard.machines;
      return [
        {
          name: 'By period',
          columns: [...PERIOD_COLUMNS, number('Service visits', 13), number('Part broken'), number('Part stolen'), number('Machine not working', 18), percent('Machine working rate', 19)],
          rows: dashboard.machines.series.map((p) => [...periodCells(p), p.serviceVisits, p.partBroken, p.partStolen, p.machineNotWorking, p.workingRate]),
        },
        {
          name: 'Follow-up actions',
          columns: [number(`Open at ${scope.to}`, 18), number('Overdue', 10), number('Opened in range', 15), number('Closed in range', 15), number('Median days to close', 19)],
          rows: [[actions.open, actions.overdue, actions.openedInRange, actions.closedInRange, actions.medianDaysToClose]],
        },
      ];
    }
    case 'parts':
      return [
        {
          name: 'Items',
          columns: [text('Category', 16), text('Item', 24), number('Broken', 9), number('Stolen', 9), number('Faults', 9), percent('Cumulative share', 16)],
          rows: dashboard.machines.parts.map((p) => [p.category, p.item, p.broken, p.stolen, p.count, p.cumulativeShare]),
        },
        {
          name: 'Categories',
          columns: [text('Category', 16), number('Faults', 9), percent('Cumulative share', 16)],
          rows: dashboard.machines.categories.map((c) => [c.category, c.count, c.cumulativeShare]),
        },
      ];
    case 'grease':
      return [
        { name: 'By period', columns: [...PERIOD_COLUMNS, number('Readings', 10), number('Median depth (cm)', 17)], rows: dashboard.grease.series.map((p) => [...periodCells(p), p.count, p.median]) },
        { name: 'By section', columns: [...SECTION_COLUMNS, number('Readings', 10), number('Median depth (cm)', 17)], rows: dashboard.grease.bySection.map((s) => [s.divisionRailway, s.section, s.count, s.median]) },
        {
          name: 'Dry curves',
          columns: [...CURVE_COLUMNS, { header: 'Visit before', width: 13, date: true }, { header: 'Last visit', width: 13, date: true }],
          rows: dashboard.grease.dry.map((c) => [c.divisionRailway, c.section, c.curveNumber, c.line, ...[...c.lastVisits].sort()]),
        },
      ];
    case 'field-work': {
      const labels = dashboard.periods.map((p) => periodLabel(p, scope.by));
      return [
        {
          name: 'Technicians',
          columns: [
            text('Technician ID', 14),
            text('Name', 24),
            number('Service'),
            number('CoF'),
            number('Visits'),
            ...labels.flatMap((label) => [number(`${label} Service`, 15), number(`${label} CoF`, 13)]),
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
      const writer = workbook.addSheet(sheet.name, sheet.columns);
      await writer.writeRows(sheet.rows);
      writer.end();
      rows += sheet.rows.length;
    }
    await writeAboutSheet(
      workbook,
      [['Chart', ANALYTICS_CHART_TITLES[chart]], ...scopeFacts(dashboard), ['Shares', 'Shown as percentages; the cells hold 0-1 numbers']],
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
