import { and, eq, gt, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { sessions, users, type UserRow } from '../../db/schema.js';

export interface SessionWithUser {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  user: UserRow;
}

/** Whether a user may hold a session now: switched on, and not a demo account outside demo mode. */
export const mayHoldSession = (user: Pick<UserRow, 'deactivatedAt' | 'isDemo'>, demoMode: boolean) =>
  user.deactivatedAt === null && (demoMode || !user.isDemo);

export async function insertSession(
  db: DbOrTx,
  row: { id: string; userId: number; expiresAt: Date; userAgent: string | null; ipAddress: string | null },
): Promise<void> {
  await db.insert(sessions).values(row);
}

/**
 * The session with this id if it has not expired nor passed its absolute lifetime
 * (`maxAgeSeconds` from its sign-in), with its user as the database has them now.
 */
export async function findLiveSession(db: DbOrTx, id: string, maxAgeSeconds: number): Promise<SessionWithUser | undefined> {
  const [row] = await db
    .select({ id: sessions.id, createdAt: sessions.createdAt, expiresAt: sessions.expiresAt, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, id),
        gt(sessions.expiresAt, sql`now()`),
        gt(sessions.createdAt, sql`now() - make_interval(secs => ${maxAgeSeconds})`),
      ),
    )
    .limit(1);
  return row;
}

export async function extendSession(db: DbOrTx, id: string, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id));
}

export async function deleteSession(db: DbOrTx, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

/** Every expired session, or one past its absolute lifetime: nobody can use them any more. */
export async function purgeDeadSessions(db: DbOrTx, maxAgeSeconds: number): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, sql`now()`), lt(sessions.createdAt, sql`now() - make_interval(secs => ${maxAgeSeconds})`)))
    .returning({ id: sessions.id });
  return deleted.length;
}

/** Ends every session of a user but the one given: their other devices must sign in again. */
export async function deleteOtherSessionsOfUser(db: DbOrTx, userId: number, keepSessionId: string): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
    .returning({ id: sessions.id });
  return deleted.length;
}
