/**
 * The error catalogue: one stable code per failure an API client can meet, with its HTTP
 * status and the message a person reads. Server code throws by code; clients may match on it.
 */
import type { ErrorAnswer } from './schemas/error-body.js';

export const ERRORS = {
  VALIDATION_FAILED: { status: 400, message: 'The request is not valid' },
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'This content type is not accepted here' },
  BODY_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive. Please try again' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid employee ID or password' },
  NOT_AUTHENTICATED: { status: 401, message: 'Please sign in to continue' },
  SESSION_EXPIRED: { status: 401, message: 'Your session has expired. Please sign in again' },
  FORBIDDEN: { status: 403, message: "You don't have permission to access this section." },
  PASSWORD_CHANGE_REQUIRED: { status: 403, message: 'Please choose a new password before you continue' },
  CROSS_SITE_REQUEST: { status: 403, message: 'This request came from another site and was refused' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No such API route' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  CONFLICT: { status: 409, message: 'That record already exists' },
  RANGE_NOT_SATISFIABLE: { status: 416, message: 'The range asked for is not within the file' },
  PHOTO_TOO_LARGE: { status: 413, message: 'File too large: Maximum size is 10MB' },
  PHOTO_INVALID: { status: 400, message: 'Invalid file: File is empty or corrupted' },
  PHOTO_WRONG_TYPE: { status: 400, message: 'Invalid file type: Only image files are allowed' },
  PHOTO_HASH_MISMATCH: { status: 400, message: 'The photo was damaged on the way: its sha256 does not match. Please send it again' },
  IMPORT_FILE_INVALID: { status: 400, message: 'The file cannot be read as CSV or XLSX' },
  IMPORT_FILE_TOO_LARGE: { status: 413, message: 'The file is too large to import' },
  IMPORT_ROWS_INVALID: { status: 400, message: 'Some rows of the file are not valid: nothing was imported' },
  NO_RECORDS: { status: 404, message: 'No records match the selected filters' },
  REPORT_TOO_LARGE: { status: 422, message: 'Too many records for one report: narrow the dates or filters' },
  REPORT_NOT_READY: { status: 409, message: 'The report is still being made' },
  REPORT_FAILED: { status: 409, message: 'The report could not be made' },
  TOO_MANY_REPORT_JOBS: {
    status: 429,
    message: 'Too many of your reports are still being made. Please wait for one of them to finish, then ask again',
  },
  TOO_MANY_LOGIN_ATTEMPTS: {
    status: 429,
    message: 'Too many failed sign-in attempts. Please wait a few minutes and try again',
  },
  DATABASE_UNAVAILABLE: { status: 503, message: 'The database is not reachable' },
  INTERNAL: { status: 500, message: 'Something went wrong on the server' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** The JSON body of every error answer (its schema: common/schemas/error-body.ts), with a code of this catalogue. */
export type ErrorBody = Omit<ErrorAnswer, 'code'> & { code: ErrorCode };
