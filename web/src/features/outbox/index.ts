/**
 * The outbox's public face (docs/architecture.md, 'Offline on the phone'). Everything here is small and on the first
 * load; the store, the drain and the upload load on demand (load-runtime.ts), as does the
 * outbox screen.
 */
import { lazy } from 'react';
import { loadOutboxRuntime } from './load-runtime.js';
import type { SubmitInput, SubmitOutcome } from './submit-record.js';
import { withScreenTexts } from '../../lib/i18n.js';

export { OutboxBadge, OutboxNotice } from './outbox-badge.js';
export { OutboxSync } from './outbox-sync.js';
export type { SubmitOutcome } from './submit-record.js';
export { useOutboxCount } from './use-outbox-count.js';
export { useWaitingVisits } from './use-waiting-visits.js';
export type { WaitingVisit } from './runtime.js';

export const OutboxPage = lazy(() => withScreenTexts(() => import('./outbox-page.js'))().then((m) => ({ default: m.OutboxPage })));
/** Only the change-password screen shows it: loaded with that screen, not on every first load. */
export const OutboxWaitingNotice = lazy(() => withScreenTexts(() => import('./outbox-waiting-notice.js'))().then((m) => ({ default: m.OutboxWaitingNotice })));

/** Submit Record: into the outbox, then one try at once (see submit-record.ts). */
export async function submitRecord(input: SubmitInput): Promise<SubmitOutcome> {
  return (await loadOutboxRuntime()).submitRecord(input);
}
