import { z } from 'zod';
import type { ReportSummary } from '../../../../../common/schemas/reports.js';
import type { MaintenanceReportResponse, ScheduleSummaryResponse } from '../../../../../common/schemas/schedule.js';
import { apiRequest } from '../../../lib/api-client.js';
import { type DownloadedFile, fileNameFromDisposition } from '../records/index.js';

/*
 * common/schemas/schedule.ts is imported for its types only (see register-api.ts): its
 * schemas built at run time would pull Zod features into the technician's entry chunk.
 */

export const scheduleSummaryUrl = (division: string, section: string): string => {
  const params = new URLSearchParams();
  if (division !== 'all' && division !== '') params.set('division', division);
  if (section !== 'all' && section !== '') params.set('section', section);
  const query = params.toString();
  return query === '' ? '/api/schedule/summary' : `/api/schedule/summary?${query}`;
};

const counts = { overdue: z.number(), dueSoon: z.number(), never: z.number(), inTime: z.number(), attention: z.number() };
const summarySchema = z.object({
  asOf: z.string(),
  cofAlertThreshold: z.number(),
  sections: z.array(
    z.object({
      divisionRailway: z.string(),
      section: z.string(),
      curves: z.number(),
      service: z.object({ ...counts, notNeeded: z.number() }),
      cof: z.object({ ...counts, high: z.number() }),
    }),
  ),
});
export const parseScheduleSummary = (body: unknown): ScheduleSummaryResponse => summarySchema.parse(body);

const maintenanceSchema = z.object({ serviceCount: z.number(), cofCount: z.number(), reportId: z.string() });

export async function generateMaintenanceReport(division: string, section: string): Promise<MaintenanceReportResponse> {
  const res = await apiRequest('POST', '/api/reports/curve-maintenance', { division, section });
  return maintenanceSchema.parse(await res.json());
}

export async function downloadReport(reportId: string, fallbackName: string): Promise<DownloadedFile> {
  const res = await apiRequest('GET', `/api/reports/download/${encodeURIComponent(reportId)}`);
  return { blob: await res.blob(), fileName: fileNameFromDisposition(res.headers.get('Content-Disposition')) ?? fallbackName };
}

/** The signed-in user's recent reports of one kind (GET /api/reports). */
export const recentReportsUrl = (kind: ReportSummary['kind']) => `/api/reports?kind=${kind}&limit=10`;

const recentSchema = z.object({
  reports: z.array(
    z.object({
      reportId: z.string(),
      kind: z.literal('curve-maintenance'),
      params: z.record(z.string(), z.unknown()),
      division: z.string().nullable(),
      status: z.enum(['queued', 'running', 'done', 'failed']),
      recordCount: z.number().nullable(),
      summary: z.record(z.string(), z.unknown()).nullable(),
      fileName: z.string().nullable(),
      fileSizeBytes: z.number().nullable(),
      createdAt: z.string(),
      expiresAt: z.string(),
    }),
  ),
});
export const parseRecentReports = (body: unknown): ReportSummary[] => recentSchema.parse(body).reports;
