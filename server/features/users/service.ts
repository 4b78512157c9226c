import type { PublicUser } from '../../../common/schemas/auth.js';
import type { Db } from '../../db/client.js';
import { hashPassword } from '../auth/password.js';
import { toPublicUser } from './presenter.js';
import { findUserByEmployeeId, insertUser, listTechnicians, listUsers } from './repository.js';
import { divisionScope } from '../../../common/rules/division-scope.js';

export function createUserService(deps: { db: Db; isOwner(employeeId: string): boolean }) {
  return {
    async list(): Promise<PublicUser[]> {
      const rows = await listUsers(deps.db);
      return rows.map((row) => toPublicUser(row, deps.isOwner(row.employeeId)));
    },

    /** For report filters: a Client sees only the technicians who worked in their division. */
    async technicians(user: PublicUser) {
      const scope = divisionScope(user, undefined);
      if (scope.none) return [];
      return listTechnicians(deps.db, scope.division);
    },

    /**
     * Makes the configured first admin if that employee ID does not exist yet. An existing
     * account is left as it is: its password is never reset from the environment.
     */
    async ensureAdmin(admin: { employeeId: string; password: string; name?: string | undefined }): Promise<'created' | 'exists'> {
      if (await findUserByEmployeeId(deps.db, admin.employeeId)) return 'exists';
      await insertUser(deps.db, {
        employeeId: admin.employeeId,
        name: admin.name ?? 'Administrator',
        role: 'Admin',
        passwordHash: await hashPassword(admin.password),
      });
      return 'created';
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
