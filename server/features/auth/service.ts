import { createHash, randomBytes } from 'node:crypto';
import type { PublicUser } from '../../../common/schemas/auth.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import type { UserRow } from '../../db/schema.js';
import { toPublicUser } from '../users/presenter.js';
import { findUserByEmployeeId } from '../users/repository.js';
import {
  MAX_FAILURES_PER_ADDRESS,
  MAX_FAILURES_PER_EMPLOYEE,
  addressKey,
  clearFailures,
  employeeKey,
  recordFailure,
  secondsUntilAllowed,
} from './login-throttle.js';
import { hashPassword, verifyPassword } from './password.js';
import {
  deleteExpiredSessionsOfUser,
  deleteSession,
  extendSession,
  findLiveSession,
  insertSession,
} from './session-repository.js';

export interface AuthDeps {
  db: Db;
  sessionTtlSeconds: number;
  isOwner(employeeId: string): boolean;
}

export interface SignedIn {
  user: UserRow;
  sessionId: string;
}

/** The cookie carries the token; the table keeps only its hash. */
export const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');

// Verifying against a real hash when the employee ID is unknown keeps both failures equally
// slow, so response time does not reveal which employee IDs exist.
let decoyHash: Promise<string> | undefined;
const getDecoyHash = () => (decoyHash ??= hashPassword(randomBytes(16).toString('hex')));

export function createAuthService(deps: AuthDeps) {
  const { db } = deps;

  const present = (user: UserRow): PublicUser => toPublicUser(user, deps.isOwner(user.employeeId));

  async function login(input: { employeeId: string; password: string; address: string; userAgent: string | null }) {
    const limits = [
      { key: employeeKey(input.employeeId), max: MAX_FAILURES_PER_EMPLOYEE },
      { key: addressKey(input.address), max: MAX_FAILURES_PER_ADDRESS },
    ];
    const wait = await secondsUntilAllowed(db, limits);
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60);
      throw new AppError(
        'TOO_MANY_LOGIN_ATTEMPTS',
        `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again`,
        { headers: { 'retry-after': String(wait) } },
      );
    }

    const user = await findUserByEmployeeId(db, input.employeeId);
    const ok = user
      ? await verifyPassword(user.passwordHash, input.password)
      : (await verifyPassword(await getDecoyHash(), input.password), false);
    if (!user || !ok) {
      for (const { key } of limits) await recordFailure(db, key);
      throw new AppError('INVALID_CREDENTIALS');
    }

    await clearFailures(db, employeeKey(input.employeeId));
    await deleteExpiredSessionsOfUser(db, user.id);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + deps.sessionTtlSeconds * 1000);
    await insertSession(db, {
      id: sessionIdOf(token),
      userId: user.id,
      expiresAt,
      userAgent: input.userAgent?.slice(0, 300) ?? null,
      ipAddress: input.address.slice(0, 64),
    });
    return { token, expiresAt, user: present(user) };
  }

  /**
   * The signed-in user behind a cookie token, or null. A session past half its lifetime is
   * extended, so a technician who uses the app every week is not signed out mid-shift.
   */
  async function resolve(token: string): Promise<(SignedIn & { renewedUntil: Date | null }) | null> {
    const sessionId = sessionIdOf(token);
    const session = await findLiveSession(db, sessionId);
    if (!session) return null;
    const ttlMs = deps.sessionTtlSeconds * 1000;
    let renewedUntil: Date | null = null;
    if (session.expiresAt.getTime() - Date.now() < ttlMs / 2) {
      renewedUntil = new Date(Date.now() + ttlMs);
      await extendSession(db, sessionId, renewedUntil);
    }
    return { user: session.user, sessionId, renewedUntil };
  }

  async function logout(token: string | undefined): Promise<void> {
    if (token) await deleteSession(db, sessionIdOf(token));
  }

  return { login, resolve, logout, present };
}

export type AuthService = ReturnType<typeof createAuthService>;
