/**
 * The Service Reports report (docs/functional-requirements.md, 'Service Reports'; POST /api/reports/service-table): the
 * Service visits of a division and period, optionally of one technician or one SSE, as a
 * table (date, section, curve, line, service update, part category and item, grease depth,
 * machine working, technician). Visits that found a part broken or stolen, or the machine
 * not working, are marked.
 */
import { PDF_TABLE_REPORT_MAX_RECORDS, type ServiceReportRequest } from '../../../common/schemas/reports.js';
import { dateInTimeZone } from '../../../common/rules/dates.js';
import { datedFileName } from '../../content-disposition.js';
import type { Db } from '../../db/client.js';
import { COLORS, PdfReport } from '../../pdf/pdf-report.js';
import { PdfTable } from '../../pdf/pdf-table.js';
import type { Actor } from '../../audit/index.js';
import { countBy, readRecords, type RecordReports, reportDivision } from './record-reports.js';
import type { ReportRow } from './repository.js';
import { joinedText, periodText, reportIdText, reportPdfOptions, serviceUpdateText } from './report-text.js';
import { both, joined, REPORT_PHRASES, REPORT_WORDS as W, word } from './report-words.js';
import type { ReportService } from './service.js';
import type { RenderControl, ReportJob, ReportOutput } from './report-job.js';

const ROWS_PER_YIELD = 200;


export interface ServiceTablePdfDeps {
  db: Db;
  reports: ReportService;
  records: RecordReports;
  appTimeZone: string;
}

export function createServiceTablePdfReport(deps: ServiceTablePdfDeps) {
  async function render(job: ReportJob, control: RenderControl): Promise<ReportOutput> {
    const params = job.params as { technician?: string; sseEngineer?: string; fromDate?: string; toDate?: string };
    const rows = await readRecords(deps.db, job, 'newest');
    const title = W.serviceReport;
    const pdf = await PdfReport.open(
      reportPdfOptions(job, { title, landscape: true, subject: `${title.en}, ${job.division ?? 'all divisions'}, ${periodText(params.fromDate, params.toDate)}`, timeZone: deps.appTimeZone }),
    );
    const finished = (async () => {
      const needsAction = (update: string | null, working: boolean | null) => update === 'part-broken' || update === 'part-stolen' || working === false;
      const flagged = rows.filter((r) => needsAction(r.serviceUpdate, r.isMachineWorking)).length;
      const technician = params.technician ? rows.find((r) => r.technicianId === params.technician) : undefined;
      const division = job.division ?? W.allDivisions;
      const period = REPORT_PHRASES.period(params.fromDate, params.toDate);
      pdf.paragraph(both(title), { size: 18, weight: 'bold' }, 2);
      pdf.paragraph(both(joined(', ', division, period)), { size: 11 }, 8);
      pdf.facts(
        [
          [word('division'), typeof division === 'string' ? division : both(division)],
          [word('period'), both(period)],
          [word('technician'), params.technician ? (technician ? `${technician.technicianName} (${params.technician})` : params.technician) : word('allTechnicians')],
          [word('sse'), params.sseEngineer ?? word('allSses')],
          [word('serviceVisits'), String(rows.length)],
          [word('needingAction'), both(REPORT_PHRASES.needingActionCount(flagged))],
          // The updates as stored, like the table's column; a visit that recorded none says so in both languages.
          [word('byUpdate'), countBy(rows, (r) => serviceUpdateText(r.serviceUpdate) || word('notStated')).map(([k, n]) => `${k} ${n}`).join(', ')],
        ],
        3,
      );
      pdf.paragraph(reportIdText(job), { size: 9, color: COLORS.muted }, 6);
      pdf.heading(word('serviceVisitsNewestFirst'));
      const table = new PdfTable(pdf, [
        { header: word('date'), weight: 1.1 },
        { header: word('section'), weight: 1.5 },
        { header: word('curve'), weight: 1 },
        { header: word('line'), weight: 0.7 },
        { header: word('serviceUpdate'), weight: 1.3 },
        { header: word('partCategoryItem'), weight: 2.4 },
        { header: word('greaseDepthCm'), weight: 1, align: 'right' },
        { header: word('machineWorking'), weight: 1 },
        { header: word('technician'), weight: 2 },
      ]);
      for (const [i, r] of rows.entries()) {
        const part = joinedText(r.partCategory, r.partItemName);
        table.row(
          [r.date, r.section, r.curveNumber, r.line, serviceUpdateText(r.serviceUpdate), part, r.greaseDepth ?? '', r.isMachineWorking === null ? '' : r.isMachineWorking ? 'Yes' : 'No', `${r.technicianName} (${r.technicianId})`],
          { marked: needsAction(r.serviceUpdate, r.isMachineWorking) },
        );
        if (i % ROWS_PER_YIELD === ROWS_PER_YIELD - 1) {
          control.signal.throwIfAborted();
          control.progress((i + 1) / rows.length);
          await pdf.drained();
        }
      }
      const pages = pdf.finish();
      return { recordCount: rows.length, summary: { needingAction: flagged, pages } };
    })();
    finished.catch((error: unknown) => pdf.output.destroy(error instanceof Error ? error : new Error(String(error))));
    return {
      fileName: datedFileName('Service_Table', [job.division ?? undefined, params.technician], dateInTimeZone(job.createdAt, deps.appTimeZone), 'pdf'),
      contentType: 'application/pdf',
      stream: pdf.output,
      finished,
    };
  }

  deps.reports.register('service-table-pdf', render);

  /** POST /api/reports/service-table: queues the report (the route waits for it or answers 202). */
  function queue(actor: Actor, request: ServiceReportRequest): Promise<ReportRow> {
    const division = reportDivision(actor, request.division);
    return deps.records.queue(actor, {
      kind: 'service-table-pdf',
      params: { division: division ?? 'all', technician: request.technician, sseEngineer: request.sseEngineer, fromDate: request.fromDate, toDate: request.toDate },
      filter: { division, type: 'Service', technicianId: request.technician, sse: request.sseEngineer, from: request.fromDate, to: request.toDate },
      maxRecords: PDF_TABLE_REPORT_MAX_RECORDS,
      noun: 'Service records',
    });
  }

  return { queue };
}

export type ServiceTablePdfReport = ReturnType<typeof createServiceTablePdfReport>;
