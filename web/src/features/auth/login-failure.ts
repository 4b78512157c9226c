import { t } from '@lingui/core/macro';
import { apiErrorMessage, errorStatus, isNetworkError } from '../../lib/api-client.js';


/** The description of the 'Login Failed' toast for a failed sign-in. */
export function loginFailureMessage(error: unknown): string {
  // Read when the toast is made, so in the language shown at that moment.
  const invalidCredentials = t`Invalid credentials. Please try again.`;
  if (isNetworkError(error)) return t`Cannot reach the server. Check your connection and try again.`;
  const status = errorStatus(error);
  // The spec's own wording for wrong credentials, whatever the server's body says.
  if (status === 401) return invalidCredentials;
  if (status === 429) return apiErrorMessage(error, t`Too many failed sign-in attempts. Please wait a few minutes and try again`);
  if (status === 400) return apiErrorMessage(error, invalidCredentials);
  if (status === null) return t`The server sent an answer the app does not understand. Please try again.`;
  return apiErrorMessage(error, t`The server could not sign you in. Please try again.`);
}
