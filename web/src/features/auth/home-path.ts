import type { Role } from '../../../../common/constants.js';

/** Where a signed-in user lands: Clients only read reports, everyone else starts in the field flow. */
export function homePathFor(role: Role): '/admin' | '/purpose' {
  return role === 'Client' ? '/admin' : '/purpose';
}
