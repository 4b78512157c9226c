/**
 * Failed sign-ins counted per employee ID and per address in the database, so every app
 * instance behind a load balancer sees the same counts. A key with too many failures in
 * the current window is refused before its password is even checked.
 */
import { inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { loginThrottle } from '../../db/schema.js';

export const THROTTLE_WINDOW_SECONDS = 15 * 60;
export const MAX_FAILURES_PER_EMPLOYEE = 5;
export const MAX_FAILURES_PER_ADDRESS = 30;

export const employeeKey = (employeeId: string) => `employee:${employeeId.trim().toLowerCase()}`;
export const addressKey = (address: string) => `address:${address}`;

/** Seconds until the first of these keys is allowed again, or 0 when none is blocked. */
export async function secondsUntilAllowed(db: DbOrTx, limits: Array<{ key: string; max: number }>): Promise<number> {
  const rows = await db
    .select()
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, limits.map((l) => l.key)));
  const now = Date.now();
  let wait = 0;
  for (const row of rows) {
    const max = limits.find((l) => l.key === row.key)?.max ?? Infinity;
    const windowEnds = row.windowStart.getTime() + THROTTLE_WINDOW_SECONDS * 1000;
    if (row.failures >= max && windowEnds > now) wait = Math.max(wait, Math.ceil((windowEnds - now) / 1000));
  }
  return wait;
}

export async function recordFailure(db: DbOrTx, key: string): Promise<void> {
  const expired = sql`${loginThrottle.windowStart} < now() - make_interval(secs => ${THROTTLE_WINDOW_SECONDS})`;
  await db
    .insert(loginThrottle)
    .values({ key, windowStart: sql`now()`, failures: 1 })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${expired} then 1 else ${loginThrottle.failures} + 1 end`,
        windowStart: sql`case when ${expired} then now() else ${loginThrottle.windowStart} end`,
      },
    });
}

export async function clearFailures(db: DbOrTx, key: string): Promise<void> {
  await db.delete(loginThrottle).where(inArray(loginThrottle.key, [key]));
}
