import type { PublicUser } from '../schemas/auth.js';

/**
 * The division a query may read. A Client is bound to their divisionAccess whatever they
 * ask for (a Client with none reads nothing); other roles read what they ask.
 */
export function divisionScope(
  user: PublicUser,
  requested: string | undefined,
): { division: string | undefined; none: boolean } {
  if (user.role !== 'Client') return { division: requested, none: false };
  if (!user.divisionAccess) return { division: undefined, none: true };
  return { division: user.divisionAccess, none: false };
}
