import { createHash, randomBytes } from 'node:crypto';
import type { LanguageRequest, PublicUser } from '../../../common/schemas/auth.js';
import { type ChangePasswordRequest, PASSWORD_TEXTS, newPasswordProblem } from '../../../common/schemas/user-password.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import type { UserRow } from '../../db/schema.js';
import type { ResolvedSession } from '../../plugins/access.js';
import { type Actor, recordAudit } from '../../audit/index.js';
import { findUserByEmployeeId, findUserById, toPublicUser, updateLanguage, updatePassword } from '../../accounts/index.js';
import {
  type Reservation,
  ThrottledError,
  addressKey,
  clearFailures,
  deviceKey,
  employeeKey,
  purgeStaleThrottleRows,
  reserveAttempt,
} from './login-throttle.js';
import { hashPassword, verifyPassword } from '../../security/password.js';
import {
  deleteOtherSessionsOfUser,
  deleteSession,
  extendSession,
  findLiveSession,
  insertSession,
  mayHoldSession,
  purgeDeadSessions,
} from './session-repository.js';
import { deviceOwner, forgetDevicesOfUser, purgeExpiredDevices, trustDevice } from './trusted-devices.js';

export interface AuthDeps {
  db: Db;
  sessionTtlSeconds: number;
  /** A session ends this long after its sign-in, however much it is used (SESSION_MAX_AGE). */
  sessionMaxAgeSeconds: number;
  /** Demo accounts sign in only while this is on. */
  demoMode: boolean;
  isOwner(employeeId: string): boolean;
}

/** The cookie carries the token; the table keeps only its hash. */
export const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');

// Verifying against a real hash when the employee ID is unknown keeps both failures equally
// slow, so response time does not reveal which employee IDs exist.
let decoyHash: Promise<string> | undefined;
const getDecoyHash = () => (decoyHash ??= hashPassword(randomBytes(16).toString('hex')));

const HOUR_MS = 60 * 60 * 1000;

/** Where an attempt comes from: the client's address and, if it sent one, its device cookie. */
export interface AttemptOrigin {
  address: string;
  deviceToken: string | undefined;
}

/** A browser trusted for the user just signed in: the cookie to set. */
export interface DeviceCookie {
  token: string;
  expiresAt: Date;
}

