import { useSyncExternalStore } from 'react';
import { loadOutboxRuntime } from './load-runtime.js';
import { subscribeOutbox } from './outbox-events.js';
import type { OutboxCounts } from './runtime.js';

/*
 * One count for every badge on screen: read from the store when the first badge appears and
 * again on every outbox change (this tab or another), dropped when the last badge goes.
 */
const EMPTY: OutboxCounts = {};
let snapshot: OutboxCounts = EMPTY;
let generation = 0;
const listeners = new Set<() => void>();
let unsubscribeEvents: (() => void) | null = null;

function refresh(): void {
  const mine = ++generation;
  loadOutboxRuntime()
    .then((runtime) => runtime.countByOwner())
    .then((counts) => {
      // An older read finishing late must not overwrite a newer one.
      if (mine !== generation || listeners.size === 0) return;
      snapshot = counts;
      for (const listener of [...listeners]) listener();
    })
    .catch(() => {
      // Storage or code unavailable: no badge rather than a wrong one.
    });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (unsubscribeEvents === null) {
    unsubscribeEvents = subscribeOutbox(refresh);
    refresh();
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    unsubscribeEvents?.();
    unsubscribeEvents = null;
    snapshot = EMPTY;
  };
}

const getSnapshot = () => snapshot;

export interface OutboxCount {
  /** The signed-in technician's records still on this phone. */
  mine: number;
  /** Of those, the ones the server refused. */
  failed: number;
  /** Records other employees made on this phone; they go after those employees sign in. */
  others: number;
}

/** Live counts of the outbox for `employeeId` (the signed-in user). */
export function useOutboxCount(employeeId: string | null): OutboxCount {
  const counts = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  let mine = 0;
  let failed = 0;
  let others = 0;
  for (const [owner, count] of Object.entries(counts)) {
    if (owner === employeeId) {
      mine = count.total;
      failed = count.failed;
    } else others += count.total;
  }
  return { mine, failed, others };
}
