import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ReportSummary } from '../../../../../common/schemas/reports.js';
import { toast } from '../../../components/ui/toast-store.js';
import { apiErrorMessage, errorStatus, isNetworkError } from '../../../lib/api-client.js';
import { startFileDownload } from '../../../lib/file-download.js';
import { apiErrorFields } from '../../../lib/api-failure.js';
import { REPORT_TEXTS } from './report-texts.js';
import {
  fetchReportSummary,
  type PdfReportBodies,
  type PdfReportKind,
  recentReportsUrl,
  requestReportJob,
} from './reports-api.js';
import { pause } from '../../../lib/pause.js';

/** How often a report being made is asked about. */
export const REPORT_POLL_MS = 700;
/** Failed polls in a row (no network, a server hiccup) borne before the view gives up. */
const POLL_RETRIES = 3;

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
const isMaking = (status: ReportSummary['status']) => status === 'queued' || status === 'running';
/** A failed poll worth another try: the line dropped or the server hiccuped. */
const isTransient = (error: unknown) => isNetworkError(error) || (errorStatus(error) ?? 0) >= 500;

/**
 * One PDF report from asking to download (reports are jobs: docs/architecture.md, 'How a job flows'): POST the
 * request, poll GET /api/reports/{id} while it is queued or running, then the toast and the
 * browser's own download of the file; a failure gives the Error toast with the server's
 * reason. Leaving the view stops the polling (the report is still made, and is listed under
 * the recent reports).
 */
export function useReportJob<K extends PdfReportKind>(kind: K, texts: ReportJobTexts) {
  const [state, setState] = useState<ReportJobState>(IDLE);
  const running = useRef<AbortController | null>(null);
  const queryClient = useQueryClient();

  useEffect(
    () => () => {
      running.current?.abort();
    },
    [],
  );

  const fail = (message: string, fields: Record<string, string>) => {
    setState({ phase: 'failed', message, fields });
    toast({ variant: 'destructive', title: REPORT_TEXTS.errorTitle, description: message });
  };

  const run = async (body: PdfReportBodies[K]) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    const { signal } = controller;
    setState({ phase: 'working', progress: 0, recordCount: null });
    try {
      const job = await requestReportJob(kind, body, signal);
      setState({ phase: 'working', progress: percent(job.progress), recordCount: job.recordCount });
      let status = job.status;
      let latest: ReportSummary | null = null;
      let failedPolls = 0;
      while (isMaking(status)) {
        await pause(REPORT_POLL_MS, signal);
        try {
          latest = await fetchReportSummary(job.reportId, signal);
          failedPolls = 0;
        } catch (error) {
          failedPolls += 1;
          if (signal.aborted || !isTransient(error) || failedPolls > POLL_RETRIES) throw error;
          continue;
        }
        status = latest.status;
        setState({ phase: 'working', progress: percent(latest.progress), recordCount: latest.recordCount ?? job.recordCount });
      }
      signal.throwIfAborted();
      void queryClient.invalidateQueries({ queryKey: [recentReportsUrl(kind)] });
      if (status === 'failed') {
        fail(latest?.error?.trim() || texts.failed, NO_FIELDS);
        return;
      }
      const report: FinishedReport = {
        reportId: job.reportId,
        recordCount: latest?.recordCount ?? job.recordCount,
        downloadUrl: latest?.downloadUrl ?? job.pdfUrl,
        fileSizeBytes: latest?.fileSizeBytes ?? null,
      };
      setState({ phase: 'done', report });
      toast({ title: texts.doneTitle, description: texts.doneDescription(report.recordCount) });
      startFileDownload(report.downloadUrl);
    } catch (error) {
      if (signal.aborted) return;
      // A 400 names the field at fault: its message says more than 'The request is not valid'.
      const fields = apiErrorFields(error);
      fail(Object.values(fields)[0] ?? apiErrorMessage(error, texts.failed), fields);
    } finally {
      if (running.current === controller) running.current = null;
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
