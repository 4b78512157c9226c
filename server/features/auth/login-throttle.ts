/**
 * Sign-in attempts counted per key in the database, so every instance behind a load balancer
 * sees the same counts. Each attempt first takes a slot of its keys, in one short transaction,
 * before its password is checked: a key lets only as many attempts be under way as it has tries
 * left (its limit less its failures), so a burst of parallel guesses cannot slip past the limit
 * while argon2 runs. An attempt then settles its slot: a wrong password becomes a failure, a
 * right one frees it. A burst of right passwords (a class signing in to one demo account) waits a
 * moment for slots instead of being refused; a key with too many failures answers at once.
 *
 * Two policies:
 * - a window (addresses, trusted devices): at most `max` failures in `windowSeconds`, then the
 *   key waits for the window's end;
 * - a growing delay (employee IDs): `free` failures, then each try must wait twice as long as
 *   the one before (capped), forgotten an hour after the last failure. A stranger typing an
 *   Admin's ID slows guessing to a few tries an hour without a hard lock-out, and the Admin's
 *   own browser, once trusted (trusted-devices.ts), is counted by its device key instead.
 */
import { type SQL, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { loginThrottle } from '../../db/schema.js';
import { employeeIdKey } from '../../../common/rules/employee-id.js';

/**
 * `onSuccess`: what a right password does to the key: `clear` starts it afresh (it stands for
 * one person), `uncount` only frees its slot (an address many people share).
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

/**
 * A slot whose attempt never settled (its instance died mid-check) is given up after this long
 * without a new attempt on the key.
 */
const PENDING_EXPIRES_SECONDS = 60;
/**
 * How long an attempt waits for a slot held by attempts under way, and how often it looks (with
 * jitter, so waiters do not ask in step). Only right passwords wait this long: once the slots'
 * attempts turn out wrong the key is blocked, and every waiter is answered 429 at its next look.
 */
const SLOT_WAIT_MS = 10_000;
const SLOT_POLL_MS = 40;

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

/** The slot one attempt holds, settled once its password has been checked. */
export interface Reservation {
  /** The password was right; inside `tx` when given (the sign-in's own transaction). */
  succeeded(tx?: DbOrTx): Promise<void>;
  /** The password was wrong: the slot becomes a failure. */
  failed(): Promise<void>;
  /** Neither was found out (the check itself failed): the slot is freed. No-op once settled. */
  release(): Promise<void>;
}

const seconds = (n: number) => sql`make_interval(secs => ${n}::int)`;
const t = loginThrottle;

/** The slots held now: a count left by an attempt that never settled expires. */
const livePending = sql`(case when ${t.pendingSince} is null or ${t.pendingSince} <= now() - ${seconds(PENDING_EXPIRES_SECONDS)} then 0 else ${t.pending} end)`;

/** The key's failures that still count, and the start of its window, as of now. */
function currentFailures(policy: ThrottlePolicy): { failures: SQL; windowStart: SQL } {
  const forgotten =
    policy.kind === 'window'
      ? sql`${t.windowStart} <= now() - ${seconds(policy.windowSeconds)}`
      : sql`${t.lastFailureAt} <= now() - ${seconds(policy.forgetSeconds)}`;
  return {
    failures: sql`(case when ${forgotten} then 0 else ${t.failures} end)`,
    windowStart: sql`(case when ${forgotten} then now() else ${t.windowStart} end)`,
  };
}

/**
 * How many attempts may be under way at once: the tries left before the key is blocked; past a
 * growing delay's free tries, one at a time (each waits out its delay first).
 */
function triesLeft(policy: ThrottlePolicy, failures: SQL): SQL {
  if (policy.kind === 'window') return sql`(${policy.max}::int - ${failures})`;
  return sql`greatest(${policy.free}::int - ${failures}, 1)`;
}

/** When a key with `failures` failures may try again: the window's end, or the growing delay. */
function blockedUntil(policy: ThrottlePolicy, failures: SQL, windowStart: SQL): SQL {
  if (policy.kind === 'window') {
    return sql`(case when ${failures} >= ${policy.max}::int then ${windowStart} + ${seconds(policy.windowSeconds)} else null end)`;
  }
  return sql`(case when ${failures} >= ${policy.free}::int
    then now() + ${seconds(1)} * least(${policy.capSeconds}::float8, ${policy.baseSeconds}::float8 * power(2, ${failures} - ${policy.free}::int))
    else null end)`;
}

type Taken = { taken: true } | { taken: false; blockedFor: number };

/**
 * Takes a slot of every key, or none: answers how long the keys are blocked for when one is
 * (0 while it only waits for attempts under way to settle). Keys are taken in one order, so two
 * transactions never wait on each other the wrong way round.
 */
async function takeSlots(db: Db, keys: readonly ThrottleKey[]): Promise<Taken> {
  return db
    .transaction(async (tx): Promise<Taken> => {
      for (const { key, policy } of keys) {
        const current = currentFailures(policy);
        const taken = await tx
          .insert(loginThrottle)
          .values({ key, windowStart: sql`now()`, lastFailureAt: sql`now()`, failures: 0, pending: 1, pendingSince: sql`now()` })
          .onConflictDoUpdate({
            target: loginThrottle.key,
            set: { failures: current.failures, windowStart: current.windowStart, pending: sql`${livePending} + 1`, pendingSince: sql`now()` },
            // Refused, and left as it is: while blocked, or while the attempts under way would
            // use up the tries it has left.
            setWhere: sql`(${t.blockedUntil} is null or ${t.blockedUntil} <= now()) and ${livePending} < ${triesLeft(policy, current.failures)}`,
          })
          .returning({ key: loginThrottle.key });
        // Throwing rolls back the slots this attempt took of the other keys.
        if (taken.length === 0) throw new Refused(await secondsBlocked(tx, keys.map((k) => k.key)));
      }
      return { taken: true };
    })
    .catch((error: unknown) => {
      if (error instanceof Refused) return { taken: false, blockedFor: error.blockedFor };
      throw error;
    });
}

class Refused extends Error {
  constructor(readonly blockedFor: number) {
    super('throttled');
  }
}

/** Seconds until every one of these keys is past its block (0: none is blocked). */
async function secondsBlocked(db: DbOrTx, keys: string[]): Promise<number> {
  const [row] = await db
    .select({ wait: sql<number>`coalesce(ceil(extract(epoch from max(${t.blockedUntil}) - now())), 0)::int` })
    .from(loginThrottle)
    .where(inArray(t.key, keys));
  return Math.max(0, row?.wait ?? 0);
}

/**
 * Takes a slot of every key for one attempt, waiting a moment while the key's tries left are
 * held by attempts under way; ThrottledError when a key is blocked, or is still full after the
 * wait.
 */
export async function reserveAttempt(db: Db, keys: readonly ThrottleKey[]): Promise<Reservation> {
  const ordered = [...keys].sort((a, b) => a.key.localeCompare(b.key));
  const deadline = Date.now() + SLOT_WAIT_MS;
  for (;;) {
    const outcome = await takeSlots(db, ordered);
    if (outcome.taken) break;
    if (outcome.blockedFor > 0) throw new ThrottledError(outcome.blockedFor);
    if (Date.now() >= deadline) throw new ThrottledError(1);
    await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS * (0.5 + Math.random())));
  }
  let settled = false;
  const settle = async (how: (key: ThrottleKey) => SQL, within?: DbOrTx) => {
    if (settled) return;
    settled = true;
    const run = async (tx: DbOrTx) => {
      for (const key of ordered) await tx.execute(how(key));
    };
    await (within ? run(within) : db.transaction(run));
  };
  return {
    succeeded: (tx) => settle(settleSuccess, tx),
    failed: () => settle(settleFailure),
    release: () => settle(({ key }) => sql`update login_throttle set pending = greatest(${livePending} - 1, 0) where key = ${key}`),
  };
}

