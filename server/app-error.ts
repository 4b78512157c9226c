import type { z } from 'zod';
import { ERRORS, type ErrorBody, type ErrorCode } from '../common/errors.js';

export interface AppErrorOptions {
  /** Field-level problems: field path -> message. */
  fields?: Record<string, string>;
  /** Extra response headers, such as Retry-After on a 429. */
  headers?: Record<string, string>;
  /** An import's bad rows (ErrorBody.rowErrors). */
  rowErrors?: ErrorBody['rowErrors'];
}

/** A failure the client should hear about: a catalogue code, optionally a more precise message. */
export class AppError extends Error {
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly rowErrors: ErrorBody['rowErrors'];

  constructor(
    readonly code: ErrorCode,
    message?: string,
    options: AppErrorOptions = {},
  ) {
    super(message ?? ERRORS[code].message);
    this.status = ERRORS[code].status;
    this.fields = options.fields;
    this.headers = options.headers;
    this.rowErrors = options.rowErrors;
  }
}

/**
 * A 400 naming each failing field, from a Zod error of a body the route parsed itself
 * (multipart metadata, for instance). The message names the first field and its rule.
 */
export function validationError(error: z.ZodError, prefix = ''): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'body';
    fields[field] ??= issue.message;
  }
  const [field, message] = Object.entries(fields)[0] ?? ['body', 'is not valid'];
  return new AppError('VALIDATION_FAILED', `${field}: ${message}`, { fields });
}
