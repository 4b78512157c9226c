import { createHash, randomBytes } from 'node:crypto';
import type { PublicUser } from '../../../common/schemas/auth.js';
import { type ChangePasswordRequest, PASSWORD_TEXTS, newPasswordProblem } from '../../../common/schemas/user-password.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import type { UserRow } from '../../db/schema.js';
import type { ResolvedSession } from '../../plugins/access.js';
import { type Actor, recordAudit } from '../audit/audit.js';
import { toPublicUser } from '../users/presenter.js';
import { findUserByEmployeeId, findUserById, updatePassword } from '../users/repository.js';
import {
  MAX_FAILURES_PER_ADDRESS,
  MAX_FAILURES_PER_EMPLOYEE,
  addressKey,
  clearFailures,
  employeeKey,
  recordFailure,
  secondsUntilAllowed,
} from './login-throttle.js';
import { hashPassword, verifyPassword } from '../../security/password.js';
import {
  deleteExpiredSessionsOfUser,
  deleteOtherSessionsOfUser,
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

/** The cookie carries the token; the table keeps only its hash. */
export const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');

// Verifying against a real hash when the employee ID is unknown keeps both failures equally
// slow, so response time does not reveal which employee IDs exist.
let decoyHash: Promise<string> | undefined;
const getDecoyHash = () => (decoyHash ??= hashPassword(randomBytes(16).toString('hex')));

export function createAuthService(deps: AuthDeps) {
  const { db } = deps;

  const present = (user: UserRow): PublicUser => toPublicUser(user, deps.isOwner(user.employeeId));

  const throttleLimits = (employeeId: string, address: string) => [
    { key: employeeKey(employeeId), max: MAX_FAILURES_PER_EMPLOYEE },
    { key: addressKey(address), max: MAX_FAILURES_PER_ADDRESS },
  ];

  /** 429 while this employee ID or address has too many recent failures. */
  async function refuseIfThrottled(limits: Array<{ key: string; max: number }>): Promise<void> {
    const wait = await secondsUntilAllowed(db, limits);
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60);
      throw new AppError(
        'TOO_MANY_LOGIN_ATTEMPTS',
        `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again`,
        { headers: { 'retry-after': String(wait) } },
      );
    }
  }

  async function login(input: { employeeId: string; password: string; address: string; userAgent: string | null }) {
    const limits = throttleLimits(input.employeeId, input.address);
    await refuseIfThrottled(limits);

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
  async function resolve(token: string): Promise<ResolvedSession | null> {
    const sessionId = sessionIdOf(token);
    const session = await findLiveSession(db, sessionId);
    if (!session) return null;
    const ttlMs = deps.sessionTtlSeconds * 1000;
    let renewedUntil: Date | null = null;
    if (session.expiresAt.getTime() - Date.now() < ttlMs / 2) {
      renewedUntil = new Date(Date.now() + ttlMs);
      await extendSession(db, sessionId, renewedUntil);
    }
    return { user: present(session.user), sessionId, renewedUntil };
  }

  async function logout(token: string | undefined): Promise<void> {
    if (token) await deleteSession(db, sessionIdOf(token));
  }

  /**
   * The signed-in user replaces their own password. A wrong current password is a 400 on
   * that field (a 401 would sign the app out) and counts against the sign-in throttle, so a
   * borrowed session cannot be used to guess the password. On success the new password is
   * theirs (no change asked for any more) and every other session of theirs ends.
   */
  async function changePassword(
    actor: Actor & { sessionId: string; address: string },
    input: ChangePasswordRequest,
  ): Promise<PublicUser> {
    const row = await findUserById(db, actor.user.id);
    if (!row) throw new AppError('NOT_AUTHENTICATED');
    const limits = throttleLimits(row.employeeId, actor.address);
    await refuseIfThrottled(limits);

    const fields: Record<string, string> = {};
    const problem = newPasswordProblem(input.newPassword, row);
    if (problem !== null) fields.newPassword = problem;
    if (!(await verifyPassword(row.passwordHash, input.currentPassword))) {
      for (const { key } of limits) await recordFailure(db, key);
      fields.currentPassword = PASSWORD_TEXTS.currentWrong;
    } else if (problem === null && input.newPassword === input.currentPassword) {
      fields.newPassword = PASSWORD_TEXTS.sameAsCurrent;
    }
    const [first] = Object.entries(fields);
    if (first) throw new AppError('VALIDATION_FAILED', `${first[0]}: ${first[1]}`, { fields });

    const passwordHash = await hashPassword(input.newPassword);
    const updated = await db.transaction(async (tx) => {
      await updatePassword(tx, row.id, { passwordHash, mustChangePassword: false });
      await deleteOtherSessionsOfUser(tx, row.id, actor.sessionId);
      await clearFailures(tx, employeeKey(row.employeeId));
      await recordAudit(tx, {
        actor: actor.user,
        action: 'user.change-password',
        entity: 'user',
        entityId: row.employeeId,
        before: null,
        after: { passwordChanged: true },
        requestId: actor.requestId,
      });
      return findUserById(tx, row.id);
    });
    if (!updated) throw new AppError('NOT_AUTHENTICATED');
    return present(updated);
  }

  return { login, resolve, logout, present, changePassword };
}

export type AuthService = ReturnType<typeof createAuthService>;
