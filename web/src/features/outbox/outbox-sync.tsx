import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.js';
import { reportUnauthorized } from '../../lib/api-client.js';
import { type LogoutGuard, mustChangePassword, useAuth } from '../auth/index.js';
import type { Drainer } from './drain.js';
import { loadOutboxRuntime } from './load-runtime.js';
import { subscribeOutbox } from './outbox-events.js';

/**
 * Runs the outbox for the signed-in technician: a pass at app start, after a new sign-in and
 * when the network comes back, then on a timer while records wait (docs/architecture.md, 'Offline on the phone'). Mounted
 * once, inside the auth provider. It also asks before a sign-out leaves records behind.
 *
 * While the user must still choose a new password the server would refuse every upload, so
 * nothing is sent; the records stay on the phone and go, as after a sign-in, once it is chosen.
 */
export function OutboxSync() {
  const { t } = useLingui();
  const { user, setLogoutGuard, refreshUser } = useAuth();
  const owner = user?.employeeId ?? null;
  const held = user !== null && mustChangePassword(user);
  // Whether this tab has been signed out (or held for a new password) since it opened: the
  // next owner then "signed in".
  const wasSignedOut = useRef(false);
  const [question, setQuestion] = useState<{ count: number; answer: (signOut: boolean) => void } | null>(null);

  useEffect(() => {
    if (owner === null || held) {
      wasSignedOut.current = true;
      return;
    }
    const reason = wasSignedOut.current ? 'sign-in' : 'start';
    let drainer: Drainer | null = null;
    let cancelled = false;
    const stopListening = subscribeOutbox(() => drainer?.reschedule());
    const onOnline = () => void drainer?.trigger('online');
    window.addEventListener('online', onOnline);
    loadOutboxRuntime()
      .then((runtime) => {
        if (cancelled) return;
        drainer = runtime.createDrainer({
          store: runtime.outboxStore(),
          owner,
          onUnauthorized: reportUnauthorized,
          // The server asks for a new password this tab did not know about: learn it from the
          // server, and the route guards take the user to choose it.
          onPasswordChangeRequired: () => void refreshUser(),
        });
        runtime.setActiveDrainer(drainer);
        void drainer.trigger(reason);
      })
      .catch(() => {
        // The outbox code could not load (first visit, no signal): there is nothing queued
        // on this device yet that would need it.
      });
    return () => {
      cancelled = true;
      stopListening();
      window.removeEventListener('online', onOnline);
      const stopping = drainer;
      if (stopping === null) return;
      stopping.stop();
      void loadOutboxRuntime().then((runtime) => {
        if (runtime.activeDrainer() === stopping) runtime.setActiveDrainer(null);
      });
    };
  }, [owner, held, refreshUser]);

  useEffect(() => {
    const guard: LogoutGuard = async (leaving) => {
      const counts = await loadOutboxRuntime()
        .then((runtime) => runtime.countByOwner())
        .catch(() => null);
      const count = counts?.[leaving.employeeId]?.total ?? 0;
      if (count === 0) return true;
      return new Promise<boolean>((resolve) => {
        setQuestion({
          count,
          answer: (signOut) => {
            setQuestion(null);
            resolve(signOut);
          },
        });
      });
    };
    return setLogoutGuard(guard);
  }, [setLogoutGuard]);

  if (question === null) return null;
  const count = question.count;
  return (
    <ConfirmDialog
      title={t`Records not sent`}
      confirmLabel={t`Sign Out`}
      onConfirm={() => question.answer(true)}
      onCancel={() => question.answer(false)}
    >
      {plural(count, {
        one: '# record has not been sent yet. It stays on this phone and will be sent after your next sign-in. Sign out anyway?',
        other: '# records have not been sent yet. They stay on this phone and will be sent after your next sign-in. Sign out anyway?',
      })}
    </ConfirmDialog>
  );
}
