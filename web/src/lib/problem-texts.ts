/**
 * Errors and validation messages in the reader's language, loaded just after the first screen
 * (problem-text-registry.ts: until then they read as sent). The server and the shared schemas
 * (common/) speak English, the spec's texts; the app turns an error's code (common/errors.ts)
 * and the shared schemas' messages into the active language here. English stays exactly what
 * the server sent. A message not listed (a newer server's, or one naming a value) is shown as
 * sent, in English. problem-texts.test.ts holds the codes' English texts to common/errors.ts.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ErrorCode } from '../../../common/errors.js';
import { i18n } from './i18n.js';

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
 * The shared schemas' field messages (common/schemas, common/rules) by their English text, as
 * written there (problem-texts.test.ts holds each key to its English text).
 */
/* eslint-disable lingui/no-unlocalized-strings -- the keys are the English texts the schemas send, matched to their translation */
export const FIELD_PROBLEM_TEXTS: ReadonlyMap<string, MessageDescriptor> = new Map([
  ['CoF value is required', msg`CoF value is required`],
  ['Curve number is required', msg`Curve number is required`],
  ['Curve number must be at most 50 characters', msg`Curve number must be at most 50 characters`],
  ['Date is not a real date', msg`Date is not a real date`],
  ['Date is required', msg`Date is required`],
  ['Date must be in the form YYYY-MM-DD', msg`Date must be in the form YYYY-MM-DD`],
  ['Degree must be a number', msg`Degree must be a number`],
  ['Degree must be at least 0', msg`Degree must be at least 0`],
  ['Degree must be at most 999.99', msg`Degree must be at most 999.99`],
  ['Degree must have at most 2 decimals', msg`Degree must have at most 2 decimals`],
  ['Division access is required for a Client', msg`Division access is required for a Client`],
  ['Division/Railway is required', msg`Division/Railway is required`],
  ['Grease depth must be a number', msg`Grease depth must be a number`],
  ['Grease depth must be in steps of 0.1', msg`Grease depth must be in steps of 0.1`],
  ['Location must be Far End or Near End', msg`Location must be Far End or Near End`],
  ['Name is required', msg`Name is required`],
  ['Name must be at most 100 characters', msg`Name must be at most 100 characters`],
  ['Phone is required', msg`Phone is required`],
  ['Please answer: Is the Machine working?', msg`Please answer: Is the Machine working?`],
  ['Please select a line', msg`Please select a line`],
  ['Please select a part category', msg`Please select a part category`],
  ['Please select a service update', msg`Please select a service update`],
  ['Please select an item name', msg`Please select an item name`],
  ['Role must be Technician, Admin or Client', msg`Role must be Technician, Admin or Client`],
  ['Section is required', msg`Section is required`],
  ['Section must be at most 100 characters', msg`Section must be at most 100 characters`],
  ['Type must be Service or CoF', msg`Type must be Service or CoF`],
  ['Employee ID is required', msg`Employee ID is required`],
  ['Employee ID must be at most 50 characters', msg`Employee ID must be at most 50 characters`],
  ["Employee ID may contain only letters, digits, '.', '_' and '-'", msg`Employee ID may contain only letters, digits, '.', '_' and '-'`],
  ['Current password is required', msg`Current password is required`],
  ['Current password is incorrect', msg`Current password is incorrect`],
  ['New password is required', msg`New password is required`],
  ['Password is required', msg`Password is required`],
  ['Password must be at most 200 characters', msg`Password must be at most 200 characters`],
  ['Password must be at least 8 characters', msg`Password must be at least 8 characters`],
  ['The new password must not be your employee ID', msg`The new password must not be your employee ID`],
  ['The new password must not be your phone number', msg`The new password must not be your phone number`],
  ['The new password must be different from the current one', msg`The new password must be different from the current one`],
]);
/* eslint-enable lingui/no-unlocalized-strings */

const codeTexts: ReadonlyMap<string, MessageDescriptor> = new Map(Object.entries(ERROR_TEXTS));

/** A field's validation message in the active language (as written when the catalogue lacks it). */
export function fieldProblemText(message: string): string {
  const known = FIELD_PROBLEM_TEXTS.get(message);
  return known === undefined ? message : i18n._(known);
}

/**
 * An error answer's message for a person: in English the server's own words; in another
 * language the field message's translation when known, else the code's.
 */
export function errorAnswerText(code: string, message: string): string {
  if (i18n.locale === 'en') return message;
  const known = FIELD_PROBLEM_TEXTS.get(message) ?? codeTexts.get(code);
  return known === undefined ? message : i18n._(known);
}
