/**
 * "The outbox changed": every screen showing a count or a list reads the store again. In this
 * tab through plain listeners; in the app's other tabs through a BroadcastChannel, so a record
 * queued or sent in one tab updates the badge in all of them.
 */
type Listener = () => void;

const CHANNEL_NAME = 'hkmi-outbox';
const listeners = new Set<Listener>();
let channel: BroadcastChannel | null = null;

function emitHere(): void {
  for (const listener of [...listeners]) listener();
}

function ensureChannel(): BroadcastChannel | null {
  if (channel === null && typeof BroadcastChannel !== 'undefined') {
    channel = new BroadcastChannel(CHANNEL_NAME);
    channel.onmessage = emitHere;
  }
  return channel;
}

export function subscribeOutbox(listener: Listener): () => void {
  listeners.add(listener);
  ensureChannel();
  return () => {
    listeners.delete(listener);
  };
}

export function notifyOutboxChanged(): void {
  emitHere();
  try {
    ensureChannel()?.postMessage('changed');
  } catch {
    // A closed channel only costs other tabs a late redraw.
  }
}
