import { Navigate, Outlet } from 'react-router';
import type { Role } from '../../../common/constants.js';
import { CHANGE_PASSWORD_PATH, landingPathFor, mustChangePassword, useAuth } from '../features/auth/index.js';

/*
 * The guards only decide what to draw from the stored user; the server enforces every
 * permission again on each call (docs/architecture.md, 'The promises the design keeps').
 */

/** `/` and `/login`: a signed-in user goes to their home screen (or to choose a password) instead. */
export function RedirectSignedIn() {
  const { user } = useAuth();
  if (user !== null) return <Navigate to={landingPathFor(user)} replace />;
  return <Outlet />;
}

/**
 * Anonymous visitors on a protected route go to /login; a user who must still choose a new
 * password goes to do that, whatever they asked for.
 */
export function RequireAuth() {
  const { user } = useAuth();
  if (user === null) return <Navigate to="/login" replace />;
  if (mustChangePassword(user)) return <Navigate to={CHANGE_PASSWORD_PATH} replace />;
  return <Outlet />;
}

/** Signed in, whether or not a new password is still due: only the change-password screen. */
export function RequireSignedIn() {
  const { user } = useAuth();
  if (user === null) return <Navigate to="/login" replace />;
  return <Outlet />;
}

/** Only the listed roles pass; others are sent where their role belongs. */
export function RequireRole({ allow, redirectTo }: { allow: readonly Role[]; redirectTo: string }) {
  const { user } = useAuth();
  if (user === null) return <Navigate to="/login" replace />;
  if (mustChangePassword(user)) return <Navigate to={CHANGE_PASSWORD_PATH} replace />;
  if (!allow.includes(user.role)) return <Navigate to={redirectTo} replace />;
  return <Outlet />;
}

/** Steps that need data an earlier step stored (sessionStorage) start over without it. */
export function RequireStored({ present, redirectTo }: { present: () => boolean; redirectTo: string }) {
  if (!present()) return <Navigate to={redirectTo} replace />;
  return <Outlet />;
}
