import { and, asc, eq, exists, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { inspectionLogs, sessions, users, type NewUserRow, type UserRow } from '../../db/schema.js';

/** Switches an account off (`at`) or on again (null); answers the row as it is now. */
export async function setDeactivatedAt(db: DbOrTx, id: number, at: Date | null): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ deactivatedAt: at }).where(eq(users.id, id)).returning();
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
