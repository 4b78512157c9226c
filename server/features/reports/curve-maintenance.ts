/**
 * The Excel maintenance report (docs/functional-requirements.md, 'Excel Reports (curve maintenance)'): which curves of a division
 * or section need a Service visit or a CoF measurement, from the schedule rule as the database
 * works it out. Sheets: "Summary" (counts per section), "Service due" and "CoF due" (one row
 * per curve needing attention, in register order, overdue rows highlighted) and "Actions" (the
 * open follow-up actions of the scope). Counts, rows and
 * summary come from one statement's rows, so they always agree.
 */
import {
  COF_HIGH_LABEL,
  type CofSchedule,
  INTERVAL_DAYS,
  type KindSchedule,
  needsAttention,
  scheduleLabel,
} from '../../../common/rules/schedule.js';
import type { MaintenanceReportRequest, MaintenanceReportResponse } from '../../../common/schemas/schedule.js';
import { AppError } from '../../app-error.js';
import { datedFileName } from '../../content-disposition.js';
import type { Db } from '../../db/client.js';
import { readTableVersions } from '../../db/versioned-cache.js';
import type { CellValue, SheetColumn, SheetWriter } from '../../xlsx/stream-workbook.js';
import type { Actor } from '../../audit/index.js';
import {
  cofOf,
  listSchedule,
  type ScheduleContext,
  type ScheduleRow,
  type ScheduleScope,
  type ScheduleService,
  scopeHasCurves,
  sectionCountsOf,
  type SectionCountsRow,
  serviceOf,
} from '../schedule/index.js';
import { ACTION_SHEET_COLUMNS, type ActionService, actionSheetRow } from '../actions/index.js';
import { reportDivision } from './record-reports.js';
import { madeAtText, requesterText } from './report-text.js';
import { ACTION_COLUMN_WORDS, both, joined, REPORT_PHRASES, REPORT_WORDS as W, sheetNamed, word } from './report-words.js';
import type { ReportService } from './service.js';
import type { ReportJob, ReportOutput } from './report-job.js';
import { bilingualColumns, column, xlsxReportOutput } from './xlsx-report.js';

const BATCH_ROWS = 1000;
/** How long the request waits for its job; the spec's answer carries the counts. */
const MAINTENANCE_WAIT_MS = 120_000;
/** Curve records carry the literal 'SSE' where the engineer is not known yet. */
const SSE_PLACEHOLDER = 'SSE';

/** The columns of the "Service due" and "CoF due" sheets (the bench's exceljs baseline writes the same). */
export const dueColumns = (kind: 'Service' | 'CoF'): SheetColumn[] => [
  column(W.division, 10, { text: true }),
  column(W.section, 18, { text: true }),
  column(W.curve, 16, { text: true }),
  column(W.line, 8, { text: true }),
  column(W.sse, 22, { text: true }),
  column(kind === 'Service' ? W.lastService : W.lastCof, 12, { date: true }),
  ...(kind === 'CoF' ? [column(W.lastCofValue, 14)] : []),
  column(W.lastTechnician, 22, { text: true }),
  column(W.daysSince, 11),
  column(W.dueDate, 12, { date: true }),
  column(W.daysOverdue, 13),
  // The schedule's own words for a curve's state, as the due list shows them: a data column.
  column(W.status, 34, { text: true }),
];

const SUMMARY_COLUMNS: SheetColumn[] = [
  column(W.division, 12, { text: true }),
  column(W.section, 20, { text: true }),
  column(W.curves, 8),
  column(W.serviceDueAll, 16),
  column(W.serviceOverdue, 15),
  column(W.serviceDueSoon, 16),
  column(W.serviceNeverDone, 18),
  column(W.machineUninstalled, 19),
  // Curves without a lubricator: on neither schedule, so never "never done" (uninstalled ones are counted just before).
  column(W.noMachine, 12),
  column(W.cofDueAll, 13),
  column(W.cofOverdue, 12),
  column(W.cofDueSoon, 13),
  column(W.cofNeverDone, 15),
  column(W.cofHigh, 10),
];

function statusText(kind: 'Service' | 'CoF', schedule: KindSchedule | CofSchedule): string {
  const label = scheduleLabel(kind, schedule);
  if (!('high' in schedule) || !schedule.high) return label;
  return `${label}; ${COF_HIGH_LABEL} (${schedule.lastValue?.toFixed(2) ?? ''})`;
}

