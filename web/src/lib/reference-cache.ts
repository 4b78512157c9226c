import type { DBSchema } from 'idb';
import { fieldDbOpener, hasIndexedDb, REFERENCE_STORE } from './field-db.js';

/**
 * The last good answer of each reference-data URL (curves, stations, parts), kept on the
 * device so the entry flow works with no network (docs/architecture.md, 'Offline on the phone'). Reference data is the
 * railway's, the same for every technician, so it outlives a sign-out.
 */
export interface ReferenceCache {
  read(url: string): Promise<unknown>;
  write(url: string, body: unknown): Promise<void>;
}

interface StoredAnswer {
  url: string;
  body: unknown;
  storedAt: number;
}

interface ReferenceDb extends DBSchema {
  reference: { key: string; value: StoredAnswer };
}

export function createIdbReferenceCache(): ReferenceCache {
  const open = fieldDbOpener<ReferenceDb>();
  return {
    async read(url) {
      const stored = await (await open()).get(REFERENCE_STORE, url);
      return stored?.body;
    },
    async write(url, body) {
      await (await open()).put(REFERENCE_STORE, { url, body, storedAt: Date.now() });
    },
  };
}

/** For tests (jsdom has no IndexedDB) and browsers without it: lives as long as the page. */
export function createMemoryReferenceCache(): ReferenceCache {
  const answers = new Map<string, unknown>();
  return {
    read: async (url) => answers.get(url),
    write: async (url, body) => {
      answers.set(url, body);
    },
  };
}

let current: ReferenceCache | null = null;

export function referenceCache(): ReferenceCache {
  current ??= hasIndexedDb() ? createIdbReferenceCache() : createMemoryReferenceCache();
  return current;
}

/** Tests start each case with an empty cache of their choice. */
export function setReferenceCache(cache: ReferenceCache): void {
  current = cache;
}
