import type { DBSchema } from 'idb';
import { fieldDbOpener, hasIndexedDb, OUTBOX_STORE } from '../../lib/field-db.js';
import { notifyOutboxChanged } from './outbox-events.js';
import { byAge, type OutboxPatch, type OutboxRecord } from './outbox-record.js';

/** Where outbox records live. IndexedDB on phones; memory in unit tests (jsdom has no IndexedDB). */
export interface OutboxStore {
  put(record: OutboxRecord): Promise<void>;
  get(localId: string): Promise<OutboxRecord | undefined>;
  /** Every record on the device, oldest first, whoever made it. */
  list(): Promise<OutboxRecord[]>;
  delete(localId: string): Promise<void>;
  /** Changes a record that still exists; answers the record as written, or undefined if it is gone. */
  update(localId: string, patch: OutboxPatch): Promise<OutboxRecord | undefined>;
}

interface OutboxDb extends DBSchema {
  outbox: { key: string; value: OutboxRecord };
}

/** Thin on purpose: the Playwright tests exercise it in a real browser. */
export function createIdbOutboxStore(): OutboxStore {
  const open = fieldDbOpener<OutboxDb>();
  return {
    async put(record) {
      await (await open()).put(OUTBOX_STORE, record);
    },
    async get(localId) {
      return (await open()).get(OUTBOX_STORE, localId);
    },
    async list() {
      return (await (await open()).getAll(OUTBOX_STORE)).sort(byAge);
    },
    async delete(localId) {
      await (await open()).delete(OUTBOX_STORE, localId);
    },
    async update(localId, patch) {
      // One transaction: another tab cannot slip a write in between the read and the write.
      const tx = (await open()).transaction(OUTBOX_STORE, 'readwrite');
      const current = await tx.store.get(localId);
      const next = current === undefined ? undefined : { ...current, ...patch };
      if (next !== undefined) await tx.store.put(next);
      await tx.done;
      return next;
    },
  };
}

export function createMemoryOutboxStore(): OutboxStore {
  const records = new Map<string, OutboxRecord>();
  return {
    put: async (record) => {
      records.set(record.localId, record);
    },
    get: async (localId) => records.get(localId),
    list: async () => [...records.values()].sort(byAge),
    delete: async (localId) => {
      records.delete(localId);
    },
    update: async (localId, patch) => {
      const current = records.get(localId);
      if (current === undefined) return undefined;
      const next = { ...current, ...patch };
      records.set(localId, next);
      return next;
    },
  };
}

/** Every write tells the screens (and other tabs) to read again. */
function announcingChanges(store: OutboxStore): OutboxStore {
  return {
    get: (localId) => store.get(localId),
    list: () => store.list(),
    async put(record) {
      await store.put(record);
      notifyOutboxChanged();
    },
    async delete(localId) {
      await store.delete(localId);
      notifyOutboxChanged();
    },
    async update(localId, patch) {
      const next = await store.update(localId, patch);
      notifyOutboxChanged();
      return next;
    },
  };
}

/**
 * Without IndexedDB nothing survives a reload, so nothing is promised: writes fail and Submit
 * Record falls back to sending at once, keeping the entry when that fails.
 */
function unavailableStore(): OutboxStore {
  const refuse = async (): Promise<never> => {
    throw new Error('This browser cannot keep records on the device');
  };
  return { put: refuse, update: refuse, get: async () => undefined, list: async () => [], delete: async () => undefined };
}

let current: OutboxStore | null = null;

export function outboxStore(): OutboxStore {
  current ??= announcingChanges(hasIndexedDb() ? createIdbOutboxStore() : unavailableStore());
  return current;
}

/** Tests give each case its own (memory) store. */
export function setOutboxStore(store: OutboxStore): void {
  current = announcingChanges(store);
}
