import type { PublicUser } from '../../../common/schemas/auth.js';
import type { CreateUserRequest, ResetPasswordRequest } from '../../../common/schemas/user.js';
import { AppError } from '../../app-error.js';
import type { Db } from '../../db/client.js';
import { uniqueViolation } from '../../db/errors.js';
import { type Actor, recordAudit } from '../audit/audit.js';
import { clearFailures, employeeKey } from '../auth/login-throttle.js';
import { hashPassword } from '../../security/password.js';
import { toPublicUser } from './presenter.js';
import {
  deleteSessionsOfUser,
  findUserByEmployeeId,
  insertUser,
  insertUserIfAbsent,
  listTechnicians,
  listUsers,
  updatePassword,
} from './repository.js';
import { divisionScope } from '../../../common/rules/division-scope.js';

const duplicateEmployeeId = (employeeId: string) => new AppError('CONFLICT', `Employee ID ${employeeId} already exists`);

export function createUserService(deps: { db: Db; isOwner(employeeId: string): boolean }) {
  const present = (row: Parameters<typeof toPublicUser>[0]) => toPublicUser(row, deps.isOwner(row.employeeId));

  return {
    async list(): Promise<PublicUser[]> {
      const rows = await listUsers(deps.db);
      return rows.map(present);
    },

    /** For report filters: a Client sees only the technicians who worked in their division. */
    async technicians(user: PublicUser) {
      const scope = divisionScope(user, undefined);
      if (scope.none) return [];
      return listTechnicians(deps.db, scope.division);
    },

    /**
     * An admin adds a user; the phone is the first password (spec section 3), which the user
     * must replace at their first sign-in. Employee IDs are unique without regard to case.
     * The user and its audit entry are one transaction.
     */
    async create(actor: Actor, input: CreateUserRequest): Promise<PublicUser> {
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
      const passwordHash = await hashPassword(input.newPassword);
      await deps.db.transaction(async (tx) => {
        const row = await findUserByEmployeeId(tx, input.employeeId);
        if (!row) throw new AppError('NOT_FOUND', `No user with employee ID ${input.employeeId}`);
        await updatePassword(tx, row.id, { passwordHash, mustChangePassword: true });
        await deleteSessionsOfUser(tx, row.id);
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