export function createAuthService(deps: AuthDeps) {
  const { db } = deps;
  let purgeTimer: NodeJS.Timeout | undefined;

  const present = (user: UserRow): PublicUser => toPublicUser(user, deps.isOwner(user.employeeId));

  /**
   * Takes an attempt's slot for this user before the password is checked (429 when one of its
   * keys must wait). From a browser trusted for this very user, only that device's count applies.
   */
  async function reserve(employeeId: string, user: UserRow | undefined, origin: AttemptOrigin) {
    const device = await deviceOwner(db, origin.deviceToken);
    const trusted = device !== undefined && user !== undefined && device.userId === user.id ? device : undefined;
    try {
      const reservation: Reservation = await reserveAttempt(
        db,
        trusted ? [deviceKey(trusted.tokenHash)] : [employeeKey(employeeId), addressKey(origin.address)],
      );
      return { reservation, trusted };
    } catch (error) {
      if (!(error instanceof ThrottledError)) throw error;
      const wait = error.retryAfterSeconds;
      const when = wait < 90 ? `${wait} second${wait === 1 ? '' : 's'}` : `${Math.ceil(wait / 60)} minutes`;
      throw new AppError('TOO_MANY_LOGIN_ATTEMPTS', `Too many failed sign-in attempts. Please wait ${when} and try again`, {
        headers: { 'retry-after': String(wait) },
      });
    }
  }

  async function login(input: { employeeId: string; password: string; userAgent: string | null } & AttemptOrigin) {
    const user = await findUserByEmployeeId(db, input.employeeId);
    const { reservation, trusted } = await reserve(input.employeeId, user, input);
    try {
      const ok = user
        ? await verifyPassword(user.passwordHash, input.password)
        : (await verifyPassword(await getDecoyHash(), input.password), false);
      // A switched-off account, or a demo account outside demo mode, answers as a wrong password
      // does (and its attempt counts as one): nothing tells a caller it exists.
      if (!user || !ok || !mayHoldSession(user, deps.demoMode)) {
        await reservation.failed();
        throw new AppError('INVALID_CREDENTIALS');
      }
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + Math.min(deps.sessionTtlSeconds, deps.sessionMaxAgeSeconds) * 1000);
      // One transaction: the slot freed, the session and the trusted browser written. (Dead
      // sessions are purged hourly, not here.)
      const device: DeviceCookie = await db.transaction(async (tx) => {
        await reservation.succeeded(tx);
        await insertSession(tx, {
          id: sessionIdOf(token),
          userId: user.id,
          expiresAt,
          userAgent: input.userAgent?.slice(0, 300) ?? null,
          ipAddress: input.address.slice(0, 64),
        });
        return trustDevice(tx, user.id, trusted);
      });
      return { token, expiresAt, user: present(user), device };
    } finally {
      await reservation.release();
    }
  }

  /**
   * The signed-in user behind a cookie token, or null. A session past half its lifetime is
   * extended, so a technician who uses the app every week is not signed out mid-shift, but never
   * past SESSION_MAX_AGE from its sign-in.
   */
  async function resolve(token: string): Promise<ResolvedSession | null> {
    const sessionId = sessionIdOf(token);
    const session = await findLiveSession(db, sessionId, deps.sessionMaxAgeSeconds);
    // The user is read afresh with every request: one switched off by another instance a moment
    // ago is refused at once, by the same rule sign-in applies.
    if (!session || !mayHoldSession(session.user, deps.demoMode)) return null;
    const ttlMs = deps.sessionTtlSeconds * 1000;
    const lastMoment = session.createdAt.getTime() + deps.sessionMaxAgeSeconds * 1000;
    let renewedUntil: Date | null = null;
    const renewal = Math.min(Date.now() + ttlMs, lastMoment);
    if (session.expiresAt.getTime() - Date.now() < ttlMs / 2 && renewal > session.expiresAt.getTime()) {
      renewedUntil = new Date(renewal);
      await extendSession(db, sessionId, renewedUntil);
    }
    return { user: present(session.user), sessionId, renewedUntil };
  }

  async function logout(token: string | undefined): Promise<void> {
    if (token) await deleteSession(db, sessionIdOf(token));
  }

  /** Sign-in counts, sessions and trusted browsers nobody can use any more. */
  async function purge(): Promise<void> {
    await purgeStaleThrottleRows(db);
    await purgeDeadSessions(db, deps.sessionMaxAgeSeconds);
    await purgeExpiredDevices(db);
  }

  /**
   * The signed-in user replaces their own password. A wrong current password is a 400 on
   * that field (a 401 would sign the app out) and counts against the sign-in throttle, so a
   * borrowed session cannot be used to guess the password. On success the new password is
   * theirs (no change asked for any more) and every other session of theirs ends.
   */
  async function changePassword(
    actor: Actor & { sessionId: string } & AttemptOrigin,
    input: ChangePasswordRequest,
  ): Promise<PublicUser> {
    const row = await findUserById(db, actor.user.id);
    if (!row) throw new AppError('NOT_AUTHENTICATED');
    const { reservation, trusted } = await reserve(row.employeeId, row, actor);
    let currentRight: boolean;
    try {
      currentRight = await verifyPassword(row.passwordHash, input.currentPassword);
      // Only a wrong current password counts; a right one with a refused new one does not.
      await (currentRight ? reservation.succeeded() : reservation.failed());
    } finally {
      await reservation.release();
    }

    const fields: Record<string, string> = {};
    const problem = newPasswordProblem(input.newPassword, row);
    if (problem !== null) fields.newPassword = problem;
    if (!currentRight) {
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
      // Other browsers that knew the old password are no longer trusted; this one stays.
      await forgetDevicesOfUser(tx, row.id, trusted?.tokenHash);
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

  /**
   * The signed-in user's own interface language, kept on their account so their next sign-in,
   * on any phone, answers it. Only the caller's row changes. Not audited: a display preference,
   * like the device's own copy of it, changes nothing anyone else sees.
   */
  async function setLanguage(actor: Actor, input: LanguageRequest): Promise<PublicUser> {
    const updated = await updateLanguage(db, actor.user.id, input.language);
    if (!updated) throw new AppError('NOT_AUTHENTICATED');
    return present(updated);
  }

  return {
    login,
    resolve,
    logout,
    present,
    changePassword,
    setLanguage,
    purge,
    /** Purges at start and hourly. */
    start(): void {
      const run = () => void purge().catch(() => undefined);
      run();
      purgeTimer = setInterval(run, HOUR_MS);
      purgeTimer.unref();
    },
    stop(): void {
      if (purgeTimer) clearInterval(purgeTimer);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
