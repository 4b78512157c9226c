import { ApiError, apiErrorMessage, errorBodyOf } from './api-client.js';

/** 'Failed to add user: Employee ID X already exists', or the bare text when the server said nothing. */
export function failureText(base: string, error: unknown): string {
  const reason = apiErrorMessage(error, '');
  return reason === '' ? base : `${base}: ${reason}`;
}

/** The `fields` map of a 400 answer ({code, message, fields}), or an empty map. */
export function apiErrorFields(error: unknown): Record<string, string> {
  return (error instanceof ApiError ? errorBodyOf(error.bodyText)?.fields : undefined) ?? {};
}
