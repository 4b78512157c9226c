import { and, eq, gt, lt, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { sessions, users, type UserRow } from '../../db/schema.js';

export interface SessionWithUser {
  id: string;
  expiresAt: Date;
  user: UserRow;
}

export async function insertSession(
  db: DbOrTx,
  row: { id: string; userId: number; expiresAt: Date; userAgent: string | null; ipAddress: string | null },
): Promise<void> {
  await db.insert(sessions).values(row);
}

/** The session with this id if it has not expired, with its user. */
export async function findLiveSession(db: DbOrTx, id: string): Promise<SessionWithUser | undefined> {
  const [row] = await db
    .select({ id: sessions.id, expiresAt: sessions.expiresAt, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return row;
}

export async function extendSession(db: DbOrTx, id: string, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id));
}

export async function deleteSession(db: DbOrTx, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

export async function deleteExpiredSessionsOfUser(db: DbOrTx, userId: number): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, new Date())));
}

/** Ends every session of a user but the one given: their other devices must sign in again. */
export async function deleteOtherSessionsOfUser(db: DbOrTx, userId: number, keepSessionId: string): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
    .returning({ id: sessions.id });
  return deleted.length;
}
