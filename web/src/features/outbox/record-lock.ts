/**
 * One sender per record at a time, across the app's tabs: Web Locks when the browser has
 * them, a per-tab set otherwise (a second tab may then send a record twice, which the server's
 * clientSubmissionId check turns into one stored record).
 */
export const BUSY = Symbol('busy');

const heldHere = new Map<string, Promise<unknown>>();

function lockManager(): LockManager | null {
  return typeof navigator !== 'undefined' && 'locks' in navigator && navigator.locks ? navigator.locks : null;
}

/**
 * Runs `task` holding the record's lock. `ifAvailable`: answers BUSY at once when someone
 * else holds it (the drain skips that record); otherwise waits for it (Submit Record).
 */
export async function withRecordLock<T>(localId: string, ifAvailable: boolean, task: () => Promise<T>): Promise<T | typeof BUSY> {
  const name = `hkmi-outbox:${localId}`;
  const locks = lockManager();
  if (locks !== null) {
    return locks.request(name, { ifAvailable }, async (lock) => (lock === null ? BUSY : task()));
  }
  for (let held = heldHere.get(name); held !== undefined; held = heldHere.get(name)) {
    if (ifAvailable) return BUSY;
    await held.catch(() => undefined);
  }
  const running = task();
  heldHere.set(name, running);
  try {
    return await running;
  } finally {
    heldHere.delete(name);
  }
}
