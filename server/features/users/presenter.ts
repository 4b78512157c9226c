import type { ManagedUser } from '../../../common/schemas/user.js';
import { toPublicUser } from '../../accounts/index.js';
import type { UserRow } from '../../db/schema.js';

/** A user as User Management lists them: whether the account is on, and whether it is a demo account. */
export function toManagedUser(row: UserRow, isOwner: boolean): ManagedUser {
  return {
    ...toPublicUser(row, isOwner),
    active: row.deactivatedAt === null,
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    isDemo: row.isDemo,
  };
}
