import { useEffect, useState } from 'react';
import { loadOutboxRuntime } from './load-runtime.js';
import { subscribeOutbox } from './outbox-events.js';
import type { WaitingVisit } from './runtime.js';

const NONE: readonly WaitingVisit[] = [];

/** The visits waiting in this phone's outbox, read again whenever the outbox changes. */
export function useWaitingVisits(): readonly WaitingVisit[] {
  const [visits, setVisits] = useState<readonly WaitingVisit[]>(NONE);
  useEffect(() => {
    let current = true;
    let generation = 0;
    const read = () => {
      const mine = ++generation;
      loadOutboxRuntime()
        .then((runtime) => runtime.listWaitingVisits())
        .then((list) => {
          if (current && mine === generation) setVisits(list);
        })
        .catch(() => {
          // Storage or code unavailable: the server's schedule alone.
        });
    };
    read();
    const unsubscribe = subscribeOutbox(read);
    return () => {
      current = false;
      unsubscribe();
    };
  }, []);
  return visits;
}
