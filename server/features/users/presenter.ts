import type { PublicUser } from '../../../common/schemas/auth.js';
import type { ManagedUser } from '../../../common/schemas/user.js';
import { roleSchema } from '../../../common/schemas/auth.js';
import type { UserRow } from '../../db/schema.js';

/** The only way a user row leaves the server: no hash, no session data. */
export function toPublicUser(row: UserRow, isOwner: boolean): PublicUser {
  return {
    id: row.id,
    employeeId: row.employeeId,
    name: row.name,
    role: roleSchema.parse(row.role),
    phone: row.phone,
    divisionAccess: row.divisionAccess,
    isOwner,
    mustChangePassword: row.mustChangePassword,
  };
}

/** A user as User Management lists them: whether the account is on, and whether it is a demo account. */
export function toManagedUser(row: UserRow, isOwner: boolean): ManagedUser {
  return {
    ...toPublicUser(row, isOwner),
    active: row.deactivatedAt === null,
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    isDemo: row.isDemo,
  };
}
