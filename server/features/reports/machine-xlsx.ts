/**
 * The machine report (issue 13): GET /api/machine-report?den=&aen= makes
 * Machine_Dashboard_{yyyy-MM-dd}.xlsx, one row per curve in the rollout with its stage entries,
 * its register HKM code and the controller mapped to that code. A job like every report, so
 * the file is kept, reused while nothing changed, and downloaded with GET /api/download/{id}.
 */
import { dateInTimeZone } from '../../../common/rules/dates.js';
import { rolloutName, stageEntry } from '../../../common/rules/rollout.js';
import type { MachineReportResponse, MachineStatsQuery } from '../../../common/schemas/machines.js';
import { AppError } from '../../app-error.js';
import { datedFileName } from '../../content-disposition.js';
import type { Db } from '../../db/client.js';
import { readTableVersions } from '../../db/versioned-cache.js';
import type { CellValue, SheetColumn } from '../../xlsx/stream-workbook.js';
import type { Actor } from '../../audit/index.js';
import { listMachineReportRows, type MachineReportCursor, type MachineReportRow, type MachineService } from '../machines/index.js';
import { reportDivision } from './record-reports.js';
import type { ReportService } from './service.js';
import type { ReportJob, ReportOutput, RenderControl } from './report-job.js';
import { both, REPORT_WORDS as W, sheetNamed, word } from './report-words.js';
import { column, writeAboutSheet, xlsxReportOutput } from './xlsx-report.js';

const BATCH_ROWS = 1000;
/** The spec answers the record count of the file: the request waits for its job (a second for 10k curves). */
const MACHINE_REPORT_WAIT_MS = 120_000;

export const MACHINE_REPORT_COLUMNS: SheetColumn[] = [
  column(W.number, 6),
  column(W.division, 10, { text: true }),
  column(W.section, 18, { text: true }),
  column(W.curve, 12, { text: true }),
  column(W.line, 8, { text: true }),
  column(W.phase, 7, { text: true }),
  column(W.den, 16, { text: true }),
  column(W.aen, 16, { text: true }),
  column(W.sse, 20, { text: true }),
  column(W.foundation, 12, { date: true }),
  column(W.machineInstalled, 17, { date: true }),
  column(W.commissioned, 14, { date: true }),
  column(W.hkmCode, 10),
  column(W.controllerNumber, 17),
];

/**
 * A stage's cell: its date as an Excel date where the sheet gave one, else its entry ('Done',
 * 'Pending'), as the rollout sheet holds it (data: the About sheet says what the entries mean).
 */
function stageCell(entry: string | null): CellValue {
  return stageEntry(entry).on ?? (entry?.trim() || 'Pending');
}

export function machineReportCells(row: MachineReportRow): CellValue[] {
  return [
    row.no,
    row.division,
    row.section,
    row.curveNumber,
    row.line,
    row.phase,
    row.den,
    row.aen,
    row.sse,
    stageCell(row.foundation),
    stageCell(row.machine),
    stageCell(row.commissioned),
    row.hkmCode,
    row.controllerNumber,
  ];
}

export interface MachineReportDeps {
  db: Db;
  reports: ReportService;
  machines: MachineService;
  appTimeZone: string;
  now: () => Date;
}

export function createMachineReport(deps: MachineReportDeps) {
  const { db } = deps;

  async function render(job: ReportJob, control: RenderControl): Promise<ReportOutput> {
    const division = job.division ?? undefined;
    const den = typeof job.params.den === 'string' && job.params.den !== 'all' ? job.params.den : undefined;
    const aen = typeof job.params.aen === 'string' && job.params.aen !== 'all' ? job.params.aen : undefined;
    // DEN and AEN by the rollout's name rule, as the dashboard counts them (a name pasted with
    // a non-breaking space is the same name).
    const inScope = (row: MachineReportRow) =>
      (den === undefined || rolloutName(row.den) === den) && (aen === undefined || rolloutName(row.aen) === aen);
    const today = String(job.snapshot.today);
    const total = Number(job.snapshot.expected) || 0;
    return xlsxReportOutput(datedFileName('Machine_Dashboard', [], today, 'xlsx'), async (workbook) => {
      const sheet = workbook.addSheet(sheetNamed('machines'), MACHINE_REPORT_COLUMNS);
      let written = 0;
      let after: MachineReportCursor | null = null;
      for (;;) {
        control.signal.throwIfAborted();
        const rows = await listMachineReportRows(db, division, after, BATCH_ROWS);
        if (rows.length === 0) break;
        const chosen = rows.filter(inScope);
        if (chosen.length > 0) await sheet.writeRows(chosen.map(machineReportCells));
        written += chosen.length;
        control.progress(total === 0 ? 1 : Math.min(1, written / total));
        const last = rows[rows.length - 1] as MachineReportRow;
        after = { division: last.division, section: last.section, no: last.no, id: last.id };
        if (rows.length < BATCH_ROWS) break;
      }
      sheet.end();
      await writeAboutSheet(
        workbook,
        [
          [word('division'), division ?? word('allDivisions')],
          [word('den'), den ?? word('all')],
          [word('aen'), aen ?? word('all')],
          [word('curves'), String(written)],
          [word('stages'), both(W.stagesNote)],
        ],
        job,
        deps.appTimeZone,
      );
      return { recordCount: written, summary: {} };
    });
  }
  deps.reports.register('machine-dashboard', render);

  /** Makes (or finds already made) the report of the curves under the DEN and AEN a user may see; a Client's are their division's. */
  async function generate(actor: Actor, query: MachineStatsQuery): Promise<MachineReportResponse> {
    const division = reportDivision(actor, 'all');
    // The dashboard's own count for these filters: the report holds the curves it counts.
    const { totals } = await deps.machines.stats(actor.user, query);
    if (totals.curveCount === 0) throw new AppError('NO_RECORDS', 'No curves in the machine rollout match the selected DEN and AEN');
    const versions = await readTableVersions(db, ['curve_records', 'consolidated_curve_details', 'hkm_controller_mapping']);
    const today = dateInTimeZone(deps.now(), deps.appTimeZone);
    const queued = await deps.reports.request(
      actor,
      {
        kind: 'machine-dashboard',
        params: { den: query.den ?? 'all', aen: query.aen ?? 'all' },
        snapshot: { today, expected: totals.curveCount },
        division: division ?? null,
        // The file names who made it and the day, so it is reused for the same person that day only.
        dependsOn: [today, [...versions.entries()], actor.user.id],
      },
      totals.curveCount,
    );
    const report = await deps.reports.waitFor(queued.id, MACHINE_REPORT_WAIT_MS);
    if (report.status === 'failed') throw new AppError('REPORT_FAILED', report.error ?? 'Failed to generate machine report');
    if (report.status !== 'done') throw new AppError('REPORT_NOT_READY', 'The report is still being made: try the download again in a moment');
    return { reportId: report.id, recordCount: report.recordCount ?? totals.curveCount };
  }

  return { generate };
}

export type MachineReport = ReturnType<typeof createMachineReport>;
