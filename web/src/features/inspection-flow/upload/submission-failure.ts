/** The original app's toast of a submission that did not reach the server. */
export const SUBMISSION_FAILED_TITLE = 'Submission Failed';
export const SUBMISSION_FAILED_DESCRIPTION = 'Failed to submit inspection record. Please try again.';

/** The toast text: the spec's sentence, then what the server said, when it said something readable. */
export function submissionFailureDescription(serverMessage: string | null): string {
  return serverMessage === null ? SUBMISSION_FAILED_DESCRIPTION : `${SUBMISSION_FAILED_DESCRIPTION} ${serverMessage}`;
}
