import type { PublicUser } from '../../common/schemas/auth.js';
import { languageSchema, roleSchema } from '../../common/schemas/auth.js';
import type { UserRow } from '../db/schema.js';

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
    language: row.language === null ? null : languageSchema.parse(row.language),
  };
}
