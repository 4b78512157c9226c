import { z } from 'zod';
import { DIVISIONS, LANGUAGES, ROLES } from '../constants.js';
import { EMPLOYEE_ID_MAX_LENGTH, EMPLOYEE_ID_PATTERN, EMPLOYEE_ID_TEXTS } from '../rules/employee-id.js';

/** An employee ID as every request carries it: plain, trimmed (common/rules/employee-id.ts). */
export const employeeIdSchema = z
  .string({ error: EMPLOYEE_ID_TEXTS.required })
  .trim()
  .min(1, EMPLOYEE_ID_TEXTS.required)
  .max(EMPLOYEE_ID_MAX_LENGTH, EMPLOYEE_ID_TEXTS.tooLong)
  .regex(EMPLOYEE_ID_PATTERN, EMPLOYEE_ID_TEXTS.notPlain);

/** Login form and POST /api/auth/login body (docs/functional-requirements.md, 'Sign in (/ and /login)'). */
export const loginRequestSchema = z.object({
  employeeId: employeeIdSchema,
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(200, 'Password must be at most 200 characters'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const roleSchema = z.enum(ROLES);
export const divisionSchema = z.enum(DIVISIONS);
export const languageSchema = z.enum(LANGUAGES, { error: `Language must be one of ${LANGUAGES.join(', ')}` });

/** The user as the server shows it to its own holder: never a hash or session data. */
export const publicUserSchema = z.object({
  id: z.number().int(),
  employeeId: z.string(),
  name: z.string(),
  role: roleSchema,
  phone: z.string().nullable(),
  divisionAccess: z.string().nullable(),
  /** Owner rights, given by OWNER_EMPLOYEE_IDS. */
  isOwner: z.boolean(),
  /**
   * Someone else chose the password (an Admin adding the user or resetting it): until the user
   * picks their own, the server refuses everything but me, logout and change-password. The
   * server always sends it; a copy the app stored before this field existed reads as false
   * (optional, so such a copy still parses and an offline technician stays signed in).
   */
  mustChangePassword: z.boolean().optional(),
  /**
   * The interface language the user chose, kept on their account so it follows them to another
   * phone; null when they have not chosen (the device's own choice applies). The server always
   * sends it; optional, so a copy the app stored before this field existed still parses.
   */
  language: languageSchema.nullable().optional(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** PUT /api/auth/language: the signed-in user's own interface language. */
export const languageRequestSchema = z.object({
  language: languageSchema,
});
export type LanguageRequest = z.infer<typeof languageRequestSchema>;

export const loginResponseSchema = z.object({ user: publicUserSchema });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'unreachable']),
  version: z.string(),
  /** Demo mode is on: the login page may ask for the demo accounts (outside it that is a 404). */
  demo: z.boolean().optional(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/**
 * GET /api/ready, for load balancers: 200 when this instance can take work, else 503 with the
 * same body naming the check that failed. Not an error for a person to read, so not the
 * error catalogue's shape: like /api/health, a status and what was looked at.
 */
export const readinessResponseSchema = z.object({
  status: z.enum(['ready', 'not-ready']),
  checks: z.object({
    database: z.enum(['ok', 'unreachable']),
    /** 'behind': the database lacks a migration of this build; 'unknown' while it is unreachable. */
    migrations: z.enum(['ok', 'behind', 'unknown']),
    blobStore: z.enum(['ok', 'not-writable']),
    /** 'draining': the instance is stopping (SIGTERM) and finishing what it has. */
    lifecycle: z.enum(['serving', 'draining']),
  }),
});
export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;

export const demoAccountsResponseSchema = z.object({
  accounts: z.array(z.object({ role: roleSchema, employeeId: z.string(), name: z.string() })),
  password: z.string(),
});
export type DemoAccountsResponse = z.infer<typeof demoAccountsResponseSchema>;
