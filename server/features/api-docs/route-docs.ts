/**
 * What the route table cannot say about each API route, for the OpenAPI document: its group
 * (tag), a one-line summary, the catalogue codes its own service or route raises besides the
 * ones every route can give (server/features/api-docs/document.ts adds those), and the file
 * types it answers with when the answer is a file rather than JSON. The request and JSON answer
 * schemas are the routes' own and are not repeated here. A route missing from this table fails
 * server/features/api-docs/openapi.test.ts.
 */
import { z } from 'zod';
import type { ErrorCode } from '../../../common/errors.js';
import { uploadMetadataSchema } from '../../../common/schemas/inspection.js';

export interface RouteDoc {
  tag: string;
  summary: string;
  /** The codes this route's own code raises (read from its route, service and their helpers). */
  errors?: readonly ErrorCode[];
  /** The media types of a file answer (200), when the route answers a file instead of JSON. */
  file?: readonly string[];
  /** The JSON Schema of a multipart/form-data body the route reads part by part (no body schema Fastify could check). */
  multipart?: Record<string, unknown>;
}

/** A multipart form's JSON Schema (OpenAPI 3.1): its parts, which are required, and each file part's media types. */
function multipartForm(parts: Record<string, Record<string, unknown>>, required: string[]): Record<string, unknown> {
  return { type: 'object', properties: parts, required };
}
const filePart = (types: readonly string[], description: string) => ({ type: 'string', contentMediaType: types.join(', '), description });

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PDF = 'application/pdf';
const IMAGE = ['image/jpeg', 'image/png', 'image/webp'] as const;
const REPORT_FILES = [PDF, XLSX, 'application/zip'] as const;
const REPORT_ERRORS = ['NO_RECORDS', 'TOO_MANY_REPORT_JOBS', 'REPORT_FAILED'] as const satisfies readonly ErrorCode[];

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/health': { tag: 'Health', summary: 'Whether the process and its database answer, the version, and whether this is a demo' },
  'GET /api/ready': { tag: 'Health', summary: 'Whether a load balancer should send this instance work: its database answers and is migrated, its blob store takes a write, it is not stopping (503 naming the failed check otherwise)' },
  'GET /api/openapi.json': { tag: 'API description', summary: 'This OpenAPI 3.1 document' },

  'POST /api/auth/login': { tag: 'Sign-in and account', summary: 'Sign in with employee ID and password; sets the session cookie', errors: ['INVALID_CREDENTIALS', 'TOO_MANY_LOGIN_ATTEMPTS'] },
  'POST /api/auth/logout': { tag: 'Sign-in and account', summary: 'Sign out: ends the session and clears its cookie' },
  'GET /api/auth/me': { tag: 'Sign-in and account', summary: 'The signed-in user' },
  'POST /api/auth/change-password': { tag: 'Sign-in and account', summary: "Change the signed-in user's own password" },
  'PUT /api/auth/language': { tag: 'Sign-in and account', summary: "Keep the signed-in user's interface language" },
  'GET /api/auth/demo-accounts': { tag: 'Sign-in and account', summary: 'The demo accounts to sign in with (404 unless demo mode is on)', errors: ['NOT_FOUND'] },
  'POST /api/auth/reset-password': { tag: 'Users', summary: "Set another user's password (they must choose a new one at next sign-in)", errors: ['NOT_FOUND'] },

  'GET /api/technicians': { tag: 'Users', summary: 'The technicians, for report and register filters' },
  'GET /api/users': { tag: 'Users', summary: 'All user accounts' },
  'POST /api/users': { tag: 'Users', summary: 'Create a user account', errors: ['CONFLICT'] },
  'POST /api/users/:employeeId/deactivate': { tag: 'Users', summary: 'Deactivate an account: it can no longer sign in; its records keep its name', errors: ['NOT_FOUND'] },
  'POST /api/users/:employeeId/reactivate': { tag: 'Users', summary: 'Reactivate a deactivated account', errors: ['NOT_FOUND'] },

  'GET /api/audit': { tag: 'Audit trail', summary: 'The audit trail of writes, newest first, paged and filtered' },

  'GET /api/consolidated-curves': { tag: 'Curves', summary: 'The curves the caller may see, paged and filtered' },
  'POST /api/consolidated-curves': { tag: 'Curves', summary: 'Add a curve', errors: ['CONFLICT'] },
  'PUT /api/admin/curves/:section/:curveNumber/:line': { tag: 'Curves', summary: 'Change a curve', errors: ['NOT_FOUND', 'CONFLICT'] },
  'DELETE /api/consolidated-curves/:section/:curveNumber/:line': { tag: 'Curves', summary: 'Delete a curve', errors: ['NOT_FOUND'] },

  'GET /api/stations': { tag: 'Stations', summary: 'The stations the caller may see' },
  'GET /api/admin/stations': { tag: 'Stations', summary: 'The stations with their row numbers, for the admin register' },
  'POST /api/stations': { tag: 'Stations', summary: 'Add a station', errors: ['CONFLICT'] },
  'PUT /api/admin/stations/:id': { tag: 'Stations', summary: 'Change a station', errors: ['NOT_FOUND', 'CONFLICT'] },
  'DELETE /api/stations/:id': { tag: 'Stations', summary: 'Delete a station', errors: ['NOT_FOUND'] },

  'GET /api/register-filters': { tag: 'Registers (import and export)', summary: "The registers' filter choices (divisions, sections)" },
  'POST /api/import-excel': {
    tag: 'Registers (import and export)',
    summary: 'Import the curve or station register from a CSV or XLSX file (all rows or none; dryRun checks only)',
    errors: ['IMPORT_FILE_INVALID', 'IMPORT_FILE_TOO_LARGE', 'IMPORT_ROWS_INVALID'],
    multipart: multipartForm(
      {
        type: { type: 'string', enum: ['curves', 'stations'], description: 'Which register the file holds; sent before the file' },
        file: filePart(['text/csv', XLSX], 'The register as CSV or XLSX'),
      },
      ['type', 'file'],
    ),
  },
  'GET /api/export/curves': { tag: 'Registers (import and export)', summary: 'The curve register as a spreadsheet', file: [XLSX] },
  'GET /api/export/stations': { tag: 'Registers (import and export)', summary: 'The station register as a spreadsheet', file: [XLSX] },

  'GET /api/machine-parts/categories': { tag: 'Machine parts', summary: 'The machine part categories' },
  'GET /api/machine-parts': { tag: 'Machine parts', summary: 'The machine parts, optionally of one category' },

  'POST /api/inspections/upload': {
    tag: 'Inspections',
    summary: 'Send a Service Inspection or CoF Measurement with its photo (201 new, 200 the same submission again)',
    errors: ['PHOTO_TOO_LARGE', 'PHOTO_INVALID', 'PHOTO_WRONG_TYPE', 'PHOTO_HASH_MISMATCH', 'CONFLICT'],
    multipart: multipartForm(
      {
        metadata: {
          type: 'string',
          contentMediaType: 'application/json',
          contentSchema: z.toJSONSchema(uploadMetadataSchema, { target: 'draft-2020-12', io: 'input' }),
          description: 'The record as JSON text; sent before the file, so a replay is answered without reading the photo',
        },
        file: filePart(['image/jpeg'], 'The photo with its burned-in overlay (at most 10 MB); its sha256 is in the metadata'),
      },
      ['metadata', 'file'],
    ),
  },
  'GET /api/inspections': { tag: 'Inspections', summary: 'The inspection records the caller may see, paged and filtered' },
  'GET /api/inspections/:recordId/image': { tag: 'Inspections', summary: "A record's photo (byte ranges supported)", errors: ['NOT_FOUND', 'RANGE_NOT_SATISFIABLE'], file: IMAGE },
  'GET /api/inspections/:recordId/thumbnail': { tag: 'Inspections', summary: "A record's photo thumbnail", errors: ['NOT_FOUND'], file: IMAGE },
  'DELETE /api/inspections/:recordId': { tag: 'Inspections', summary: 'Delete an inspection record and its photo', errors: ['NOT_FOUND'] },
  'POST /api/images/delete': { tag: 'Inspections', summary: 'Remove the photos of the given records' },
  'GET /api/image/download/:id': { tag: 'Inspections', summary: "Download a record's photo as an attachment", errors: ['NOT_FOUND'], file: IMAGE },
  'POST /api/images/download': { tag: 'Inspections', summary: 'Download the photos of the given records: one photo as itself, several as one ZIP file', errors: ['NOT_FOUND'], file: [...IMAGE, 'application/zip'] },

  'GET /api/data-summary': { tag: 'Data summary', summary: 'How many curves, stations and inspection records there are' },

  'GET /api/schedule': { tag: 'Maintenance schedule', summary: 'The due list: when service and CoF are next due or overdue, per curve' },
  'GET /api/schedule/summary': { tag: 'Maintenance schedule', summary: 'Due and overdue counts per section' },

  'GET /api/actions': { tag: 'Follow-up actions', summary: 'The follow-up actions the caller may see, filtered' },
  'GET /api/actions/counts': { tag: 'Follow-up actions', summary: 'Open and overdue follow-up actions per division' },
  'POST /api/actions/:id/close': { tag: 'Follow-up actions', summary: 'Close a follow-up action with a note', errors: ['NOT_FOUND', 'CONFLICT'] },
  'POST /api/actions/:id/reopen': { tag: 'Follow-up actions', summary: 'Reopen a closed follow-up action with a note', errors: ['NOT_FOUND', 'CONFLICT'] },

  'GET /api/analytics/summary': { tag: 'Analytics', summary: 'Compliance and fault figures for a date range' },
  'GET /api/analytics/dashboard': { tag: 'Analytics', summary: 'The analytics dashboard: trends, compliance and top faults' },
  'GET /api/analytics/export': { tag: 'Analytics', summary: 'The analytics figures as a spreadsheet or CSV', file: [XLSX, 'text/csv'] },

  'POST /api/reports/generate': { tag: 'Reports', summary: 'Start an inspection report (PDF or Excel)', errors: REPORT_ERRORS },
  'POST /api/reports/follow-up-actions': { tag: 'Reports', summary: 'Start a follow-up actions report', errors: REPORT_ERRORS },
  'POST /api/reports/analytics': { tag: 'Reports', summary: 'Start an analytics report', errors: REPORT_ERRORS },
  'POST /api/reports/sse-table': { tag: 'Reports', summary: 'Start an SSE CoF table report', errors: REPORT_ERRORS },
  'POST /api/reports/service-table': {
    tag: 'Reports',
    summary: 'The service table report: the PDF itself when it is ready in time, else (or with Prefer: respond-async) a report job',
    errors: REPORT_ERRORS,
  },
  'POST /api/reports/curve-maintenance': { tag: 'Reports', summary: 'Start a curve maintenance report', errors: REPORT_ERRORS },
  'GET /api/reports/:reportId': { tag: 'Reports', summary: "A report job's state and progress", errors: ['NOT_FOUND'] },
  'GET /api/reports': { tag: 'Reports', summary: "The caller's recent reports" },
  'GET /api/reports/download/:reportId': { tag: 'Reports', summary: 'Download a finished report', errors: ['NOT_FOUND', 'REPORT_NOT_READY', 'REPORT_FAILED'], file: REPORT_FILES },
  'GET /api/download/:reportId': { tag: 'Reports', summary: 'Download a finished report (the path of the original app)', errors: ['NOT_FOUND', 'REPORT_NOT_READY', 'REPORT_FAILED'], file: REPORT_FILES },
  'GET /api/machine-report': { tag: 'Reports', summary: 'Start a machine rollout report', errors: REPORT_ERRORS },

  'GET /api/machine-filters': { tag: 'Machine rollout', summary: 'The machine rollout filter choices (DEN, AEN)' },
  'GET /api/machine-stats': { tag: 'Machine rollout', summary: 'Machine rollout figures by DEN and AEN' },
  'GET /api/machine-progress': { tag: 'Machine rollout', summary: 'Machine rollout progress per curve' },
  'GET /api/machine-dashboard-summaries': { tag: 'Machine rollout', summary: "Every division's machine dashboard summary" },
  'GET /api/machine-dashboard-summary': { tag: 'Machine rollout', summary: "One division's machine dashboard summary" },
  'PUT /api/machine-dashboard-summary': { tag: 'Machine rollout', summary: "Set one division's machine dashboard summary" },

  'GET /api/download/requirements': { tag: 'Documents', summary: 'The requirements document as a PDF', file: [PDF] },
  'GET /api/download/user-requirements': { tag: 'Documents', summary: 'The user requirements document as a PDF', file: [PDF] },

  'GET /api/admin/files/status': { tag: 'File tools', summary: 'Check the stored photos against the records (a task; 202 while it runs)' },
  'POST /api/admin/files/restore': { tag: 'File tools', summary: 'Restore missing photos from the backups (a task)' },
  'POST /api/admin/files/recreate': { tag: 'File tools', summary: "Recreate photos' derived files (a task)" },
  'GET /api/admin/files/tasks': { tag: 'File tools', summary: 'The recent file tasks' },
  'GET /api/admin/files/tasks/:taskId': { tag: 'File tools', summary: "A file task's state and result", errors: ['NOT_FOUND'] },
};
