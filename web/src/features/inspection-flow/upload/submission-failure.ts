import { t } from '@lingui/core/macro';

/** The original app's toast of a submission that did not reach the server: its title. */
export function submissionFailedTitle(): string {
  return t`Submission Failed`;
}

/** The toast text: the spec's sentence, then what the server said, when it said something readable. */
export function submissionFailureDescription(serverMessage: string | null): string {
  // Read when the toast is made, so in the language shown at that moment.
  const description = t`Failed to submit inspection record. Please try again.`;
  return serverMessage === null ? description : `${description} ${serverMessage}`;
}
