/**
 * Sign-in attempts counted per key in the database, so every instance behind a load balancer
 * sees the same counts. An attempt is reserved (counted as a failure) before its password is
 * checked, in one short transaction that also refuses a blocked key: a burst of parallel
 * attempts cannot slip past the limit while argon2 runs. A success then gives its reservation
 * back.
 *
 * Two policies:
 * - a window (addresses, trusted devices): at most `max` failures in `windowSeconds`, then the
 *   key waits for the window's end;
 * - a growing delay (employee IDs): `free` failures, then each attempt must wait twice as long
 *   as the one before (capped), forgotten an hour after the last failure. A stranger typing an
 *   Admin's ID slows guessing to a few attempts an hour without a hard lock-out, and the Admin's
 *   own browser, once trusted (trusted-devices.ts), is counted by its device key instead.
 */
import { type SQL, inArray, lte, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { loginThrottle } from '../../db/schema.js';
import { employeeIdKey } from '../../../common/rules/employee-id.js';

/**
 * `onSuccess`: what a right password does to the key: `clear` starts it afresh (it stands for
 * one person), `uncount` only gives back this attempt (an address many people share).
 */
export type ThrottlePolicy = { onSuccess: 'clear' | 'uncount' } & (
  | { kind: 'window'; max: number; windowSeconds: number }
  | { kind: 'backoff'; free: number; baseSeconds: number; capSeconds: number; forgetSeconds: number }
);

export const ADDRESS_POLICY: ThrottlePolicy = { kind: 'window', max: 30, windowSeconds: 15 * 60, onSuccess: 'uncount' };
export const EMPLOYEE_POLICY: ThrottlePolicy = {
  kind: 'backoff',
  free: 5,
  baseSeconds: 15,
  capSeconds: 15 * 60,
  forgetSeconds: 60 * 60,
  onSuccess: 'clear',
};
export const DEVICE_POLICY: ThrottlePolicy = { kind: 'window', max: 10, windowSeconds: 15 * 60, onSuccess: 'clear' };

export interface ThrottleKey {
  key: string;
  policy: ThrottlePolicy;
}

export const employeeKey = (employeeId: string): ThrottleKey => ({ key: `employee:${employeeIdKey(employeeId)}`, policy: EMPLOYEE_POLICY });
export const addressKey = (address: string): ThrottleKey => ({ key: `address:${address}`, policy: ADDRESS_POLICY });
export const deviceKey = (tokenHash: string): ThrottleKey => ({ key: `device:${tokenHash}`, policy: DEVICE_POLICY });

/** Thrown when a key may not try yet: the caller answers 429 with Retry-After. */
export class ThrottledError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`sign-in throttled for ${retryAfterSeconds} s`);
  }
}

/** The reservation of one attempt: given back when the password was right. */
export interface Reservation {
  succeeded(): Promise<void>;
}

const seconds = (n: number) => sql`make_interval(secs => ${n}::int)`;

/** The new failure count, the window's start and the key's next free moment, for a key's policy. */
function countedAttempt(policy: ThrottlePolicy): { failures: SQL; windowStart: SQL; blockedUntil: SQL } {
  const t = loginThrottle;
  if (policy.kind === 'window') {
    const expired = sql`${t.windowStart} <= now() - ${seconds(policy.windowSeconds)}`;
    const failures = sql`(case when ${expired} then 1 else ${t.failures} + 1 end)`;
    const windowStart = sql`(case when ${expired} then now() else ${t.windowStart} end)`;
    return {
      failures,
      windowStart,
      blockedUntil: sql`(case when ${failures} >= ${policy.max}::int then ${windowStart} + ${seconds(policy.windowSeconds)} else null end)`,
    };
  }
  const forgotten = sql`${t.lastFailureAt} <= now() - ${seconds(policy.forgetSeconds)}`;
  const failures = sql`(case when ${forgotten} then 1 else ${t.failures} + 1 end)`;
  return {
    failures,
    windowStart: sql`(case when ${forgotten} then now() else ${t.windowStart} end)`,
    blockedUntil: backoffUntil(policy, failures),
  };
}

/** After `free` failures, base x 2^(n - free) seconds, at most cap. */
function backoffUntil(policy: Extract<ThrottlePolicy, { kind: 'backoff' }>, failures: SQL | number): SQL {
  const n = typeof failures === 'number' ? sql`${failures}::int` : failures;
  return sql`(case when ${n} >= ${policy.free}::int
    then now() + ${seconds(1)} * least(${policy.capSeconds}::float8, ${policy.baseSeconds}::float8 * power(2, ${n} - ${policy.free}::int))
    else null end)`;
}

