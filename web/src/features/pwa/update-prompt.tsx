import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { Button } from '../../components/ui/button.js';
import { dismissUpdate, pendingUpdate, subscribeToUpdates } from './update-store.js';

/** Production builds only: Vitest (jsdom) and the dev server run without a service worker. */
function startServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  void import('./register-service-worker.js')
    .then(({ registerServiceWorker }) => registerServiceWorker())
    .catch(() => {
      // The chunk could not load (offline before it was ever cached): try on the next start.
    });
}

/**
 * Registers the service worker after the first render and, when a new version has been
 * deployed and installed, offers to switch to it. The app never reloads on its own: that
 * would throw away an inspection being filled in.
 */
export function UpdatePrompt() {
  const { t } = useLingui();
  const apply = useSyncExternalStore(subscribeToUpdates, pendingUpdate, pendingUpdate);
  const [updating, setUpdating] = useState(false);

  useEffect(() => startServiceWorker(), []);

  if (apply === null) return null;
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-0 z-40 mx-auto w-full max-w-md p-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">
      <div
        role="status"
        aria-live="polite"
        className="pointer-events-auto flex flex-wrap items-center gap-3 rounded-xl border-2 border-brand-800 bg-white p-4 text-slate-900 shadow-lg"
      >
        <p className="min-w-0 flex-1 text-base font-bold">
          <Trans>A new version is available.</Trans>
        </p>
        <div className="flex gap-2">
          <Button variant="ghost" size="sm" onClick={dismissUpdate} disabled={updating}>
            <Trans>Later</Trans>
          </Button>
          <Button
            size="sm"
            disabled={updating}
            onClick={() => {
              setUpdating(true);
              apply().catch(() => setUpdating(false));
            }}
          >
            {updating ? t`Updating...` : t`Update now`}
          </Button>
        </div>
      </div>
    </div>
  );
}
