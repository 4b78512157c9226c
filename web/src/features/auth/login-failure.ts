import { apiErrorMessage, errorStatus, isNetworkError } from '../../lib/api-client.js';

const INVALID_CREDENTIALS = 'Invalid credentials. Please try again.';

/** The description of the 'Login Failed' toast for a failed sign-in. */
export function loginFailureMessage(error: unknown): string {
  if (isNetworkError(error)) return 'Cannot reach the server. Check your connection and try again.';
  const status = errorStatus(error);
  // The spec's own wording for wrong credentials, whatever the server's body says.
  if (status === 401) return INVALID_CREDENTIALS;
  if (status === 429) return apiErrorMessage(error, 'Too many failed sign-in attempts. Please wait a few minutes and try again');
  if (status === 400) return apiErrorMessage(error, INVALID_CREDENTIALS);
  if (status === null) return 'The server sent an answer the app does not understand. Please try again.';
  return apiErrorMessage(error, 'The server could not sign you in. Please try again.');
}