/** A wrong password: the attempt's slot becomes a failure, which may block the key. */
function settleFailure({ key, policy }: ThrottleKey): SQL {
  const current = currentFailures(policy);
  const failures = sql`(${current.failures} + 1)`;
  return sql`update login_throttle set
      pending = greatest(${livePending} - 1, 0),
      failures = ${failures},
      window_start = ${current.windowStart},
      last_failure_at = now(),
      blocked_until = ${blockedUntil(policy, failures, current.windowStart)}
    where key = ${key}`;
}

/** A right password: the slot is freed; a key that stands for one person starts afresh. */
function settleSuccess({ key, policy }: ThrottleKey): SQL {
  const fresh = policy.onSuccess === 'clear' ? sql`, failures = 0, blocked_until = null` : sql``;
  return sql`update login_throttle set pending = greatest(${livePending} - 1, 0)${fresh} where key = ${key}`;
}

/** Forgets an employee ID's failures (an Admin set a new password, the user chose one). */
export async function clearFailures(db: DbOrTx, key: ThrottleKey): Promise<void> {
  await db.execute(sql`update login_throttle set failures = 0, blocked_until = null where key = ${key.key}`);
}

/** Rows no policy needs any more: no attempt under way, not blocked, the last failure long past. */
export async function purgeStaleThrottleRows(db: DbOrTx): Promise<number> {
  const longest = Math.max(
    ...[ADDRESS_POLICY, EMPLOYEE_POLICY, DEVICE_POLICY].map((p) => (p.kind === 'window' ? p.windowSeconds : Math.max(p.forgetSeconds, p.capSeconds))),
  );
  const deleted = await db
    .delete(loginThrottle)
    .where(
      sql`${t.lastFailureAt} < now() - ${seconds(longest)}
        and (${t.blockedUntil} is null or ${t.blockedUntil} < now())
        and ${livePending} = 0`,
    )
    .returning({ key: loginThrottle.key });
  return deleted.length;
}
