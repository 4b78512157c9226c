/** Admin user management (docs/functional-requirements.md, 'User management'): add a user, reset a password. */
import { z } from 'zod';
import { DEFAULT_ROLE, DIVISIONS, MIN_PASSWORD_LENGTH, ROLES } from '../constants.js';
import { employeeIdSchema, publicUserSchema } from './auth.js';

/** An empty choice from a form counts as no choice. */
const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/**
 * POST /api/users. The phone becomes the user's first password, so it is required and
 * must be a real number: 10 to 15 digits, optionally after a +.
 */
export const createUserRequestSchema = z
  .object({
    employeeId: employeeIdSchema,
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
    phone: z
      .string({ error: 'Phone is required' })
      .trim()
      .min(1, 'Phone is required')
      .regex(/^\+?\d{10,15}$/, 'Phone must be 10 to 15 digits, optionally starting with +'),
    role: z.enum(ROLES, { error: 'Role must be Technician, Admin or Client' }).default(DEFAULT_ROLE),
    divisionAccess: z.preprocess(
      blankToUndefined,
      z.enum(DIVISIONS, { error: `Division access must be one of ${DIVISIONS.join(', ')}` }).optional(),
    ),
  })
  .superRefine((value, ctx) => {
    if (value.role === 'Client' && value.divisionAccess === undefined) {
      ctx.addIssue({ code: 'custom', path: ['divisionAccess'], message: 'Division access is required for a Client' });
    }
  });
export type CreateUserRequest = z.infer<typeof createUserRequestSchema>;

/** POST /api/auth/reset-password. */
export const resetPasswordRequestSchema = z.object({
  employeeId: employeeIdSchema,
  newPassword: z
    .string({ error: 'New password is required' })
    .min(1, 'New password is required')
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(200, 'Password must be at most 200 characters'),
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

export const successResponseSchema = z.object({ success: z.literal(true) });

/**
 * A user as an Admin sees them in User Management: the public fields, plus whether the account
 * is switched on and whether it is a demo account (which signs in only in demo mode).
 */
export const managedUserSchema = publicUserSchema.extend({
  active: z.boolean(),
  deactivatedAt: z.string().nullable(),
  isDemo: z.boolean(),
});
export type ManagedUser = z.infer<typeof managedUserSchema>;

export const userListResponseSchema = z.object({ users: z.array(managedUserSchema) });
export const managedUserResponseSchema = z.object({ user: managedUserSchema });

/** POST /api/users/:employeeId/deactivate and /reactivate. */
export const userParamsSchema = z.object({ employeeId: employeeIdSchema });
