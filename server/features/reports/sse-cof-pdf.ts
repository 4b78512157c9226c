/**
 * The SSE CoF Measurement report (docs/functional-requirements.md, 'SSE CoF Measurement'; POST /api/reports/sse-table): an SSE's
 * CoF measurements of a division and period as a table (date, section, curve, line, location,
 * km, poles, CoF, technician), readings above the threshold marked, then one CoF-over-time
 * chart per curve drawn into the PDF. "An SSE's" measurements are those of the curves the
 * register puts in their charge, and those the technician recorded with that SSE.
 */
import { PDF_TABLE_REPORT_MAX_RECORDS, type ReportJobResponse, type SseReportRequest } from '../../../common/schemas/reports.js';
import { dateInTimeZone } from '../../../common/rules/dates.js';
import { datedFileName } from '../../content-disposition.js';
import type { Db } from '../../db/client.js';
import type { InspectionRow } from '../../db/schema.js';
import { drawReadingsChart } from '../../pdf/pdf-chart.js';
import { COLORS, PdfReport } from '../../pdf/pdf-report.js';
import { PdfTable } from '../../pdf/pdf-table.js';
import type { Actor } from '../../audit/index.js';
import { cofFigures, readRecords, type RecordReports, reportDivision, snapshotOf } from './record-reports.js';
import { cofText, isHighReading } from './record-texts.js';
import { joinedText, reportIdText, reportPdfOptions, requesterText } from './report-text.js';
import { both, joined, REPORT_PHRASES, REPORT_WORDS as W, word } from './report-words.js';
import type { ReportService } from './service.js';
import type { RenderControl, ReportJob, ReportOutput } from './report-job.js';

const CHART_COLUMNS = 3;
const CHART_HEIGHT = 150;
const CHART_GAP = 14;
/** Rows written between yields to other requests. */
const ROWS_PER_YIELD = 200;

export interface SseCofPdfDeps {
  db: Db;
  reports: ReportService;
  records: RecordReports;
  appTimeZone: string;
}


