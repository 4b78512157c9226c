/**
 * An Excel report as a job's output: the workbook streams to the stored file while `write`
 * fills it, so a report of any size holds one batch of rows in memory; a failure part way
 * destroys the stream, so no half-written file is kept as done.
 */
import { PassThrough } from 'node:stream';
import { type CellValue, StreamWorkbook, XLSX_CONTENT_TYPE } from '../../xlsx/stream-workbook.js';
import type { ReportJob, ReportOutput } from './report-job.js';
import { madeAtText } from './report-text.js';

type ReportFigures = Awaited<ReportOutput['finished']>;

export function xlsxReportOutput(fileName: string, write: (workbook: StreamWorkbook) => Promise<ReportFigures>): ReportOutput {
  const workbook = new StreamWorkbook();
  const stream = new PassThrough();
  workbook.output.pipe(stream);
  workbook.output.once('error', (error) => stream.destroy(error));
  const finished = (async () => {
    const figures = await write(workbook);
    await workbook.finish();
    return figures;
  })();
  finished.catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
  return { fileName, contentType: XLSX_CONTENT_TYPE, stream, finished };
}

/** The last sheet of a report: what it covers (`items`), then who made it and when (a job's requester, or whoever downloads it). */
export async function writeAboutSheet(
  workbook: StreamWorkbook,
  items: ReadonlyArray<readonly [string, CellValue]>,
  job: Pick<ReportJob, 'requester' | 'createdAt'>,
  timeZone: string,
): Promise<void> {
  const about = workbook.addSheet('About', [
    { header: 'Item', width: 14, text: true },
    { header: 'Value', width: 60, text: true },
  ], { autoFilter: false });
  await about.writeRows([
    ...items,
    ['Made by', `${job.requester.name} (${job.requester.employeeId})`],
    ['Made at', madeAtText(job.createdAt, timeZone)],
  ]);
  about.end();
}
