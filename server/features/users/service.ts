import type { PublicUser } from '../../../common/schemas/auth.js';
import type { CreateUserRequest, ManagedUser, ResetPasswordRequest } from '../../../common/schemas/user.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import type { UserRow } from '../../db/schema.js';
import { uniqueViolation } from '../../db/errors.js';
import { type Actor, type AuditAction, recordAudit } from '../../audit/index.js';
import { clearFailures, employeeKey, forgetDevicesOfUser } from '../auth/index.js';
import { hashPassword } from '../../security/password.js';
import { findUserByEmployeeId, toPublicUser, updatePassword } from '../../accounts/index.js';
import { toManagedUser } from './presenter.js';
import { deleteSessionsOfUser, insertUser, insertUserIfAbsent, listTechnicians, listUsers, setDeactivatedAt } from './repository.js';
import { divisionScope } from '../../../common/rules/division-scope.js';

const duplicateEmployeeId = (employeeId: string) => new AppError('CONFLICT', `Employee ID ${employeeId} already exists`);

/** What a plain Admin may not do to an owner account (or to an ID configured as one). */
type OwnerOnlyAction = Extract<AuditAction, 'user.create' | 'user.reset-password' | 'user.deactivate' | 'user.reactivate'>;

export function createUserService(deps: { db: Db; isOwner(employeeId: string): boolean }) {
  const present = (row: UserRow) => toPublicUser(row, deps.isOwner(row.employeeId));
  const presentManaged = (row: UserRow) => toManagedUser(row, deps.isOwner(row.employeeId));
  const notFound = (employeeId: string) => new AppError('NOT_FOUND', `No user with employee ID ${employeeId}`);

  /**
   * Only an owner manages owner accounts: a plain Admin who could reset an owner's password
   * could sign in as them, and one who could create an account under an owner's ID would
   * become one. A refused attempt is kept in the audit trail (its own write, since the
   * request fails).
   */
  async function refuseUnlessOwnerMayBeManaged(actor: Actor, employeeId: string, attempted: OwnerOnlyAction): Promise<void> {
    if (!deps.isOwner(employeeId) || actor.user.isOwner) return;
    await recordAudit(deps.db, {
      actor: actor.user,
      action: 'user.refused',
      entity: 'user',
      entityId: employeeId,
      before: null,
      after: { attempted, reason: 'owner account' },
      requestId: actor.requestId,
    });
    throw new AppError('FORBIDDEN', 'Only an owner may create, reset or switch off an owner account');
  }

  /** Switches an account off or on again, audited; switching off ends its sessions at once. */
  async function setActive(actor: Actor, employeeId: string, active: boolean): Promise<ManagedUser> {
    const row = await findUserByEmployeeId(deps.db, employeeId);
    if (!row) throw notFound(employeeId);
    await refuseUnlessOwnerMayBeManaged(actor, row.employeeId, active ? 'user.reactivate' : 'user.deactivate');
    if (!active && row.id === actor.user.id) {
      const message = 'You cannot switch off your own account';
      throw new AppError('VALIDATION_FAILED', `employeeId: ${message}`, { fields: { employeeId: message } });
    }
    // Already as asked: nothing to change or record (a double tap, two Admins at once).
    if ((row.deactivatedAt === null) === active) return presentManaged(row);
    return deps.db.transaction(async (tx) => {
      const updated = await setDeactivatedAt(tx, row.id, active ? null : new Date());
      if (!updated) throw notFound(employeeId);
      if (!active) {
        await deleteSessionsOfUser(tx, row.id);
        await forgetDevicesOfUser(tx, row.id);
      }
      const user = presentManaged(updated);
      await recordAudit(tx, {
        actor: actor.user,
        action: active ? 'user.reactivate' : 'user.deactivate',
        entity: 'user',
        entityId: row.employeeId,
        before: { active: !active },
        after: { active },
        requestId: actor.requestId,
      });
      return user;
    });
  }

  return {
    /** Everyone, switched off or not: records keep naming them, and an Admin may switch them on again. */
    async list(): Promise<ManagedUser[]> {
      const rows = await listUsers(deps.db);
      return rows.map(presentManaged);
    },

    deactivate: (actor: Actor, employeeId: string) => setActive(actor, employeeId, false),
    reactivate: (actor: Actor, employeeId: string) => setActive(actor, employeeId, true),

    /** For report filters: a Client sees only the technicians who worked in their division. */
    async technicians(user: PublicUser) {
      const scope = divisionScope(user, undefined);
      if (scope.none) return [];
      return listTechnicians(deps.db, scope.division);
    },

    /**
     * An admin adds a user; the phone is the first password (docs/architecture.md, 'Entities and stored shapes'), which the user
     * must replace at their first sign-in. Employee IDs are unique without regard to case.
     * The user and its audit entry are one transaction.
     */
    async create(actor: Actor, input: CreateUserRequest): Promise<PublicUser> {
      await refuseUnlessOwnerMayBeManaged(actor, input.employeeId, 'user.create');
      if (await findUserByEmployeeId(deps.db, input.employeeId)) throw duplicateEmployeeId(input.employeeId);
      const passwordHash = await hashPassword(input.phone);
      try {
        return await deps.db.transaction(async (tx) => {
          const row = await insertUser(tx, {
            employeeId: input.employeeId,
            name: input.name,
            role: input.role,
            phone: input.phone,
            // Only a Client is bound to a division.
            divisionAccess: input.role === 'Client' ? (input.divisionAccess ?? null) : null,
            passwordHash,
            mustChangePassword: true,
          });
          const user = present(row);
          await recordAudit(tx, {
            actor: actor.user,
            action: 'user.create',
            entity: 'user',
            entityId: user.employeeId,
            before: null,
            after: user,
            requestId: actor.requestId,
          });
          return user;
        });
      } catch (error) {
        // Two admins adding the same ID at once: the unique index decides.
        if (uniqueViolation(error) !== null) throw duplicateEmployeeId(input.employeeId);
        throw error;
      }
    },

    /**
     * Sets a new password and ends every session of that user, so old cookies stop working.
     * The Admin chose it, so the user must replace it at their next sign-in.
     */
    async resetPassword(actor: Actor, input: ResetPasswordRequest): Promise<void> {
      const target = await findUserByEmployeeId(deps.db, input.employeeId);
      if (!target) throw notFound(input.employeeId);
      await refuseUnlessOwnerMayBeManaged(actor, target.employeeId, 'user.reset-password');
      const passwordHash = await hashPassword(input.newPassword);
      await deps.db.transaction(async (tx) => {
        const row = await findUserByEmployeeId(tx, input.employeeId);
        if (!row) throw notFound(input.employeeId);
        await updatePassword(tx, row.id, { passwordHash, mustChangePassword: true });
        await deleteSessionsOfUser(tx, row.id);
        // Whoever knew the old password no longer signs in past the throttle from a trusted browser.
        await forgetDevicesOfUser(tx, row.id);
        // A locked-out user gets a fresh start with the new password.
        await clearFailures(tx, employeeKey(row.employeeId));
        await recordAudit(tx, {
          actor: actor.user,
          action: 'user.reset-password',
          entity: 'user',
          entityId: row.employeeId,
          before: present(row),
          after: { passwordChanged: true },
          requestId: actor.requestId,
        });
      });
    },

    /**
     * Makes the configured first admin if that employee ID does not exist yet. An existing
     * account is left as it is: its password is never reset from the environment. The operator
     * chose this password, so no change is asked for at the first sign-in.
     */
    async ensureAdmin(admin: { employeeId: string; password: string; name?: string | undefined }): Promise<'created' | 'exists'> {
      if (await findUserByEmployeeId(deps.db, admin.employeeId)) return 'exists';
      // Several instances starting at once on a new database all get here: one inserts, the
      // others find the row there and start as well.
      const created = await insertUserIfAbsent(deps.db, {
        employeeId: admin.employeeId,
        name: admin.name ?? 'Administrator',
        role: 'Admin',
        passwordHash: await hashPassword(admin.password),
      });
      return created ? 'created' : 'exists';
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
