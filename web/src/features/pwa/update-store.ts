/** Activates the waiting service worker; the page then reloads into the new version. */
export type ApplyUpdate = () => Promise<void>;

/*
 * A module-level store, like the toasts: the registration (loaded lazily, outside React)
 * reports a waiting version here and the prompt draws from it.
 */
let pending: ApplyUpdate | null = null;
const listeners = new Set<() => void>();

function emit(next: ApplyUpdate | null): void {
  pending = next;
  for (const listener of listeners) listener();
}

/** A new version is installed and waits for the user's go-ahead. */
export function announceUpdate(apply: ApplyUpdate): void {
  emit(apply);
}

/** "Later": the prompt comes back when the app next finds the waiting version. */
export function dismissUpdate(): void {
  if (pending !== null) emit(null);
}

// No React here: the lazily loaded registration imports this file, and must not pull
// React into a chunk of its own.
export function subscribeToUpdates(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function pendingUpdate(): ApplyUpdate | null {
  return pending;
}
