/**
 * What a start does about demo accounts whatever the mode: they are known by their `is_demo`
 * marker and sign in only while demo mode is on (server/features/auth). A data folder seeded
 * before the marker existed has them unmarked, with the published password: they are found by
 * the seed's own list AND that password (an account whose password was since changed is left
 * alone), and marked once.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { employeeIdKey } from '../../../common/rules/employee-id.js';
import { verifyPassword } from '../../security/password.js';
import type { Db } from '../client.js';
import { users } from '../schema.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { DEMO_USERS } from './users.js';

/** Marks the demo seed's accounts that still have the published password; answers how many it marked. */
export async function markUnmarkedDemoAccounts(db: Db): Promise<number> {
  const listed = DEMO_USERS.map((u) => employeeIdKey(u.employeeId));
  const candidates = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.isDemo, false), sql`lower(${users.employeeId}) in (${sql.join(listed.map((id) => sql`${id}`), sql`, `)})`));
  let marked = 0;
  for (const candidate of candidates) {
    if (!(await verifyPassword(candidate.passwordHash, DEMO_PASSWORD))) continue;
    await db.update(users).set({ isDemo: true }).where(eq(users.id, candidate.id));
    marked += 1;
  }
  return marked;
}

export async function countDemoAccounts(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.isDemo, true));
  return row?.n ?? 0;
}

/** Accounts an older version let in with an employee ID that is not plain: they cannot sign in now. */
export async function nonPlainEmployeeIds(db: Db): Promise<string[]> {
  const rows = await db.select({ employeeId: users.employeeId }).from(users).where(sql`${users.employeeId} !~ '^[A-Za-z0-9._-]+$'`);
  return rows.map((r) => r.employeeId);
}