/** The first attempt of a key: one failure, blocked at once only by a policy of one. */
function firstAttempt(policy: ThrottlePolicy): SQL {
  if (policy.kind === 'window') return policy.max <= 1 ? sql`now() + ${seconds(policy.windowSeconds)}` : sql`null`;
  return backoffUntil(policy, 1);
}

/**
 * Counts one attempt against every key, or none if any key is blocked (then ThrottledError with
 * the longest wait). Keys are taken in one order, so two transactions never wait on each other
 * the wrong way round.
 */
export async function reserveAttempt(db: Db, keys: readonly ThrottleKey[]): Promise<Reservation> {
  const ordered = [...keys].sort((a, b) => a.key.localeCompare(b.key));
  const refusedFor = await db.transaction(async (tx) => {
    for (const { key, policy } of ordered) {
      const next = countedAttempt(policy);
      const counted = await tx
        .insert(loginThrottle)
        .values({ key, windowStart: sql`now()`, lastFailureAt: sql`now()`, failures: 1, blockedUntil: firstAttempt(policy) })
        .onConflictDoUpdate({
          target: loginThrottle.key,
          set: { failures: next.failures, windowStart: next.windowStart, lastFailureAt: sql`now()`, blockedUntil: next.blockedUntil },
          // A blocked key is left as it is: a refused attempt neither counts nor waits longer.
          setWhere: or(sql`${loginThrottle.blockedUntil} is null`, lte(loginThrottle.blockedUntil, sql`now()`)),
        })
        .returning({ key: loginThrottle.key });
      // Refused: throwing rolls back what this attempt counted against the other keys.
      if (counted.length === 0) throw new Refused(await secondsUntilAllowed(tx, ordered.map((k) => k.key)));
    }
    return 0;
  }).catch((error: unknown) => {
    if (error instanceof Refused) return error.wait;
    throw error;
  });
  if (refusedFor > 0) throw new ThrottledError(refusedFor);
  return {
    async succeeded() {
      await giveBack(db, ordered);
    },
  };
}

class Refused extends Error {
  constructor(readonly wait: number) {
    super('throttled');
  }
}

/** Seconds until every one of these keys may try again (at least 1 while any is blocked). */
async function secondsUntilAllowed(db: DbOrTx, keys: string[]): Promise<number> {
  const [row] = await db
    .select({
      wait: sql<number>`coalesce(ceil(extract(epoch from max(${loginThrottle.blockedUntil}) - now())), 0)::int`,
    })
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, keys));
  return Math.max(1, row?.wait ?? 1);
}

/**
 * A right password: the employee and device keys start afresh, and the address key forgets
 * this attempt (many people sign in from one office address).
 */
async function giveBack(db: Db, keys: readonly ThrottleKey[]): Promise<void> {
  const cleared = keys.filter((k) => k.policy.onSuccess === 'clear').map((k) => k.key);
  await db.transaction(async (tx) => {
    if (cleared.length > 0) await tx.delete(loginThrottle).where(inArray(loginThrottle.key, cleared));
    for (const { key, policy } of keys) {
      if (policy.onSuccess !== 'uncount') continue;
      // Blocked only if the attempts without this one already reached the limit.
      const stillBlocked = policy.kind === 'window' ? sql`failures - 1 >= ${policy.max}::int` : sql`false`;
      await tx.execute(sql`update login_throttle
        set failures = greatest(failures - 1, 0),
            blocked_until = case when ${stillBlocked} then blocked_until else null end
        where key = ${key}`);
      await tx.execute(sql`delete from login_throttle where key = ${key} and failures = 0`);
    }
  });
}

/** Forgets an employee ID's failures (an Admin set a new password, the user chose one). */
export async function clearFailures(db: DbOrTx, key: ThrottleKey): Promise<void> {
  await db.delete(loginThrottle).where(inArray(loginThrottle.key, [key.key]));
}

/** Rows no policy needs any more: the longest a key is remembered is an hour after its last failure. */
export async function purgeStaleThrottleRows(db: DbOrTx): Promise<number> {
  const longest = Math.max(
    ...[ADDRESS_POLICY, EMPLOYEE_POLICY, DEVICE_POLICY].map((p) => (p.kind === 'window' ? p.windowSeconds : Math.max(p.forgetSeconds, p.capSeconds))),
  );
  const deleted = await db
    .delete(loginThrottle)
    .where(
      sql`${loginThrottle.lastFailureAt} < now() - ${seconds(longest)} and (${loginThrottle.blockedUntil} is null or ${loginThrottle.blockedUntil} < now())`,
    )
    .returning({ key: loginThrottle.key });
  return deleted.length;
}