/** A curve's row of a due sheet, and whether it is overdue (highlighted). */
export function dueRow(kind: 'Service' | 'CoF', row: ScheduleRow): { cells: CellValue[]; overdue: boolean } {
  const schedule = kind === 'Service' ? serviceOf(row) : cofOf(row);
  const sse = row.sse?.trim() === SSE_PLACEHOLDER ? null : row.sse;
  const technician = kind === 'Service' ? row.serviceLastTechnician : row.cofLastTechnician;
  return {
    cells: [
      row.divisionRailway,
      row.section,
      row.curveNumber,
      row.line,
      sse,
      schedule.lastDate,
      ...(kind === 'CoF' ? [row.cofLastValue] : []),
      technician,
      schedule.daysSince,
      schedule.dueDate,
      schedule.state === 'overdue' ? schedule.daysOverdue : null,
      statusText(kind, schedule),
    ],
    overdue: schedule.state === 'overdue',
  };
}

async function writeDueSheet(sheet: SheetWriter, kind: 'Service' | 'CoF', rows: readonly ScheduleRow[]): Promise<number> {
  let written = 0;
  const due = rows.filter((r) => needsAttention(kind === 'Service' ? serviceOf(r) : cofOf(r)));
  for (let i = 0; i < due.length; i += BATCH_ROWS) {
    const batch = due.slice(i, i + BATCH_ROWS).map((r) => dueRow(kind, r));
    await sheet.writeRows(
      batch.map((b) => b.cells),
      batch.map((b) => b.overdue),
    );
    written += batch.length;
  }
  sheet.end();
  return written;
}

async function writeSummarySheet(
  sheet: SheetWriter,
  sections: readonly SectionCountsRow[],
  about: { scope: string; context: ScheduleContext; madeBy: string; madeAt: string },
): Promise<void> {
  const cells = (s: Omit<SectionCountsRow, 'divisionRailway' | 'section'>): CellValue[] => [
    s.curves,
    s.serviceAttention,
    s.serviceOverdue,
    s.serviceDueSoon,
    s.serviceNever,
    s.serviceNotNeeded,
    s.serviceNoMachine,
    s.cofAttention,
    s.cofOverdue,
    s.cofDueSoon,
    s.cofNever,
    s.cofHigh,
  ];
  const total = sections.reduce(
    (sum, s) => {
      for (const key of Object.keys(sum) as (keyof typeof sum)[]) sum[key] += s[key];
      return sum;
    },
    { curves: 0, serviceAttention: 0, serviceOverdue: 0, serviceDueSoon: 0, serviceNever: 0, serviceNotNeeded: 0, serviceNoMachine: 0, serviceInTime: 0, cofAttention: 0, cofOverdue: 0, cofDueSoon: 0, cofNever: 0, cofHigh: 0, cofNoMachine: 0, cofInTime: 0 },
  );
  await sheet.writeRows([
    ...sections.map((s) => [s.divisionRailway, s.section, ...cells(s)]),
    [word('total'), '', ...cells(total)],
    [],
    [word('scope'), about.scope],
    [word('asOf'), about.context.today],
    [word('rule'), both(REPORT_PHRASES.maintenanceRule(INTERVAL_DAYS.Service, INTERVAL_DAYS.CoF))],
    [word('noMachine'), both(W.noMachineNote)],
    [word('cofHigh'), both(REPORT_PHRASES.lastReadingAbove(about.context.cofAlertThreshold.toFixed(2)))],
    [word('madeBy'), about.madeBy],
    [word('madeAt'), about.madeAt],
  ]);
  sheet.end();
}

export interface CurveMaintenanceDeps {
  db: Db;
  schedule: ScheduleService;
  actions: ActionService;
  reports: ReportService;
  appTimeZone: string;
  now: () => Date;
}

