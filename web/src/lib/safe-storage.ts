/**
 * Web Storage wrappers that never throw: private browsing modes, full quotas and
 * disabled storage all raise, and a technician's screen must not crash because of that.
 */
type StorageKind = 'local' | 'session';

function storageOf(kind: StorageKind): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readItem(kind: StorageKind, key: string): string | null {
  try {
    return storageOf(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(kind: StorageKind, key: string, value: string): void {
  try {
    storageOf(kind)?.setItem(key, value);
  } catch {
    // Losing the stored copy only costs a redraw after reload; the session cookie still holds.
  }
}

export function removeItem(kind: StorageKind, key: string): void {
  try {
    storageOf(kind)?.removeItem(key);
  } catch {
    // Nothing to do: storage that cannot be written cannot hold stale data either.
  }
}

/** Parses a stored JSON value; anything unreadable counts as absent. */
export function readJson(kind: StorageKind, key: string): unknown {
  const raw = readItem(kind, key);
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value;
  } catch {
    return null;
  }
}
