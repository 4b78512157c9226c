/**
 * An Excel report as a job's output: the workbook streams to the stored file while `write`
 * fills it, so a report of any size holds one batch of rows in memory; a failure part way
 * destroys the stream, so no half-written file is kept as done.
 */
import { PassThrough } from 'node:stream';
import { type CellValue, type SheetColumn, StreamWorkbook, XLSX_CONTENT_TYPE } from '../../xlsx/stream-workbook.js';
import type { ReportJob, ReportOutput } from './report-job.js';
import { madeAtText, requesterText } from './report-text.js';
import { type Bilingual, both, sheetNamed, word } from './report-words.js';

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
  const about = workbook.addSheet(
    sheetNamed('about'),
    [
      { header: word('aboutItem'), width: 30, text: true },
      { header: word('aboutValue'), width: 70, text: true },
    ],
    { autoFilter: false },
  );
  await about.writeRows([...items, [word('madeBy'), requesterText(job)], [word('madeAt'), madeAtText(job.createdAt, timeZone)]]);
  about.end();
}

/**
 * A column titled in both languages. Its header wraps to two lines, Hindi above English
 * (stream-workbook), so the column is at least as wide as the longer of the two.
 */
export function column(title: Bilingual, width: number, format: Omit<SheetColumn, 'header' | 'width'> = {}): SheetColumn {
  return { header: both(title), width: Math.max(width, title.hi.length + 3, title.en.length + 1), ...format };
}

/** Columns whose headers are English texts of another feature (the actions' sheet), given their Hindi from `words`. */
export const bilingualColumns = (columns: readonly SheetColumn[], words: Readonly<Record<string, Bilingual>>): SheetColumn[] =>
  columns.map((c) => {
    const title = words[c.header];
    if (!title) throw new Error(`no Hindi for the column "${c.header}"`);
    return { ...column(title, c.width), ...(c.text ? { text: true } : {}), ...(c.date ? { date: true } : {}), ...(c.percent ? { percent: true } : {}) };
  });
