import { t } from '@lingui/core/macro';
import { z } from 'zod';
import type { PublicUser } from '../../../../common/schemas/auth.js';
import { changePasswordRequestSchema, newPasswordProblem } from '../../../../common/schemas/user-password.js';

/**
 * The shared request contract plus what only the form has: the confirmation, and the rules
 * that need to know whose password it is (checked again by the server). Made on each render,
 * so its own messages are in the language shown.
 */
export function changePasswordFormSchema(owner: Pick<PublicUser, 'employeeId' | 'phone'>) {
  const mismatch = t`The passwords do not match`;
  return changePasswordRequestSchema
    .extend({ confirmNewPassword: z.string().min(1, t`Please confirm the new password`) })
    .superRefine((values, ctx) => {
      const problem = newPasswordProblem(values.newPassword, owner, values.currentPassword);
      if (problem !== null) ctx.addIssue({ code: 'custom', path: ['newPassword'], message: problem });
      else if (values.confirmNewPassword !== values.newPassword) {
        ctx.addIssue({ code: 'custom', path: ['confirmNewPassword'], message: mismatch });
      }
    });
}
export type ChangePasswordForm = z.infer<ReturnType<typeof changePasswordFormSchema>>;
