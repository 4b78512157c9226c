import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import type { Role } from '../../common/constants.js';
import type { Db } from '../db/client.js';
import { consolidatedCurveDetails, type UserRow } from '../db/schema.js';
import { hashPassword } from '../security/password.js';
import { insertUser } from '../features/users/repository.js';

export const TEST_PASSWORD = 'correct horse 42';

let sequence = 0;

export async function createUser(
  db: Db,
  overrides: { role?: Role; employeeId?: string; name?: string; divisionAccess?: string | null; password?: string } = {},
): Promise<UserRow> {
  sequence += 1;
  const role = overrides.role ?? 'Technician';
  return insertUser(db, {
    employeeId: overrides.employeeId ?? `${role.slice(0, 3).toUpperCase()}${9000 + sequence}`,
    name: overrides.name ?? `${role} ${sequence}`,
    role,
    divisionAccess: overrides.divisionAccess ?? null,
    passwordHash: await hashPassword(overrides.password ?? TEST_PASSWORD),
  });
}

/** Signs in through the real endpoint and returns the Cookie header to send. */
export async function signIn(app: FastifyInstance, employeeId: string, password = TEST_PASSWORD): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { employeeId, password } });
  if (response.statusCode !== 200) throw new Error(`sign-in of ${employeeId} failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === 'hkmi_session');
  if (!cookie) throw new Error('sign-in set no session cookie');
  return `${cookie.name}=${cookie.value}`;
}

/** A user a test signs in as: the employee ID it signs in with, and whatever else the test needs of them. */
export type TestPerson = NonNullable<Parameters<typeof createUser>[1]> & { employeeId: string };

// The people most tests sign in as; a test that needs more of one (a name) spreads and overrides.
export const ADMIN = { role: 'Admin', employeeId: 'ADM1' } as const satisfies TestPerson;
export const TECHNICIAN = { role: 'Technician', employeeId: 'TEC1' } as const satisfies TestPerson;
export const CLIENT_RTM = { role: 'Client', employeeId: 'CLI1', divisionAccess: 'RTM/WR' } as const satisfies TestPerson;
export const CLIENT_FZR = { role: 'Client', employeeId: 'CLI2', divisionAccess: 'FZR/NR' } as const satisfies TestPerson;
export const CLIENT_NO_DIVISION = { role: 'Client', employeeId: 'CLI0', divisionAccess: null } as const satisfies TestPerson;

/**
 * Creates each person in the app's database, in the order given, then signs each in through the
 * real endpoint, and answers the Cookie header to send as each under the same name. Tests keep
 * passing plain cookies (or none, for a stranger) to their requests, so one request helper
 * serves every caller of a rule.
 */
export async function createAndSignIn<Name extends string>(
  t: { app: FastifyInstance; database: { db: Db } },
  people: Record<Name, TestPerson>,
): Promise<Record<Name, string>> {
  const entries = Object.entries(people) as [Name, TestPerson][];
  for (const [, person] of entries) await createUser(t.database.db, person);
  const cookies = {} as Record<Name, string>;
  for (const [name, person] of entries) cookies[name] = await signIn(t.app, person.employeeId, person.password);
  return cookies;
}

export async function createCurve(
  db: Db,
  values: { divisionRailway: string; section: string; curveNumber: string; line?: string; hkmCode?: number; no?: number; sse?: string },
) {
  sequence += 1;
  const [row] = await db
    .insert(consolidatedCurveDetails)
    .values({ no: values.no ?? sequence, line: values.line ?? 'Up', ...values })
    .returning();
  if (!row) throw new Error('curve insert returned nothing');
  return row;
}

const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  requestId: z.string(),
});

/** The JSON error body every refused request answers ({code, message, fields?, requestId}). */
export const errorOf = (response: LightMyRequestResponse) => errorBodySchema.parse(response.json());
