/**
 * Registers the service worker vite-plugin-pwa builds (dist/web/sw.js, scope /). Loaded with
 * a dynamic import after the first render, so neither this code nor workbox-window counts
 * against the technician route's initial JS.
 */
import { registerSW } from 'virtual:pwa-register';
import { announceUpdate } from './update-store.js';

/** Phones keep the app open for a whole shift; look for a new deploy this often. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

let started = false;
let registered: ServiceWorkerRegistration | undefined;
/** The waiting version last offered: workbox may report the same one again (a second 'waiting' event under load), which must not bring back a prompt the user answered "Later". */
let offered: ServiceWorker | null = null;

function checkForUpdate(registration: ServiceWorkerRegistration): void {
  if (!navigator.onLine || document.visibilityState !== 'visible') return;
  // Offline or a server hiccup: the next check tries again.
  registration.update().catch(() => undefined);
}

export function registerServiceWorker(): void {
  if (started) return;
  started = true;
  const updateServiceWorker = registerSW({
    immediate: true,
    onNeedRefresh() {
      const waiting = registered?.waiting ?? null;
      if (waiting !== null && waiting === offered) return;
      offered = waiting;
      // Sends SKIP_WAITING; once the new worker controls the page, the page reloads.
      announceUpdate(() => updateServiceWorker(true));
    },
    onRegisteredSW(_url, registration) {
      if (registration === undefined) return;
      registered = registration;
      setInterval(() => checkForUpdate(registration), UPDATE_CHECK_MS);
      document.addEventListener('visibilitychange', () => checkForUpdate(registration));
    },
    onRegisterError(error: unknown) {
      // The app still works online without a service worker.
      console.warn('Service worker registration failed', error);
    },
  });
}
