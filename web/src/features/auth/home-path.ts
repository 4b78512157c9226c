import type { Role } from '../../../../common/constants.js';
import type { PublicUser } from '../../../../common/schemas/auth.js';

/** Where a signed-in user lands: Clients only read reports, everyone else starts in the field flow. */
export function homePathFor(role: Role): '/admin' | '/purpose' {
  return role === 'Client' ? '/admin' : '/purpose';
}

export const CHANGE_PASSWORD_PATH = '/change-password';

/** A user whose password someone else chose must replace it before reaching their home screen. */
export function mustChangePassword(user: PublicUser): boolean {
  return user.mustChangePassword === true;
}

/** Where a user goes right after signing in (or opening / while signed in). */
export function landingPathFor(user: PublicUser): string {
  return mustChangePassword(user) ? CHANGE_PASSWORD_PATH : homePathFor(user.role);
}
