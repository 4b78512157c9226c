/**
 * Errors and validation messages in the reader's language. The server and the shared schemas
 * (common/) speak English, the spec's texts; the app turns an error's code (common/errors.ts)
 * and the shared schemas' messages into the active language here. English stays exactly what
 * the server sent. A message not listed (a newer server's, or one naming a value) is shown as
 * sent, in English. problem-texts.test.ts holds the codes' English texts to common/errors.ts.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ErrorCode } from '../../../common/errors.js';
import { englishAppTexts, i18n } from './i18n.js';

/** Each code of the error catalogue, with its message as common/errors.ts writes it. */
export const ERROR_TEXTS: Readonly<Record<ErrorCode, MessageDescriptor>> = {
  VALIDATION_FAILED: msg`The request is not valid`,
  MALFORMED_JSON: msg`The request body is not valid JSON`,
  UNSUPPORTED_MEDIA_TYPE: msg`This content type is not accepted here`,
  BODY_TOO_LARGE: msg`The request body is too large`,
  REQUEST_TIMEOUT: msg`The request took too long to arrive. Please try again`,
  HEADERS_TOO_LARGE: msg`The request headers are too large`,
  INVALID_CREDENTIALS: msg`Invalid employee ID or password`,
  NOT_AUTHENTICATED: msg`Please sign in to continue`,
  SESSION_EXPIRED: msg`Your session has expired. Please sign in again`,
  FORBIDDEN: msg`You don't have permission to access this section.`,
  PASSWORD_CHANGE_REQUIRED: msg`Please choose a new password before you continue`,
  CROSS_SITE_REQUEST: msg`This request came from another site and was refused`,
  NOT_FOUND: msg`Not found`,
  ROUTE_NOT_FOUND: msg`No such API route`,
  METHOD_NOT_ALLOWED: msg`Method not allowed`,
  CONFLICT: msg`That record already exists`,
  RANGE_NOT_SATISFIABLE: msg`The range asked for is not within the file`,
  PHOTO_TOO_LARGE: msg`File too large: Maximum size is 10MB`,
  PHOTO_INVALID: msg`Invalid file: File is empty or corrupted`,
  PHOTO_WRONG_TYPE: msg`Invalid file type: Only image files are allowed`,
  PHOTO_HASH_MISMATCH: msg`The photo was damaged on the way: its sha256 does not match. Please send it again`,
  IMPORT_FILE_INVALID: msg`The file cannot be read as CSV or XLSX`,
  IMPORT_FILE_TOO_LARGE: msg`The file is too large to import`,
  IMPORT_ROWS_INVALID: msg`Some rows of the file are not valid: nothing was imported`,
  NO_RECORDS: msg`No records match the selected filters`,
  REPORT_TOO_LARGE: msg`Too many records for one report: narrow the dates or filters`,
  REPORT_NOT_READY: msg`The report is still being made`,
  REPORT_FAILED: msg`The report could not be made`,
  TOO_MANY_REPORT_JOBS: msg`Too many of your reports are still being made. Please wait for one of them to finish, then ask again`,
  TOO_MANY_LOGIN_ATTEMPTS: msg`Too many failed sign-in attempts. Please wait a few minutes and try again`,
  DATABASE_UNAVAILABLE: msg`The database is not reachable`,
  INTERNAL: msg`Something went wrong on the server`,
};

/**
 * The shared schemas' field messages (common/schemas, common/rules), as written there: listed so
 * the catalogue holds them; they are found by their English text (englishIdOf).
 */
export const FIELD_PROBLEM_TEXTS: readonly MessageDescriptor[] = [
  msg`CoF value is required`,
  msg`Curve number is required`,
  msg`Curve number must be at most 50 characters`,
  msg`Date is not a real date`,
  msg`Date is required`,
  msg`Date must be in the form YYYY-MM-DD`,
  msg`Degree must be a number`,
  msg`Degree must be at least 0`,
  msg`Degree must be at most 999.99`,
  msg`Degree must have at most 2 decimals`,
  msg`Division access is required for a Client`,
  msg`Division/Railway is required`,
  msg`Grease depth must be a number`,
  msg`Grease depth must be in steps of 0.1`,
  msg`Location must be Far End or Near End`,
  msg`Name is required`,
  msg`Name must be at most 100 characters`,
  msg`Phone is required`,
  msg`Please answer: Is the Machine working?`,
  msg`Please select a line`,
  msg`Please select a part category`,
  msg`Please select a service update`,
  msg`Please select an item name`,
  msg`Role must be Technician, Admin or Client`,
  msg`Section is required`,
  msg`Section must be at most 100 characters`,
  msg`Type must be Service or CoF`,
  msg`Employee ID is required`,
  msg`Employee ID must be at most 50 characters`,
  msg`Employee ID may contain only letters, digits, '.', '_' and '-'`,
  msg`Current password is required`,
  msg`Current password is incorrect`,
  msg`New password is required`,
  msg`Password is required`,
  msg`Password must be at most 200 characters`,
  msg`Password must be at least 8 characters`,
  msg`The new password must not be your employee ID`,
  msg`The new password must not be your phone number`,
  msg`The new password must be different from the current one`,
];

const codeTexts: ReadonlyMap<string, MessageDescriptor> = new Map(Object.entries(ERROR_TEXTS));

/** A compiled catalogue message as plain text, or null when it has placeholders or plurals. */
function plainText(compiled: unknown): string | null {
  if (typeof compiled === 'string') return compiled;
  return Array.isArray(compiled) && compiled.every((part) => typeof part === 'string') ? compiled.join('') : null;
}

let englishIds: ReadonlyMap<string, string> | null = null;
/** The catalogue id of an English text of the first screens' catalogue (so no text is written twice). */
function englishIdOf(text: string): string | undefined {
  englishIds ??= new Map(
    Object.entries(englishAppTexts).flatMap(([id, compiled]) => {
      const plain = plainText(compiled);
      return plain === null ? [] : [[plain, id] as const];
    }),
  );
  return englishIds.get(text);
}

/** A field's validation message in the active language (as written when the catalogue lacks it). */
export function fieldProblemText(message: string): string {
  const id = englishIdOf(message);
  return id === undefined ? message : i18n._(id);
}

/**
 * An error answer's message for a person: in English the server's own words; in another
 * language the field message's translation when known, else the code's.
 */
export function errorAnswerText(code: string, message: string): string {
  if (i18n.locale === 'en') return message;
  const id = englishIdOf(message);
  if (id !== undefined) return i18n._(id);
  const known = codeTexts.get(code);
  return known === undefined ? message : i18n._(known);
}
