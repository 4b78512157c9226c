import { and, asc, eq, exists, sql } from 'drizzle-orm';
import { employeeIdKey } from '../../../common/rules/employee-id.js';
import type { DbOrTx } from '../../db/client.js';
import { inspectionLogs, sessions, users, type NewUserRow, type UserRow } from '../../db/schema.js';

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

/** Switches an account off (`at`) or on again (null); answers the row as it is now. */
export async function setDeactivatedAt(db: DbOrTx, id: number, at: Date | null): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ deactivatedAt: at }).where(eq(users.id, id)).returning();
  return row;
}

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export function listUsers(db: DbOrTx): Promise<UserRow[]> {
  return db.select().from(users).orderBy(asc(users.name), asc(users.id));
}

export async function insertUser(db: DbOrTx, row: NewUserRow): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  if (!created) throw new Error('insert into users returned no row');
  return created;
}

/** Inserts unless a user with this employee ID exists (a unique index says so); the new row, or undefined. */
export async function insertUserIfAbsent(db: DbOrTx, row: NewUserRow): Promise<UserRow | undefined> {
  const [created] = await db.insert(users).values(row).onConflictDoNothing().returning();
  return created;
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

/** Ends every session of a user: their cookies stop working at once. */
export async function deleteSessionsOfUser(db: DbOrTx, userId: number): Promise<number> {
  const deleted = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return deleted.length;
}

/** Technicians, or with a division only those who have inspected in it. */
export function listTechnicians(db: DbOrTx, division: string | undefined) {
  const inspectedThere = division
    ? exists(
        db
          .select({ one: sql`1` })
          .from(inspectionLogs)
          .where(and(eq(inspectionLogs.technicianId, users.employeeId), eq(inspectionLogs.divisionRailway, division))),
      )
    : undefined;
  return db
    .select({ employeeId: users.employeeId, name: users.name })
    .from(users)
    .where(and(eq(users.role, 'Technician'), inspectedThere))
    .orderBy(asc(users.name), asc(users.employeeId));
}
