import { ERRORS, type ErrorCode } from '../common/errors.js';

export interface AppErrorOptions {
  /** Field-level problems: field path -> message. */
  fields?: Record<string, string>;
  /** Extra response headers, such as Retry-After on a 429. */
  headers?: Record<string, string>;
}

/** A failure the client should hear about: a catalogue code, optionally a more precise message. */
export class AppError extends Error {
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    options: AppErrorOptions = {},
  ) {
    super(message ?? ERRORS[code].message);
    this.status = ERRORS[code].status;
    this.fields = options.fields;
    this.headers = options.headers;
  }
}
