import type { OutboxRecord } from './outbox-record.js';
import type { OutboxStore } from './outbox-store.js';
import { PASSWORD_CHANGE_MESSAGE, SESSION_ENDED_MESSAGE, type SendDeps, sendRecord } from './send-record.js';

/**
 * due: only records whose backoff has passed (the retry timer, app start).
 * all: ignore backoff (the network came back, a new sign-in).
 * retry-failed: also records the server refused once ('Send now': the technician asks).
 */
export type DrainMode = 'due' | 'all' | 'retry-failed';

export interface DrainResult {
  sent: number;
  /** Records the server refused in this pass. */
  refused: number;
  /** Why the pass ended before the end of the list, if it did. */
  stoppedBy: 'offline' | 'unreachable' | 'unauthorized' | 'password-change' | null;
  /** When a record waiting on its backoff blocks the rest (the network or server is down). */
  blockedUntil: number | null;
}

const AUTOMATIC: ReadonlySet<OutboxRecord['status']> = new Set(['pending', 'sending', 'needs-sign-in']);

/**
 * 'sending' counts as waiting: a record left 'sending' by a tab that closed mid-send is sent
 * again (the lock tells apart one that is really in flight, and the server's
 * clientSubmissionId check makes a re-send of a stored one harmless). 'needs-sign-in' goes
 * whenever someone is signed in: the drain only runs for the signed-in owner.
 */
function isEligible(record: OutboxRecord, owner: string, mode: DrainMode, now: number): boolean {
  if (record.ownerEmployeeId !== owner) return false;
  if (record.status === 'failed') return mode === 'retry-failed';
  if (!AUTOMATIC.has(record.status)) return false;
  return mode !== 'due' || record.nextAttemptAt === null || record.nextAttemptAt <= now;
}

export function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/**
 * Sends the owner's waiting records, oldest first, one at a time. A network or server failure
 * ends the pass (the next record would fail the same way and only use up its tries); a 401
 * ends it and parks the owner's other records for the next sign-in, and a 403
 * PASSWORD_CHANGE_REQUIRED parks them until the new password is chosen.
 */
export async function drainOnce(deps: SendDeps, owner: string, mode: DrainMode): Promise<DrainResult> {
  const now = deps.now ?? Date.now;
  const result: DrainResult = { sent: 0, refused: 0, stoppedBy: null, blockedUntil: null };
  // navigator.onLine false is reliable: do not spend tries when the phone knows it is offline.
  if (isOffline()) return { ...result, stoppedBy: 'offline' };
  const records = await deps.store.list();
  for (const candidate of records) {
    if (!isEligible(candidate, owner, mode, now())) continue;
    const outcome = await sendRecord(deps, candidate.localId);
    if (outcome.kind === 'sent') result.sent += 1;
    if (outcome.kind === 'refused') result.refused += 1;
    if (outcome.kind === 'retry') {
      const after = await deps.store.get(candidate.localId);
      return { ...result, stoppedBy: 'unreachable', blockedUntil: after?.nextAttemptAt ?? null };
    }
    if (outcome.kind === 'unauthorized') {
      await parkForSignIn(deps.store, owner, SESSION_ENDED_MESSAGE);
      return { ...result, stoppedBy: 'unauthorized' };
    }
    if (outcome.kind === 'password-change') {
      await parkForSignIn(deps.store, owner, PASSWORD_CHANGE_MESSAGE);
      return { ...result, stoppedBy: 'password-change' };
    }
  }
  return result;
}

/**
 * The session is gone (or held until a new password) for all of the owner's records, not only
 * the one that was tried. Parked records keep their tries and go at the next sign-in.
 */
async function parkForSignIn(store: OutboxStore, owner: string, reason: string): Promise<void> {
  const records = await store.list();
  for (const record of records) {
    if (record.ownerEmployeeId !== owner || (record.status !== 'pending' && record.status !== 'sending')) continue;
    await store.update(record.localId, { status: 'needs-sign-in', lastError: reason, nextAttemptAt: null });
  }
}

/** When the automatic retry should look again, or null when nothing waits on a timer. */
export async function nextWakeAt(store: OutboxStore, owner: string, now: number): Promise<number | null> {
  let earliest: number | null = null;
  for (const record of await store.list()) {
    if (record.ownerEmployeeId !== owner || !AUTOMATIC.has(record.status)) continue;
    const at = record.nextAttemptAt ?? now;
    earliest = earliest === null ? at : Math.min(earliest, at);
  }
  return earliest;
}

export type DrainTrigger = 'start' | 'online' | 'sign-in' | 'send-now' | 'timer' | 'change';

