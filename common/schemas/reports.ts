/**
 * Reports (docs/architecture.md, 'How a job flows'): each is a job recorded in the database, made
 * by a worker of any instance, kept as a file for download; a user's recent reports can be
 * downloaded again without making them again (GET /api/reports).
 */
import { z } from 'zod';
import { DIVISIONS, INSPECTION_TYPES } from '../constants.js';
import { filterDate, filterText } from './inspection.js';

export const REPORT_KINDS = ['curve-maintenance', 'inspection-pdf', 'sse-cof-pdf', 'service-table-pdf', 'machine-dashboard', 'follow-up-actions', 'analytics-pdf'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** The most records one PDF holds: 2,000 photos is about 1,000 pages. */
export const PDF_PHOTO_REPORT_MAX_RECORDS = 2000;
/** The most rows of a table PDF (about 550 pages). */
export const PDF_TABLE_REPORT_MAX_RECORDS = 20000;

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
  status: z.enum(REPORT_STATUSES),
  /** 0-100 while it is made. */
  progress: z.number().int(),
  recordCount: z.number().int().nullable(),
  /** The report's own figures, e.g. {serviceCount, cofCount}. */
  summary: z.record(z.string(), z.unknown()).nullable(),
  /** Why a failed report failed, in words a person can act on. */
  error: z.string().nullable(),
  fileName: z.string().nullable(),
  fileSizeBytes: z.number().int().nullable(),
  /** GET here once status is done. */
  downloadUrl: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

export const reportListResponseSchema = z.object({ reports: z.array(reportSummarySchema) });
export type ReportListResponse = z.infer<typeof reportListResponseSchema>;

export const reportIdParamsSchema = z.object({ reportId: z.uuid({ error: 'reportId must be a report ID' }) });

/**
 * What POST /api/reports/generate and /sse-table answer (and /service-table with `Prefer:
 * respond-async`): 200 when the report was made within a moment, else 202 while it is made.
 * `recordCount` is known at once (the records are fixed when the report is asked for);
 * poll GET /api/reports/{reportId} for progress, then download `pdfUrl`.
 */
export const reportJobResponseSchema = z.object({
  reportId: z.string(),
  status: z.enum(REPORT_STATUSES),
  progress: z.number().int(),
  recordCount: z.number().int(),
  pdfUrl: z.string(),
});
export type ReportJobResponse = z.infer<typeof reportJobResponseSchema>;

export const MISSING_REPORT_FIELDS = 'Please select both Division and Service Type to generate a report.';

/** A report's division: one of the divisions, or 'all' (Admins only; a Client always gets theirs). */
const reportDivision = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .refine((v) => v === 'all' || (DIVISIONS as readonly string[]).includes(v), { error: `division must be all or one of ${DIVISIONS.join(', ')}` });

/** An optional text filter: '', 'all' and absent all mean "no filter". */
const optionalChoice = (max: number, label: string) => filterText(max, label).transform((v) => (v === undefined || v.toLowerCase() === 'all' ? undefined : v));

const dateOrder = <T extends { fromDate?: string | undefined; toDate?: string | undefined }>(v: T) => v.fromDate === undefined || v.toDate === undefined || v.fromDate <= v.toDate;
const dateOrderError = { path: ['toDate'], message: 'toDate must be on or after fromDate' };

export const PDF_RECORD_ORDERS = ['newest', 'curve'] as const;

/** POST /api/reports/generate: the inspections with their photos (the report request). */
export const inspectionReportRequestSchema = z
  .object({
    type: z.enum(INSPECTION_TYPES, { error: MISSING_REPORT_FIELDS }),
    division: reportDivision(MISSING_REPORT_FIELDS),
    fromDate: filterDate('fromDate'),
    toDate: filterDate('toDate'),
    technicianId: optionalChoice(50, 'technicianId'),
    format: z.literal('images', { error: "format must be 'images'" }).default('images'),
    /** Newest first (the default), or by section, curve and line, then date. */
    order: z.enum(PDF_RECORD_ORDERS, { error: 'order must be newest or curve' }).default('newest'),
  })
  .refine(dateOrder, dateOrderError);
export type InspectionReportRequest = z.infer<typeof inspectionReportRequestSchema>;

/** POST /api/reports/sse-table: an SSE's CoF measurements as a table with a chart per curve. */
export const sseReportRequestSchema = z
  .object({
    division: reportDivision('division is required'),
    sseEngineer: optionalChoice(150, 'sseEngineer'),
    fromDate: filterDate('fromDate'),
    toDate: filterDate('toDate'),
  })
  .refine(dateOrder, dateOrderError);
export type SseReportRequest = z.infer<typeof sseReportRequestSchema>;

/** POST /api/reports/service-table: Service visits as a table; answers the PDF itself. */
export const serviceReportRequestSchema = z
  .object({
    division: reportDivision('division is required'),
    /** A technician's employee ID. */
    technician: optionalChoice(50, 'technician'),
    sseEngineer: optionalChoice(150, 'sseEngineer'),
    fromDate: filterDate('fromDate'),
    toDate: filterDate('toDate'),
  })
  .refine(dateOrder, dateOrderError);
export type ServiceReportRequest = z.infer<typeof serviceReportRequestSchema>;
