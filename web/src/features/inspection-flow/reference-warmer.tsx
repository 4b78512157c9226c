import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useAuth } from '../auth/index.js';

// Lets the first screen's own requests go first on a weak link.
const WARM_DELAY_MS = 2_000;

/**
 * Copies the reference data to the device after a sign-in and at app start (at most hourly),
 * when online. Renders nothing; its code loads only when it runs.
 */
export function ReferenceWarmer({ enabled = true }: { enabled?: boolean }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const wasSignedOut = useRef(false);
  const employeeId = user?.employeeId ?? null;
  // Clients never open the entry flow.
  const fieldUser = user !== null && user.role !== 'Client';
  const divisionAccess = user?.divisionAccess ?? null;

  useEffect(() => {
    if (employeeId === null) {
      wasSignedOut.current = true;
      return;
    }
    if (!enabled || !fieldUser) return;
    const signedIn = wasSignedOut.current;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      if (navigator.onLine === false) return;
      import('./api/warm-reference-data.js')
        .then((warm) => {
          if (!signedIn && warm.warmedRecently(Date.now())) return;
          return warm.warmReferenceData(queryClient, { divisionAccess }, controller.signal);
        })
        .catch(() => {
          // Offline or the code could not load: the next start tries again.
        });
    }, WARM_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [enabled, employeeId, fieldUser, divisionAccess, queryClient]);

  return null;
}
