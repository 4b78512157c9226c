/**
 * The user rows that signing in and managing users both read and write, kept apart from both
 * features so neither reaches into the other: users (User Management) depends on auth (its
 * throttle and trusted browsers), and auth reads accounts from here.
 */
import { eq, sql } from 'drizzle-orm';
import type { Language } from '../../common/constants.js';
import { employeeIdKey } from '../../common/rules/employee-id.js';
import type { DbOrTx } from '../db/client.js';
import { users, type UserRow } from '../db/schema.js';

/**
 * Employee IDs are matched without regard to case: 'tec2001' signs in as 'TEC2001'. The key is
 * made by employeeIdKey, the one comparison; lower() on the stored (plain, ASCII) IDs agrees with
 * it and is what the unique index holds.
 */
export async function findUserByEmployeeId(db: DbOrTx, employeeId: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.employeeId}) = ${employeeIdKey(employeeId)}`)
    .limit(1);
  return row;
}

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/**
 * A new password for a user. `mustChangePassword`: true when someone else chose it (an Admin's
 * reset), false when the user chose it themselves.
 */
export async function updatePassword(
  db: DbOrTx,
  id: number,
  values: { passwordHash: string; mustChangePassword: boolean },
): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash: values.passwordHash, mustChangePassword: values.mustChangePassword })
    .where(eq(users.id, id));
}

/** The user's own interface language; the row as it now is (undefined when there is none). */
export async function updateLanguage(db: DbOrTx, id: number, language: Language): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ language }).where(eq(users.id, id)).returning();
  return row;
}