export function createSseCofPdfReport(deps: SseCofPdfDeps) {
  async function render(job: ReportJob, control: RenderControl): Promise<ReportOutput> {
    const { cofAlertThreshold: threshold } = snapshotOf(job);
    const params = job.params as { sseEngineer?: string; fromDate?: string; toDate?: string };
    const rows = await readRecords(deps.db, job, 'oldest');
    const sse = params.sseEngineer ?? W.allSses;
    const title = W.sseCofReport;
    const pdf = await PdfReport.open(
      reportPdfOptions(job, { title, landscape: true, subject: `${title.en}: ${params.sseEngineer ?? 'All SSEs'}, ${job.division ?? 'all divisions'}`, timeZone: deps.appTimeZone }),
    );
    const finished = (async () => {
      const figures = cofFigures(rows, threshold);
      const high = figures.high.length;
      const period = REPORT_PHRASES.period(params.fromDate, params.toDate);
      pdf.paragraph(both(title), { size: 18, weight: 'bold' }, 2);
      pdf.paragraph(both(joined(', ', sse, job.division ?? W.allDivisionsLower, period)), { size: 11 }, 8);
      pdf.facts(
        [
          [word('sse'), params.sseEngineer ?? word('allSses')],
          [word('division'), job.division ?? word('allDivisions')],
          [word('period'), both(period)],
          [word('measurements'), String(rows.length)],
          [word('meanLowestHighest'), figures.readings > 0 ? `${figures.mean} / ${figures.lowest} / ${figures.highest}` : '–'],
          [word('aboveThreshold'), both(REPORT_PHRASES.highCount(high, threshold.toFixed(2)))],
          [word('madeBy'), requesterText(job)],
        ],
        3,
      );
      pdf.paragraph(reportIdText(job), { size: 9, color: COLORS.muted }, 6);
      pdf.heading(word('measurementsOldestFirst'));
      const table = new PdfTable(pdf, [
        { header: word('date'), weight: 1.1 },
        { header: word('section'), weight: 1.5 },
        { header: word('curve'), weight: 1 },
        { header: word('line'), weight: 0.7 },
        { header: word('location'), weight: 0.9 },
        { header: word('km'), weight: 0.8 },
        { header: word('poles'), weight: 1 },
        { header: word('cof'), weight: 0.9, align: 'right' },
        { header: word('technician'), weight: 2 },
        { header: word('recordId'), weight: 2 },
      ]);
      for (const [i, r] of rows.entries()) {
        const isHigh = isHighReading(r, threshold);
        table.row([r.date, r.section, r.curveNumber, r.line, r.location ?? '', r.km ?? '', joinedText(r.pole1, r.pole2), `${cofText(r.cofValue)}${isHigh ? ' HIGH' : ''}`, r.technicianName, r.recordId], { marked: isHigh });
        if (i % ROWS_PER_YIELD === ROWS_PER_YIELD - 1) {
          control.signal.throwIfAborted();
          control.progress((0.7 * (i + 1)) / rows.length);
          await pdf.drained();
        }
      }
      const curves = await writeCharts(pdf, rows, threshold, control);
      const pages = pdf.finish();
      return { recordCount: rows.length, summary: { highCount: high, curveCount: curves, pages } };
    })();
    finished.catch((error: unknown) => pdf.output.destroy(error instanceof Error ? error : new Error(String(error))));
    return {
      fileName: datedFileName('SSE_CoF_Report', [job.division ?? undefined, params.sseEngineer], dateInTimeZone(job.createdAt, deps.appTimeZone), 'pdf'),
      contentType: 'application/pdf',
      stream: pdf.output,
      finished,
    };
  }

  /** One chart per curve (section, curve, line), in the register's order; answers how many. */
  async function writeCharts(pdf: PdfReport, rows: readonly InspectionRow[], threshold: number, control: RenderControl): Promise<number> {
    const byCurve = new Map<string, { label: string; points: { date: string; value: number }[] }>();
    for (const r of rows) {
      if (r.cofValue === null) continue;
      const key = `${r.section}\u0000${r.curveNumber}\u0000${r.line}`;
      const entry = byCurve.get(key) ?? { label: `${r.section}, curve ${r.curveNumber}, ${r.line}`, points: [] };
      entry.points.push({ date: r.date, value: Number(r.cofValue) });
      byCurve.set(key, entry);
    }
    const curves = [...byCurve].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
    if (curves.length === 0) return 0;
    pdf.newPage();
    pdf.heading(both(REPORT_PHRASES.cofOverTime(threshold.toFixed(2))));
    const width = (pdf.width - CHART_GAP * (CHART_COLUMNS - 1)) / CHART_COLUMNS;
    for (const [i, [, curve]] of curves.entries()) {
      const column = i % CHART_COLUMNS;
      if (column === 0) pdf.ensure(CHART_HEIGHT);
      const x = pdf.left + column * (width + CHART_GAP);
      drawReadingsChart(pdf, { x, y: pdf.y, width, height: CHART_HEIGHT }, { title: `${curve.label} (${curve.points.length})`, points: curve.points, threshold });
      if (column === CHART_COLUMNS - 1 || i === curves.length - 1) pdf.y += CHART_HEIGHT + CHART_GAP;
      if (i % 30 === 29) {
        control.signal.throwIfAborted();
        control.progress(0.7 + (0.29 * (i + 1)) / curves.length);
        await pdf.drained();
      }
    }
    return curves.length;
  }

  deps.reports.register('sse-cof-pdf', render);

  /** POST /api/reports/sse-table. */
  function generate(actor: Actor, request: SseReportRequest): Promise<{ done: boolean; body: ReportJobResponse }> {
    const division = reportDivision(actor, request.division);
    return deps.records.queueAndAnswer(actor, {
      kind: 'sse-cof-pdf',
      params: { division: division ?? 'all', sseEngineer: request.sseEngineer, fromDate: request.fromDate, toDate: request.toDate },
      filter: { division, type: 'CoF', sse: request.sseEngineer, from: request.fromDate, to: request.toDate },
      maxRecords: PDF_TABLE_REPORT_MAX_RECORDS,
      noun: 'CoF measurements',
    });
  }

  return { generate };
}

export type SseCofPdfReport = ReturnType<typeof createSseCofPdfReport>;
