/**
 * Reports kept for download (DESIGN section 13): a user's recent reports, to download again
 * without making them again (GET /api/reports).
 */
import { z } from 'zod';

export const REPORT_KINDS = ['curve-maintenance'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_LIST_MAX = 50;

export const reportListQuerySchema = z.object({
  kind: z.enum(REPORT_KINDS, { error: `kind must be one of ${REPORT_KINDS.join(', ')}` }).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(REPORT_LIST_MAX, `limit must be at most ${REPORT_LIST_MAX}`)
    .default(10),
});
export type ReportListQuery = z.infer<typeof reportListQuerySchema>;

export const reportSummarySchema = z.object({
  reportId: z.string(),
  kind: z.enum(REPORT_KINDS),
  /** What was asked, e.g. {division, section}. */
  params: z.record(z.string(), z.unknown()),
  division: z.string().nullable(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  recordCount: z.number().int().nullable(),
  /** The report's own figures, e.g. {serviceCount, cofCount}. */
  summary: z.record(z.string(), z.unknown()).nullable(),
  fileName: z.string().nullable(),
  fileSizeBytes: z.number().int().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

export const reportListResponseSchema = z.object({ reports: z.array(reportSummarySchema) });
export type ReportListResponse = z.infer<typeof reportListResponseSchema>;
