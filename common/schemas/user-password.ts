/**
 * A user's own new password: POST /api/auth/change-password and the rules it must meet.
 * Its own file, apart from auth.ts, so the technician's first load (which needs the login
 * contract) does not carry it: only the lazily loaded change-password screen does.
 */
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../constants.js';

export const PASSWORD_TEXTS = {
  currentRequired: 'Current password is required',
  currentWrong: 'Current password is incorrect',
  newRequired: 'New password is required',
  tooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
  tooLong: 'Password must be at most 200 characters',
  isEmployeeId: 'The new password must not be your employee ID',
  isPhone: 'The new password must not be your phone number',
  sameAsCurrent: 'The new password must be different from the current one',
  /** The rules as the change-password screen states them above its fields. */
  rules: `At least ${MIN_PASSWORD_LENGTH} characters, and not your employee ID or phone number.`,
} as const;

/** POST /api/auth/change-password: the signed-in user replaces their own password. */
export const changePasswordRequestSchema = z.object({
  currentPassword: z
    .string({ error: PASSWORD_TEXTS.currentRequired })
    .min(1, PASSWORD_TEXTS.currentRequired)
    .max(200, PASSWORD_TEXTS.tooLong),
  newPassword: z
    .string({ error: PASSWORD_TEXTS.newRequired })
    .min(1, PASSWORD_TEXTS.newRequired)
    .min(MIN_PASSWORD_LENGTH, PASSWORD_TEXTS.tooShort)
    .max(200, PASSWORD_TEXTS.tooLong),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

const digitsOf = (text: string) => text.replace(/\D/g, '');
// What people type around a phone number's digits: '+91 98765-43210', '(0) 98765 43210'.
const PHONE_LIKE = /^[\d\s+\-().]+$/;
// India's national numbers have 10 digits; '+91', '91' or a trunk '0' in front is the same number.
const NATIONAL_DIGITS = 10;

/** Whether a password is this phone number, however it is written (spaces, +, country code). */
export function isPhoneNumber(password: string, phone: string | null): boolean {
  if (phone === null || !PHONE_LIKE.test(password)) return false;
  const typed = digitsOf(password);
  const known = digitsOf(phone);
  if (typed === '' || known === '') return false;
  if (typed.length < NATIONAL_DIGITS || known.length < NATIONAL_DIGITS) return typed === known;
  return typed.slice(-NATIONAL_DIGITS) === known.slice(-NATIONAL_DIGITS);
}

/**
 * The rules a new password must meet beyond its length, which need to know whose it is: not
 * the employee ID (any case, spaces around ignored), not the phone number (see isPhoneNumber),
 * not the current password. Answers the message for the newPassword field, or null.
 */
export function newPasswordProblem(
  newPassword: string,
  owner: { employeeId: string; phone: string | null },
  currentPassword?: string,
): string | null {
  if (newPassword.trim().toLowerCase() === owner.employeeId.trim().toLowerCase()) return PASSWORD_TEXTS.isEmployeeId;
  if (isPhoneNumber(newPassword, owner.phone)) return PASSWORD_TEXTS.isPhone;
  if (currentPassword !== undefined && currentPassword !== '' && newPassword === currentPassword) return PASSWORD_TEXTS.sameAsCurrent;
  return null;
}
