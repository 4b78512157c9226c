import { ApiError, apiErrorMessage } from './api-client.js';

/** 'Failed to add user: Employee ID X already exists', or the bare text when the server said nothing. */
export function failureText(base: string, error: unknown): string {
  const reason = apiErrorMessage(error, '');
  return reason === '' ? base : `${base}: ${reason}`;
}

/** The `fields` map of a 400 answer ({code, message, fields}), or an empty map. */
export function apiErrorFields(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.bodyText === '') return {};
  try {
    const body: unknown = JSON.parse(error.bodyText);
    if (typeof body !== 'object' || body === null || !('fields' in body)) return {};
    const { fields } = body;
    if (typeof fields !== 'object' || fields === null) return {};
    return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}
