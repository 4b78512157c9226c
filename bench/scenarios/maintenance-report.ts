/**
 * The Excel maintenance report of every division at the zone's size, timed from the POST to the download's last byte. A report
 * is made once per data version, so a CoF visit is recorded before every run; beside the bare baseline (bare/jobs.ts).
 */
import { maintenanceReportResponseSchema, scheduleResponseSchema } from '../../common/schemas/schedule.js';
import { type ExcelFigures, startReportBaseline, type WithRssFigures } from '../bare/jobs.js';
import { getParsed, postParsed } from '../lib/records.js';
import { median, note, round } from '../lib/stats.js';
import { downloadZip, mib, RunBook, rssRise, runsNote, series, withServerFigures, worksheetRowCounts } from '../lib/timer.js';
import type { Scenario, ScenarioContext, ScenarioResult } from '../lib/types.js';
import { uploadCofVisit, visitPhoto } from '../lib/visits.js';

const POST_PATH = '/api/reports/curve-maintenance';
const REPEATS = 5;
const STEP_TIMEOUT_MS = 300_000;

const post = (ctx: ScenarioContext, cookie: string) => postParsed(ctx, POST_PATH, cookie, { division: 'all', section: 'all' }, maintenanceReportResponseSchema, STEP_TIMEOUT_MS);

async function makeAndDownload(ctx: ScenarioContext, cookie: string) {
  const { ms: postMs, body: answer } = await post(ctx, cookie);
  const { body, bytes, firstByteMs, ms: downloadMs } = await downloadZip(`${ctx.baseUrl}/api/reports/download/${answer.reportId}`, { cookie }, STEP_TIMEOUT_MS);
  return { postMs, downloadMs, firstByteMs, ms: postMs + downloadMs, bytes, answer, body };
}

async function measuredRun(ctx: ScenarioContext, cookie: string) {
  const { value, ...figures } = await withServerFigures(ctx, () => makeAndDownload(ctx, cookie));
  const { body, ...run } = value;
  // Checked after the timing: the "Service due" and "CoF due" sheets must hold the rows the answer counted.
  const counts = await worksheetRowCounts(body);
  const service = counts.get('xl/worksheets/sheet2.xml');
  const cof = counts.get('xl/worksheets/sheet3.xml');
  return { ...run, ...figures, sheetRows: service === undefined || cof === undefined ? null : { service: service - 1, cof: cof - 1 } };
}
type ProductRun = Awaited<ReturnType<typeof measuredRun>>;

const s2 = (ms: number) => round(ms / 1000, 2);
const mb = (bytes: number) => round(mib(bytes), 2);

