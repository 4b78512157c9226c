import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, startTransition, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { loginResponseSchema, type PublicUser } from '../../../../common/schemas/auth.js';
import { apiRequest, setUnauthorizedHandler } from '../../lib/api-client.js';
import { applyLanguage, type Language } from '../../lib/i18n.js';
import { USER_STORAGE_KEY } from '../../lib/storage-keys.js';
import { clearStoredUser, readStoredUser, writeStoredUser } from '../../lib/stored-user.js';
import { reconcileLanguage } from './user-language.js';

/**
 * Asked before signing out; answers false to stay signed in. The outbox uses it to ask
 * about records not sent yet, without the session code knowing about the outbox.
 */
export type LogoutGuard = (leaving: PublicUser) => Promise<boolean>;

interface AuthContextValue {
  /** The signed-in user, or null. Drawn from the stored copy at once, even offline. */
  user: PublicUser | null;
  /** Keeps the user a successful login (or password change) returned. */
  signIn: (user: PublicUser) => void;
  /**
   * Asks the server who is signed in and keeps the answer (for instance after a call was
   * refused with PASSWORD_CHANGE_REQUIRED). A failure keeps the stored user.
   */
  refreshUser: () => Promise<void>;
  /**
   * Ends the server session (best effort) and forgets the user on this device, after the
   * logout guard agreed. `onSignedOut` (typically a navigation) is applied in the same render
   * as the forgetting. Answers whether the user was signed out.
   */
  logout: (onSignedOut?: () => void) => Promise<boolean>;
  /** Installs the one logout guard; returns a function that removes it again. */
  setLogoutGuard: (guard: LogoutGuard) => () => void;
  /** Shows the interface in `language` now, and keeps it on the device and on the signed-in user. */
  chooseLanguage: (language: Language) => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/**
 * GET /api/auth/me: the signed-in user as the server knows them, or null when the answer is
 * unusable, the network failed, or someone else has signed in on this device meanwhile.
 */
async function fetchSignedInUser(): Promise<PublicUser | null> {
  try {
    const res = await apiRequest('GET', '/api/auth/me');
    const parsed = loginResponseSchema.safeParse(await res.json());
    if (!parsed.success || readStoredUser()?.id !== parsed.data.user.id) return null;
    return parsed.data.user;
  } catch {
    // Offline or server trouble: keep drawing from the stored copy.
    return null;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<PublicUser | null>(readStoredUser);

  const forget = useCallback(() => {
    clearStoredUser();
    setUser(null);
    // Cached answers belong to the user who fetched them; the next user must not see them.
    queryClient.clear();
  }, [queryClient]);

  // Every 401 from any call ends up here; the route guards then send the user to /login.
  useEffect(
    () =>
      setUnauthorizedHandler(() => {
        if (readStoredUser() !== null) forget();
        else setUser(null);
      }),
    [forget],
  );

  // Verify the restored user in the background. A 401 is handled above; a network failure
  // keeps the user, because technicians keep working in dead zones.
  useEffect(() => {
    if (readStoredUser() === null) return;
    let cancelled = false;
    void fetchSignedInUser().then((fresh) => {
      if (cancelled || fresh === null) return;
      writeStoredUser(fresh);
      setUser(fresh);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  const refreshUser = useCallback(async () => {
    if (readStoredUser() === null) return;
    const fresh = await fetchSignedInUser();
    if (fresh === null) return;
    writeStoredUser(fresh);
    setUser(fresh);
  }, []);

  // Another tab signing in or out changes what this tab may show.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === USER_STORAGE_KEY || event.key === null) setUser(readStoredUser());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const signIn = useCallback((next: PublicUser) => {
    writeStoredUser(next);
    setUser(next);
  }, []);

  // The device's language and the account's meet whenever a user is known (lib/i18n.ts).
  const keepSaved = useCallback((saved: PublicUser | null) => {
    if (saved === null || readStoredUser()?.id !== saved.id) return;
    writeStoredUser(saved);
    setUser(saved);
  }, []);
  useEffect(() => {
    if (user === null) return;
    void reconcileLanguage(user).then(keepSaved);
  }, [user, keepSaved]);

  const chooseLanguage = useCallback(
    async (language: Language) => {
      await applyLanguage(language, { unsaved: true });
      if (user !== null) keepSaved(await reconcileLanguage(user));
    },
    [user, keepSaved],
  );

  const logoutGuard = useRef<LogoutGuard | null>(null);
  const setLogoutGuard = useCallback((guard: LogoutGuard) => {
    logoutGuard.current = guard;
    return () => {
      if (logoutGuard.current === guard) logoutGuard.current = null;
    };
  }, []);

  const logout = useCallback(
    async (onSignedOut?: () => void) => {
      const guard = logoutGuard.current;
      if (user !== null && guard !== null && !(await guard(user))) return false;
      try {
        await apiRequest('POST', '/api/auth/logout');
      } catch {
        // Signing out must work offline too; the server session then simply expires.
      }
      // The router applies navigations as transitions; forgetting the user in the same
      // transition keeps the sign-in guard from redirecting to /login in between.
      startTransition(() => {
        forget();
        onSignedOut?.();
      });
      return true;
    },
    [forget, user],
  );

  const value = useMemo(
    () => ({ user, signIn, refreshUser, logout, setLogoutGuard, chooseLanguage }),
    [user, signIn, refreshUser, logout, setLogoutGuard, chooseLanguage],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (value === null) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

/** For screens behind the auth guard, where a user always exists. */
export function useSignedInUser(): PublicUser {
  const { user } = useAuth();
  if (user === null) throw new Error('useSignedInUser must be used behind the sign-in guard');
  return user;
}
