/** How every report states when it was made and what it covers, in the same words. */
import type { PdfReportOptions } from '../../pdf/pdf-report.js';
import type { ReportJob } from './report-job.js';
import { type Bilingual, both, labelled, REPORT_PHRASES, REPORT_WORDS } from './report-words.js';

const formats = new Map<string, Intl.DateTimeFormat>();
/** "23 Nov 2026, 14:05" in `timeZone`: a formatter is costly to make, and a report formats thousands. */
export function dateTimeText(at: Date, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' });
    formats.set(timeZone, format);
  }
  return format.format(at);
}

/** "23 Nov 2026, 14:05 (Asia/Kolkata)": when a report was asked for, in the app's time zone. */
export function madeAtText(at: Date, timeZone: string): string {
  return `${dateTimeText(at, timeZone)} (${timeZone})`;
}

/** "from 2026-11-01 to 2026-11-23", "up to 2026-11-23", "all dates" (English: a PDF's Subject property). */
export const periodText = (fromDate: string | undefined, toDate: string | undefined): string => REPORT_PHRASES.period(fromDate, toDate).en;

type Requested = Pick<ReportJob, 'id' | 'requester' | 'createdAt'>;

/** The person who asked, as the reports name them: "Anita Sharma (ADM1)". */
export const requesterText = (job: Pick<ReportJob, 'requester'>) => `${job.requester.name} (${job.requester.employeeId})`;

/**
 * The page furniture of a report PDF, bilingual: its title at the top left, "रिपोर्ट / Report
 * 42" at the top right, who made it and when at the bottom left, and the page number.
 */
export function reportPdfOptions(
  job: Requested,
  about: { title: Bilingual; subject: string; timeZone: string; landscape?: boolean },
): PdfReportOptions & { madeBy: string } {
  return {
    title: both(about.title),
    reference: labelled(REPORT_WORDS.report, job.id, ' '),
    madeBy: labelled(REPORT_WORDS.madeBy, `${requesterText(job)} on ${madeAtText(job.createdAt, about.timeZone)}`, ' '),
    landscape: about.landscape,
    subject: about.subject,
    author: job.requester.name,
    pageText: (page, total) => both(REPORT_PHRASES.page(page, total)),
  };
}

/** "रिपोर्ट ID / Report ID: 42", under a report's first facts. */
export const reportIdText = (job: Pick<ReportJob, 'id'>) => labelled(REPORT_WORDS.reportId, job.id);

const SERVICE_UPDATE_TEXT: Record<string, string> = {
  'working-fine': 'Working fine',
  'part-broken': 'Part broken',
  'part-stolen': 'Part stolen',
  uninstall: 'Machine uninstalled',
};

/** A Service visit's update as a person reads it; '' when none was recorded. */
export const serviceUpdateText = (update: string | null) => (update === null ? '' : (SERVICE_UPDATE_TEXT[update] ?? update));

/** The given parts joined with a dash, leaving out empty ones: "Station A – Station B". */
export const joinedText = (...parts: (string | null)[]) => parts.filter((p): p is string => p !== null && p.trim() !== '').join(' – ');
