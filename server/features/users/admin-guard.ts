/**
 * Account safety: the system must always keep at least one Admin. Nothing changes a role
 * or removes a user yet; any future demote or delete must ask this before it writes (and
 * do so inside its transaction, counting the admins with the row locked).
 */
import type { Role } from '../../../common/constants.js';

export interface RoleChange {
  userId: number;
  /** The role after the change, or null when the user is removed. */
  newRole: Role | null;
}

/** True when applying the change to these admins would leave none. */
export function leavesNoAdmin(adminUserIds: readonly number[], change: RoleChange): boolean {
  if (change.newRole === 'Admin') return false;
  return adminUserIds.filter((id) => id !== change.userId).length === 0;
}
