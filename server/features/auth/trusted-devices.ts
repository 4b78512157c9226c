/**
 * Browsers a user has signed in from: after a right password the browser gets a long-lived,
 * httpOnly `hkmi_device` cookie (sent only to /api/auth), and the table keeps its sha256. A later
 * sign-in for the same user from that browser is throttled by the device's own count instead of
 * the employee ID's and the address's (OWASP's "device cookies"), so a stranger who types an
 * Admin's ID from anywhere slows down guessing without locking the Admin out. The cookie grants
 * nothing else: the password is still checked.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { trustedDevices } from '../../db/schema.js';

export const DEVICE_COOKIE = 'hkmi_device';
export const DEVICE_COOKIE_PATH = '/api/auth';
const DEVICE_LIFETIME_MS = 180 * 24 * 60 * 60 * 1000;
/** The newest kept per user (the hourly purge drops the rest): a phone, a laptop, a spare phone... */
const DEVICES_KEPT_PER_USER = 10;

export const deviceTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The user a device cookie was issued to, if it is one of ours and still valid. */
export async function deviceOwner(db: DbOrTx, token: string | undefined): Promise<{ userId: number; tokenHash: string } | undefined> {
  if (!token || token.length > 100) return undefined;
  const tokenHash = deviceTokenHash(token);
  const [row] = await db
    .select({ userId: trustedDevices.userId })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.tokenHash, tokenHash), gt(trustedDevices.expiresAt, sql`now()`)))
    .limit(1);
  return row ? { userId: row.userId, tokenHash } : undefined;
}

/**
 * Trusts the browser a user just signed in from: its cookie renewed when it is already theirs,
 * else a new one. Answers the token and expiry for the cookie.
 */
export async function trustDevice(db: DbOrTx, userId: number, current: { tokenHash: string } | undefined): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + DEVICE_LIFETIME_MS);
  if (current) await db.delete(trustedDevices).where(eq(trustedDevices.tokenHash, current.tokenHash));
  await db.insert(trustedDevices).values({ tokenHash: deviceTokenHash(token), userId, expiresAt });
  return { token, expiresAt };
}

/** No browser of this user is trusted any more (a reset by an Admin, a deactivation), but `keep`. */
export async function forgetDevicesOfUser(db: DbOrTx, userId: number, keep?: string): Promise<void> {
  await db.delete(trustedDevices).where(and(eq(trustedDevices.userId, userId), keep ? ne(trustedDevices.tokenHash, keep) : undefined));
}

/** Expired browsers, and those past the newest DEVICES_KEPT_PER_USER of a user. */
export async function purgeExpiredDevices(db: DbOrTx): Promise<number> {
  const expired = await db.delete(trustedDevices).where(lt(trustedDevices.expiresAt, sql`now()`)).returning({ tokenHash: trustedDevices.tokenHash });
  const surplus = await db.execute<{ token_hash: string }>(sql`
    delete from trusted_devices where token_hash in (
      select token_hash from (
        select token_hash, row_number() over (partition by user_id order by last_used_at desc, created_at desc) as newest
        from trusted_devices
      ) ranked where newest > ${DEVICES_KEPT_PER_USER}::int
    ) returning token_hash`);
  return expired.length + (surplus as unknown as { rows: unknown[] }).rows.length;
}
