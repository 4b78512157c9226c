import type * as OutboxRuntime from './runtime.js';

let loading: Promise<typeof OutboxRuntime> | null = null;

/** The outbox's code, fetched once; a failed fetch (no signal on a first visit) is tried again next time. */
export function loadOutboxRuntime(): Promise<typeof OutboxRuntime> {
  loading ??= import('./runtime.js').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
