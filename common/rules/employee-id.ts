/**
 * Employee IDs are plain: ASCII letters, digits, '.', '_' and '-'. They are compared without
 * regard to case through `employeeIdKey`, the one comparison the server uses (sign-in, owners,
 * the throttle, the unique index's `lower()`). Keeping them ASCII is what makes that safe:
 * JavaScript's and PostgreSQL's lower-casing agree on ASCII, but not on look-alikes such as
 * the Kelvin sign, which one of them folds to 'k' and the other may not.
 */
export const EMPLOYEE_ID_MAX_LENGTH = 50;
export const EMPLOYEE_ID_PATTERN = /^[A-Za-z0-9._-]+$/;

export const EMPLOYEE_ID_TEXTS = {
  required: 'Employee ID is required',
  tooLong: `Employee ID must be at most ${EMPLOYEE_ID_MAX_LENGTH} characters`,
  notPlain: "Employee ID may contain only letters, digits, '.', '_' and '-'",
} as const;

/** Why this text is not an employee ID, or null when it is one (after trimming). */
export function employeeIdProblem(text: string): string | null {
  const id = text.trim();
  if (id === '') return EMPLOYEE_ID_TEXTS.required;
  if (id.length > EMPLOYEE_ID_MAX_LENGTH) return EMPLOYEE_ID_TEXTS.tooLong;
  if (!EMPLOYEE_ID_PATTERN.test(id)) return EMPLOYEE_ID_TEXTS.notPlain;
  return null;
}

/**
 * The form two employee IDs are compared in: trimmed, ASCII letters lower-cased and nothing
 * else changed, so a non-ASCII look-alike never equals a plain ID.
 */
export function employeeIdKey(id: string): string {
  return id.trim().replace(/[A-Z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) + 32));
}