export const maintenanceReport: Scenario = {
  name: 'maintenance-report',
  description: `POST ${POST_PATH} {division: all, section: all} + the download, as the demo Admin over the generated records, ${REPEATS} times (new data each time); bare exceljs baseline in turn`,
  budget: {
    description:
      'Excel reports, 10k curves / 100k inspections: POST to the end of the download <= 1.5x, and the server\'s peak RSS rise <= 1.5x, the bare baseline (one SQL read + exceljs streaming writer, same rows) in the same run (docs/architecture.md, "Budgets")',
    maxRatioToBaseline: 1.5,
    maxRssRatioToBaseline: 1.5,
  },
  dataset: 'records',
  async run(ctx) {
    const admin = await ctx.signIn(ctx.demo.byRole('Admin').employeeId);
    const technician = await ctx.signIn(ctx.demo.byRole('Technician').employeeId);
    const due = (await getParsed(ctx, '/api/schedule?limit=50&status=attention', admin, scheduleResponseSchema)).body;
    const context = { today: due.asOf, cofAlertThreshold: due.cofAlertThreshold };
    const photo = await visitPhoto();
    let visit = 0;
    const newVisit = async () => {
      const curve = due.curves[visit++ % due.curves.length];
      if (!curve) throw new Error('no curve to visit');
      await uploadCofVisit(ctx, technician, photo, curve, due.asOf);
    };
    ctx.log(`maintenance-report: starting the bare baseline${ctx.databaseUrl ? '' : ' (loading its own copy of the data into an in-memory PGlite)'} ...`);
    const baseline = await startReportBaseline(ctx, due.asOf);
    const book = new RunBook();
    const product: ProductRun[] = [];
    const bare: Array<WithRssFigures<ExcelFigures>> = [];
    let reuse: { ms: number; same: boolean } | null = null;
    try {
      await newVisit();
      book.expectNew((await makeAndDownload(ctx, admin)).answer.reportId, 'warm-up');
      await baseline.run(context);
      for (let i = 1; i <= REPEATS; i++) {
        await newVisit();
        const run = await book.attempt(() => measuredRun(ctx, admin));
        if (run) {
          book.status(200);
          book.expectNew(run.answer.reportId, `run ${i}, after new data`);
          const { serviceCount, cofCount } = run.answer;
          if (!run.sheetRows) book.problems.push(`run ${i}: the workbook has no sheet2.xml/sheet3.xml`);
          else if (run.sheetRows.service !== serviceCount || run.sheetRows.cof !== cofCount) {
            book.problems.push(`run ${i}: sheets hold ${run.sheetRows.service} Service and ${run.sheetRows.cof} CoF rows, the answer counted ${serviceCount} and ${cofCount}`);
          }
          product.push(run);
          ctx.log(`maintenance-report: report ${s2(run.ms)} s (POST ${s2(run.postMs)} s, download ${s2(run.downloadMs)} s), ${mb(run.bytes)} MB, RSS ${round(run.rssBeforeMb, 0)} -> ${round(run.rssPeakMb, 0)} MB`);
        }
        const b = await baseline.run(context);
        bare.push(b);
        ctx.log(`maintenance-report: baseline ${round(b.seconds, 2)} s (SQL ${round(b.sqlSeconds, 2)} s, exceljs ${round(b.writeSeconds, 2)} s), RSS ${round(b.rssBeforeMb, 0)} -> ${round(b.rssPeakMb, 0)} MB`);
      }
      // The same request again with no new data: the file already made, not rendered again.
      const last = product.at(-1);
      if (last) {
        const again = await post(ctx, admin);
        reuse = { ms: again.ms, same: again.body.reportId === last.answer.reportId };
        if (!reuse.same) book.problems.push('the same request with no new data made a new report instead of answering the one made');
      }
    } finally {
      await baseline.stop();
    }
    const productSeconds = median(product.map((r) => r.ms)) / 1000;
    const baselineSeconds = median(bare.map((b) => b.seconds));
    const productRise = median(product.map(rssRise));
    const bareRise = median(bare.map(rssRise));
    const result: ScenarioResult = {
      ...book.result('reports/s', product.map((r) => r.ms)),
      baseline: {
        description: `one SQL read + exceljs WorkbookWriter, the same two lists, median of ${bare.length}`,
        productSeconds: round(productSeconds),
        baselineSeconds: round(baselineSeconds),
        productRssRiseMb: round(productRise, 1),
        baselineRssRiseMb: round(bareRise, 1),
      },
    };
    const first = product[0];
    if (first) {
      result.notes.push(
        `the report: ${first.answer.serviceCount} Service due and ${first.answer.cofCount} CoF due rows (+ the Summary sheet), ${mb(first.bytes)} MB; ` +
          `each run preceded by one CoF upload (not timed) so that it is rendered: ${book.seen.size} distinct reportIds for ${product.length + 1} reports; ` +
          (reuse ? `the same request again with no new data ${round(reuse.ms, 0)} ms (${reuse.same ? 'the report already made' : 'made again!'})` : ''),
        runsNote('product, POST to the last byte', product, {
          'POST: making': `${series(product.map((r) => r.postMs / 1000), 2)} s`,
          download: `${series(product.map((r) => r.downloadMs), 0)} ms`,
        }),
      );
    }
    const b0 = bare[0];
    if (b0) {
      const where = `${baseline.where}: ${baseline.curves} curves, ${baseline.inspections} inspections${baseline.loadSeconds > 0 ? `, loaded in ${round(baseline.loadSeconds, 1)} s` : ''}`;
      result.notes.push(
        note(
          `bare baseline (in its own process; reads ${where}; one SQL read of the due curves, the product's schedule statement in register order, then exceljs ` +
            'stream.xlsx.WorkbookWriter (useStyles, no shared strings) writing "Service due" and "CoF due" with the report\'s columns, formats and overdue fill into a file; no Summary sheet)',
          {
            '': `${series(bare.map((b) => b.seconds), 2)} s, median ${round(baselineSeconds, 2)} s`,
            SQL: `${series(bare.map((b) => b.sqlSeconds), 2)} s`,
            exceljs: `${series(bare.map((b) => b.writeSeconds), 2)} s`,
            CPU: `${round(median(bare.map((b) => b.cpuSeconds)), 2)} s`,
            rows: `${b0.serviceRows} + ${b0.cofRows}`,
            size: `${mb(b0.bytes)} MB`,
            'its RSS before': `${series(bare.map((b) => b.rssBeforeMb), 0)} MB`,
            rise: `${series(bare.map(rssRise), 1, true)} MB`,
          },
        ),
      );
    }
    if (first && b0 && (b0.serviceRows !== first.answer.serviceCount || b0.cofRows !== first.answer.cofCount)) {
      result.notes.push(
        `rows: the baseline wrote ${b0.serviceRows} + ${b0.cofRows}, the report ${first.answer.serviceCount} + ${first.answer.cofCount}` +
          (ctx.databaseUrl ? ' (same database: unexpected)' : " (its copy lacks the visits the scenarios uploaded to the server's database since it was loaded)"),
      );
    }
    if (productSeconds > 0 && baselineSeconds > 0) {
      const writeOnly = median(bare.map((b) => b.writeSeconds));
      result.notes.push(
        `ratios: time ${(productSeconds / baselineSeconds).toFixed(2)}x the baseline (${(productSeconds / Math.max(writeOnly, 1e-9)).toFixed(2)}x its exceljs part alone), ` +
          `RSS rise ${bareRise > 0 ? (productRise / bareRise).toFixed(2) : '-'}x`,
      );
    }
    result.notes.push(...book.errorNotes());
    return result;
  },
};