export function createCurveMaintenanceReport(deps: CurveMaintenanceDeps) {
  const { db } = deps;

  /** A Client's report is their division's, whatever they ask; 'all' means no filter. */
  function scopeOf(actor: Actor, request: MaintenanceReportRequest): ScheduleScope {
    return { division: reportDivision(actor, request.division), section: request.section.toLowerCase() === 'all' ? undefined : request.section };
  }

  /** Makes the file of a queued job: from its row alone, so any instance's worker can. */
  async function render(job: ReportJob): Promise<ReportOutput> {
    const scope: ScheduleScope = {
      division: job.division ?? undefined,
      section: job.params.section === 'all' ? undefined : String(job.params.section),
    };
    const context = job.snapshot as unknown as ScheduleContext;
    // One statement, so one snapshot: every curve of the scope with its schedule, in register
    // order. The counts are counted from these rows, so the toast, the Summary and the sheets agree.
    const { rows } = await listSchedule(db, scope, context, { order: 'register' });
    const sections = sectionCountsOf(rows);
    const serviceCount = sections.reduce((n, s) => n + s.serviceAttention, 0);
    const cofCount = sections.reduce((n, s) => n + s.cofAttention, 0);
    return xlsxReportOutput(datedFileName('Curve_Maintenance', [scope.division, scope.section], context.today, 'xlsx'), async (workbook) => {
      await writeSummarySheet(workbook.addSheet(sheetNamed('summary'), SUMMARY_COLUMNS, { autoFilter: false }), sections, {
        scope: both(joined(', ', scope.division ?? W.allDivisions, scope.section ?? W.allSectionsLower)),
        context,
        madeBy: requesterText(job),
        madeAt: madeAtText(job.createdAt, deps.appTimeZone),
      });
      const serviceRows = await writeDueSheet(workbook.addSheet(sheetNamed('serviceDue'), dueColumns('Service')), 'Service', rows);
      const cofRows = await writeDueSheet(workbook.addSheet(sheetNamed('cofDue'), dueColumns('CoF')), 'CoF', rows);
      // The faults still waiting for a fix on these curves: a curve serviced on time may still need one.
      const actions = (await deps.actions.inScope({ division: scope.division, section: scope.section, state: 'open' }, context.today)).map(actionSheetRow);
      const actionSheet = workbook.addSheet(sheetNamed('actions'), bilingualColumns(ACTION_SHEET_COLUMNS, ACTION_COLUMN_WORDS));
      await actionSheet.writeRows(
        actions.map((a) => a.cells),
        actions.map((a) => a.overdue),
      );
      actionSheet.end();
      // The two lists and the summary come from the same snapshot; a mismatch is a bug.
      if (serviceRows !== serviceCount || cofRows !== cofCount) throw new Error('maintenance report rows do not match its counts');
      return { recordCount: serviceRows + cofRows, summary: { serviceCount, cofCount } };
    });
  }
  deps.reports.register('curve-maintenance', render);

  async function generate(actor: Actor, request: MaintenanceReportRequest): Promise<MaintenanceReportResponse> {
    const scope = scopeOf(actor, request);
    if (scope.section !== undefined && !(await scopeHasCurves(db, scope))) {
      const where = scope.division ? `division ${scope.division}` : 'the register';
      throw new AppError('VALIDATION_FAILED', `Section ${scope.section} has no curves in ${where}`, {
        fields: { section: `Section ${scope.section} has no curves in ${where}` },
      });
    }
    const context = deps.schedule.context();
    const versions = await readTableVersions(db, ['inspection_logs', 'consolidated_curve_details', 'curve_records', 'follow_up_actions']);
    const queued = await deps.reports.request(actor, {
      kind: 'curve-maintenance',
      params: { division: scope.division ?? 'all', section: scope.section ?? 'all' },
      snapshot: { ...context },
      division: scope.division ?? null,
      // The file names who made it, so it is reused for the same person only.
      dependsOn: [context, [...versions.entries()], actor.user.id],
    });
    // The spec answers the counts, so this request waits for its job (well under a second).
    const report = await deps.reports.waitFor(queued.id, MAINTENANCE_WAIT_MS);
    if (report.status === 'failed') throw new AppError('REPORT_FAILED', report.error ?? 'Failed to generate curve maintenance report');
    if (report.status !== 'done') throw new AppError('REPORT_NOT_READY', 'The report is still being made: find it under your recent reports in a moment');
    const summary = report.summary as { serviceCount?: number; cofCount?: number } | null;
    return { serviceCount: summary?.serviceCount ?? 0, cofCount: summary?.cofCount ?? 0, reportId: report.id };
  }

  return { generate };
}

export type CurveMaintenanceReport = ReturnType<typeof createCurveMaintenanceReport>;
