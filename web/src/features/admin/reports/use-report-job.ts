import { t } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ReportSummary } from '../../../../../common/schemas/reports.js';
import { toast } from '../../../components/ui/toast-store.js';
import { apiErrorMessage } from '../../../lib/api-client.js';
import { startFileDownload } from '../../../lib/file-download.js';
import { apiErrorFields } from '../../../lib/api-failure.js';
import { type JobRules, type JobToFollow, useJob } from '../../../lib/use-job.js';
import {
  fetchReportSummary,
  type PdfReportBodies,
  type PdfReportKind,
  recentReportsUrl,
  requestReportJob,
} from './reports-api.js';

/** How often a report being made is asked about. */
export const REPORT_POLL_MS = 700;

/** The job's texts, in the language shown when the hook renders. */
export interface ReportJobTexts {
  doneTitle: string;
  doneDescription: (recordCount: number) => string;
  /** The toast's text when the server gives no reason. */
  failed: string;
}

export interface FinishedReport {
  reportId: string;
  recordCount: number;
  downloadUrl: string;
  fileSizeBytes: number | null;
}

export type ReportJobState =
  | { phase: 'idle' }
  | { phase: 'working'; progress: number; recordCount: number | null }
  | { phase: 'done'; report: FinishedReport }
  | { phase: 'failed'; message: string; fields: Record<string, string> };

const IDLE: ReportJobState = { phase: 'idle' };
const NO_FIELDS: Record<string, string> = {};

const percent = (n: number) => Math.max(0, Math.min(100, Math.round(n)));

/** Where a report stands: the job's first answer, then each status read. */
interface ReportAnswer {
  status: ReportSummary['status'];
  progress: number;
  recordCount: number;
  error: string | null;
  downloadUrl: string;
  fileSizeBytes: number | null;
}

const REPORT_RULES: JobRules<ReportAnswer> = {
  name: 'report',
  pollMs: REPORT_POLL_MS,
  read: async (job, signal) => {
    const latest = await fetchReportSummary(job.id, signal);
    // The record count the request answered stands while a read says none.
    return { ...latest, recordCount: latest.recordCount ?? job.first.recordCount };
  },
  isRunning: (answer) => answer.status === 'queued' || answer.status === 'running',
  retries: 3,
};

/**
 * One PDF report from asking to download (reports are jobs): POST the request, follow
 * GET /api/reports/{id} while it is queued or running (useJob), then the toast and the
 * browser's own download of the file; a failure gives the Error toast with the server's
 * reason. Leaving the view stops the polling (the report is still made, and is listed under
 * the recent reports).
 */
export function useReportJob<K extends PdfReportKind>(kind: K, texts: ReportJobTexts) {
  const [state, setState] = useState<ReportJobState>(IDLE);
  const [followed, setFollowed] = useState<JobToFollow<ReportAnswer> | null>(null);
  /** The request being sent: a new one, or leaving the view, cancels it. */
  const asking = useRef<AbortController | null>(null);
  const queryClient = useQueryClient();

  useEffect(
    () => () => {
      asking.current?.abort();
    },
    [],
  );

  const fail = (message: string, fields: Record<string, string>) => {
    setFollowed(null);
    setState({ phase: 'failed', message, fields });
    toast({ variant: 'destructive', title: t`Error`, description: message });
  };

  /** A refused request or status read: a 400 names the field at fault, which says more than 'The request is not valid'. */
  const refused = (error: unknown) => {
    const fields = apiErrorFields(error);
    fail(Object.values(fields)[0] ?? apiErrorMessage(error, texts.failed), fields);
  };

  const finish = (answer: ReportAnswer, reportId: string) => {
    void queryClient.invalidateQueries({ queryKey: [recentReportsUrl(kind)] });
    if (answer.status === 'failed') {
      fail(answer.error?.trim() || texts.failed, NO_FIELDS);
      return;
    }
    const report: FinishedReport = { reportId, recordCount: answer.recordCount, downloadUrl: answer.downloadUrl, fileSizeBytes: answer.fileSizeBytes };
    setFollowed(null);
    setState({ phase: 'done', report });
    toast({ title: texts.doneTitle, description: texts.doneDescription(report.recordCount) });
    startFileDownload(report.downloadUrl);
  };

  useJob(followed, REPORT_RULES, {
    progress: (answer) => setState({ phase: 'working', progress: percent(answer.progress), recordCount: answer.recordCount }),
    finished: (answer) => followed && finish(answer, followed.id),
    unreadable: refused,
  });

  const run = async (body: PdfReportBodies[K]) => {
    asking.current?.abort();
    setFollowed(null);
    const controller = new AbortController();
    asking.current = controller;
    const { signal } = controller;
    setState({ phase: 'working', progress: 0, recordCount: null });
    try {
      const job = await requestReportJob(kind, body, signal);
      signal.throwIfAborted();
      const first: ReportAnswer = { status: job.status, progress: job.progress, recordCount: job.recordCount, error: null, downloadUrl: job.pdfUrl, fileSizeBytes: null };
      setFollowed({ id: job.reportId, first });
    } catch (error) {
      if (!signal.aborted) refused(error);
    } finally {
      if (asking.current === controller) asking.current = null;
    }
  };

  return {
    state,
    working: state.phase === 'working',
    /** The field messages of a refused request (400 VALIDATION_FAILED), by field name. */
    fieldErrors: state.phase === 'failed' ? state.fields : NO_FIELDS,
    generate: (body: PdfReportBodies[K]) => void run(body),
    /**
     * Wraps a filter's setter: a new choice forgets the last outcome, whose figures were for
     * the old filters (a report being made goes on).
     */
    edit:
      <T>(set: (value: T) => void) =>
      (value: T) => {
        set(value);
        setState((current) => (current.phase === 'working' ? current : IDLE));
      },
  };
}