const MODE_OF: Record<DrainTrigger, DrainMode> = {
  start: 'due',
  timer: 'due',
  change: 'due',
  online: 'all',
  'sign-in': 'all',
  'send-now': 'retry-failed',
};

const STRENGTH: Record<DrainMode, number> = { due: 0, all: 1, 'retry-failed': 2 };

/** Records due now but locked by another tab are looked at again after this long. */
const BUSY_RECHECK_MS = 5_000;
/** Never wake sooner than this: a change event storm must not become a send storm. */
const MIN_WAKE_MS = 1_000;

export interface Drainer {
  /** Starts a pass (or joins the one running, which then runs once more) and answers its result. */
  trigger(reason: DrainTrigger): Promise<DrainResult>;
  /** Looks again at when the next try is due (after a record was queued elsewhere). */
  reschedule(): void;
  stop(): void;
}

export interface DrainerOptions extends SendDeps {
  owner: string;
  /** Told when the server said the session ended, so the app can ask for a sign-in. */
  onUnauthorized: () => void;
  /** Told when the server holds the user until they choose a new password, so the app can ask for it. */
  onPasswordChangeRequired?: () => void;
}

const NOTHING: DrainResult = { sent: 0, refused: 0, stoppedBy: null, blockedUntil: null };

/**
 * The outbox's engine for one signed-in owner: passes never overlap in a tab, a trigger that
 * arrives during a pass joins the pass after it (with the strongest mode asked for), and a
 * timer wakes it when the next record is due. Stopped when the owner signs out.
 */
export function createDrainer(options: DrainerOptions): Drainer {
  const { owner, onUnauthorized, onPasswordChangeRequired, ...deps } = options;
  const now = deps.now ?? Date.now;
  let stopped = false;
  let next: { mode: DrainMode; waiters: Array<(result: DrainResult) => void> } | null = null;
  let loop: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const clearTimer = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  const arm = (at: number | null, minDelay: number) => {
    clearTimer();
    // Offline: the 'online' event starts the next pass, not a timer.
    if (stopped || at === null || isOffline()) return;
    timer = setTimeout(() => {
      timer = null;
      void trigger('timer');
    }, Math.max(at - now(), minDelay));
  };

  const schedule = async (after: DrainResult | null) => {
    if (stopped) return;
    // Nothing to time: the next sign-in, the new password or the network coming back starts the next pass.
    if (after?.stoppedBy === 'unauthorized' || after?.stoppedBy === 'password-change' || after?.stoppedBy === 'offline') {
      clearTimer();
      return;
    }
    if (after !== null && after.blockedUntil !== null) {
      arm(after.blockedUntil, MIN_WAKE_MS);
      return;
    }
    const at = await nextWakeAt(deps.store, owner, now()).catch(() => null);
    // Still due right after a pass: another tab holds it; look again a little later.
    const heldElsewhere = after !== null && at !== null && at <= now();
    arm(at, heldElsewhere ? BUSY_RECHECK_MS : MIN_WAKE_MS);
  };

  const runPass = async (mode: DrainMode): Promise<DrainResult> => {
    clearTimer();
    let result: DrainResult;
    try {
      result = await drainOnce(deps, owner, mode);
    } catch {
      // The store failed (storage evicted, quota ...): nothing was lost, try again later.
      result = { ...NOTHING, stoppedBy: 'unreachable', blockedUntil: now() + BUSY_RECHECK_MS };
    }
    if (result.stoppedBy === 'unauthorized' && !stopped) onUnauthorized();
    if (result.stoppedBy === 'password-change' && !stopped) onPasswordChangeRequired?.();
    return result;
  };

  const runLoop = async () => {
    let last: DrainResult | null = null;
    while (next !== null && !stopped) {
      const { mode, waiters } = next;
      next = null;
      last = await runPass(mode);
      for (const resolve of waiters) resolve(last);
    }
    await schedule(last);
  };

  const kick = () => {
    if (loop !== null) return;
    loop = runLoop().finally(() => {
      loop = null;
      // A trigger that arrived while the timer was being set still gets its pass.
      if (next !== null && !stopped) kick();
    });
  };

  function trigger(reason: DrainTrigger): Promise<DrainResult> {
    const mode = MODE_OF[reason];
    if (stopped) return Promise.resolve(NOTHING);
    return new Promise((resolve) => {
      if (next === null) next = { mode, waiters: [resolve] };
      else {
        if (STRENGTH[mode] > STRENGTH[next.mode]) next.mode = mode;
        next.waiters.push(resolve);
      }
      kick();
    });
  }

  return {
    trigger,
    reschedule() {
      if (loop === null) void schedule(null);
    },
    stop() {
      stopped = true;
      clearTimer();
      for (const resolve of next?.waiters ?? []) resolve(NOTHING);
      next = null;
    },
  };
}
