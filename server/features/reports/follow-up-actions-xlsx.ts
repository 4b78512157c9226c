/**
 * The follow-up actions report: POST /api/reports/follow-up-actions makes
 * Follow_Up_Actions_{division}_{yyyy-MM-dd}.xlsx of the actions the Actions view shows (its
 * filters, a Client's division whatever they ask), one row per action, overdue rows highlighted,
 * and an About sheet naming the scope, the day and who made it. A job like every report.
 */
import { dateInTimeZone } from '../../../common/rules/dates.js';
import type { ActionKind } from '../../../common/rules/follow-up-actions.js';
import type { ActionReportRequest } from '../../../common/schemas/actions.js';
import type { ReportJobResponse } from '../../../common/schemas/reports.js';
import { AppError } from '../../app-error.js';
import type { Actor } from '../../audit/index.js';
import { datedFileName } from '../../content-disposition.js';
import type { Db } from '../../db/client.js';
import { readTableVersions } from '../../db/versioned-cache.js';
import { ACTION_SHEET_COLUMNS, type ActionScope, type ActionService, actionSheetRow } from '../actions/index.js';
import { answerSoon, reportDivision } from './record-reports.js';
import type { ReportJob, ReportOutput } from './report-job.js';
import { ACTION_COLUMN_WORDS, type Bilingual, both, REPORT_WORDS as W, sheetNamed, word } from './report-words.js';
import { bilingualColumns, writeAboutSheet, xlsxReportOutput } from './xlsx-report.js';
import type { ReportService } from './service.js';

/** The faults an action follows up, as the About sheet names the one asked for (the sheet's column keeps the stored English). */
const FAULT_WORDS: Record<ActionKind, Bilingual> = {
  'machine-not-working': W.machineNotWorking,
  'part-stolen': W.partStolen,
  'part-broken': W.partBroken,
  'cof-high': W.cofHigh,
};

export interface ActionReportDeps {
  db: Db;
  reports: ReportService;
  actions: ActionService;
  appTimeZone: string;
  now: () => Date;
}

export function createActionReport(deps: ActionReportDeps) {
  async function render(job: ReportJob): Promise<ReportOutput> {
    const scope = job.snapshot.scope as ActionScope;
    const today = String(job.snapshot.today);
    const actions = await deps.actions.inScope(scope, today);
    return xlsxReportOutput(datedFileName('Follow_Up_Actions', [scope.division], today, 'xlsx'), async (workbook) => {
      const sheet = workbook.addSheet(sheetNamed('actions'), bilingualColumns(ACTION_SHEET_COLUMNS, ACTION_COLUMN_WORDS));
      const rows = actions.map(actionSheetRow);
      await sheet.writeRows(
        rows.map((r) => r.cells),
        rows.map((r) => r.overdue),
      );
      sheet.end();
      await writeAboutSheet(
        workbook,
        [
          [word('division'), scope.division ?? word('allDivisions')],
          [word('section'), scope.section ?? word('allSections')],
          [word('sse'), scope.sse ?? word('allSses')],
          [word('fault'), scope.kind ? both(FAULT_WORDS[scope.kind]) : word('allFaults')],
          [word('state'), word(scope.state === 'all' ? 'openAndClosed' : scope.state === 'open' ? 'open' : 'closed')],
          [word('overdueOnly'), word(scope.overdue ? 'yes' : 'no')],
          [word('asOf'), today],
          [word('actionCount'), String(actions.length)],
        ],
        job,
        deps.appTimeZone,
      );
      return { recordCount: actions.length, summary: {} };
    });
  }
  deps.reports.register('follow-up-actions', render);

  /** Queues the report of the actions in view, waits a moment, and answers where it stands (200 done, else 202). */
  async function generate(actor: Actor, request: ActionReportRequest): Promise<{ done: boolean; body: ReportJobResponse }> {
    const scope: ActionScope = {
      division: reportDivision(actor, request.division ?? 'all'),
      section: request.section,
      sse: request.sse,
      kind: request.kind,
      state: request.state,
      overdue: request.overdue,
    };
    const today = dateInTimeZone(deps.now(), deps.appTimeZone);
    const count = await deps.actions.count(scope, today);
    if (count === 0) throw new AppError('NO_RECORDS', 'No follow-up actions match the selected filters');
    const versions = await readTableVersions(deps.db, ['follow_up_actions']);
    const queued = await deps.reports.request(
      actor,
      {
        kind: 'follow-up-actions',
        params: { ...request },
        snapshot: { scope: { ...scope }, today },
        division: scope.division ?? null,
        // Ages and overdue flags move with the day; the file names who made it.
        dependsOn: [scope, today, [...versions.entries()], actor.user.id],
      },
      count,
    );
    return answerSoon(deps.reports, queued);
  }

  return { generate };
}

export type ActionReport = ReturnType<typeof createActionReport>;
