import type { z } from 'zod';
import type { actionReportRequestSchema } from '../../../../../common/schemas/actions.js';
import type { analyticsReportRequestSchema } from '../../../../../common/schemas/analytics.js';
import {
  type inspectionReportRequestSchema,
  type ReportJobResponse,
  reportJobResponseSchema,
  type ReportKind,
  reportListResponseSchema,
  type ReportSummary,
  reportSummarySchema,
  type serviceReportRequestSchema,
  type sseReportRequestSchema,
} from '../../../../../common/schemas/reports.js';
import {
  type MaintenanceReportResponse,
  maintenanceReportResponseSchema,
  type ScheduleSummaryResponse,
  scheduleSummaryResponseSchema,
} from '../../../../../common/schemas/schedule.js';
import { ApiError, apiRequest, reportUnauthorized } from '../../../lib/api-client.js';
import { userDataHeaders } from '../../../lib/request-headers.js';
import { type DownloadedFile, fileNameFromDisposition } from '../records/index.js';

export const scheduleSummaryUrl = (division: string, section: string): string => {
  const params = new URLSearchParams();
  if (division !== 'all' && division !== '') params.set('division', division);
  if (section !== 'all' && section !== '') params.set('section', section);
  const query = params.toString();
  return query === '' ? '/api/schedule/summary' : `/api/schedule/summary?${query}`;
};

export const parseScheduleSummary = (body: unknown): ScheduleSummaryResponse => scheduleSummaryResponseSchema.parse(body);

export async function generateMaintenanceReport(division: string, section: string): Promise<MaintenanceReportResponse> {
  const res = await apiRequest('POST', '/api/reports/curve-maintenance', { division, section });
  return maintenanceReportResponseSchema.parse(await res.json());
}

export async function downloadReport(reportId: string, fallbackName: string): Promise<DownloadedFile> {
  const res = await apiRequest('GET', `/api/reports/download/${encodeURIComponent(reportId)}`);
  return { blob: await res.blob(), fileName: fileNameFromDisposition(res.headers.get('Content-Disposition')) ?? fallbackName };
}

/** The signed-in user's recent reports of one kind (GET /api/reports). */
export const recentReportsUrl = (kind: ReportKind) => `/api/reports?kind=${kind}&limit=10`;

export const parseRecentReports = (body: unknown): ReportSummary[] => reportListResponseSchema.parse(body).reports;

/* ---------- PDF reports: asked for, made as a job, polled, downloaded by the browser ---------- */

/** The request bodies as the server's schemas take them (optional fields may be left out). */
export type InspectionReportBody = z.input<typeof inspectionReportRequestSchema>;
export type SseReportBody = z.input<typeof sseReportRequestSchema>;
export type ServiceReportBody = z.input<typeof serviceReportRequestSchema>;
export type ActionReportBody = z.input<typeof actionReportRequestSchema>;
export type AnalyticsReportBody = z.input<typeof analyticsReportRequestSchema>;

export const REPORT_JOB_URLS = {
  'inspection-pdf': '/api/reports/generate',
  'sse-cof-pdf': '/api/reports/sse-table',
  'service-table-pdf': '/api/reports/service-table',
  // Not a PDF, but made and followed like them: the Actions view's Excel report.
  'follow-up-actions': '/api/reports/follow-up-actions',
  // The Analytics dashboard as a PDF.
  'analytics-pdf': '/api/reports/analytics',
} as const;
export type PdfReportKind = keyof typeof REPORT_JOB_URLS;
export interface PdfReportBodies {
  'inspection-pdf': InspectionReportBody;
  'sse-cof-pdf': SseReportBody;
  'service-table-pdf': ServiceReportBody;
  'follow-up-actions': ActionReportBody;
  'analytics-pdf': AnalyticsReportBody;
}

export const reportStatusUrl = (reportId: string) => `/api/reports/${encodeURIComponent(reportId)}`;

/**
 * A JSON call that can be cancelled (the api client's apiRequest takes no signal and no extra
 * headers), with the same X-User-Data header, 401 handling and ApiError on a non-OK answer.
 */
async function jsonCall(method: 'GET' | 'POST', url: string, { body, signal, headers }: { body?: unknown; signal: AbortSignal; headers?: Record<string, string> }): Promise<unknown> {
  const hasBody = body !== undefined;
  const res = await fetch(url, {
    method,
    headers: { Accept: 'application/json', ...(hasBody ? { 'Content-Type': 'application/json' } : {}), ...userDataHeaders(), ...headers },
    body: hasBody ? JSON.stringify(body) : undefined,
    credentials: 'include',
    signal,
  });
  if (!res.ok) {
    if (res.status === 401) reportUnauthorized();
    throw new ApiError(res.status, res.statusText, await res.text().catch(() => ''));
  }
  return res.json();
}

/**
 * Asks for a PDF report. `Prefer: respond-async` on every kind: /service-table answers the PDF
 * itself without it; the other two answer the job either way.
 */
export async function requestReportJob<K extends PdfReportKind>(kind: K, body: PdfReportBodies[K], signal: AbortSignal): Promise<ReportJobResponse> {
  return reportJobResponseSchema.parse(await jsonCall('POST', REPORT_JOB_URLS[kind], { body, signal, headers: { Prefer: 'respond-async' } }));
}

/** GET /api/reports/{reportId}: the report's status and progress while it is made. */
export async function fetchReportSummary(reportId: string, signal: AbortSignal): Promise<ReportSummary> {
  return reportSummarySchema.parse(await jsonCall('GET', reportStatusUrl(reportId), { signal }));
}

/* ---------- The pickers' lists ---------- */

/** The placeholder SSE 'SSE' is left out; SSE names are sorted alphabetically. */
export function sseChoices(sses: readonly string[]): string[] {
  return [...new Set(sses.map((s) => s.trim()).filter((s) => s !== '' && s !== 'SSE'))].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
}
