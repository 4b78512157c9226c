import { type DBSchema, type IDBPDatabase, openDB, unwrap } from 'idb';

/**
 * The device's one IndexedDB database (docs/architecture.md, 'Offline on the phone'). Two stores: `outbox` (records not
 * yet on the server, keyed by localId) and `reference` (the last answer of each reference-data
 * URL, keyed by URL). Each user of the database opens it with the type of its own store only,
 * so the outbox and the reference cache do not need to know each other's record types.
 */
export const FIELD_DB_NAME = 'hkmi-field';
export const OUTBOX_STORE = 'outbox';
export const REFERENCE_STORE = 'reference';
// Raise it (and extend the upgrade below) when a store or an index is added.
const FIELD_DB_VERSION = 1;

/** Opens (and creates or upgrades) the database; a connection that dies is opened again on the next call. */
export function fieldDbOpener<S extends DBSchema>(): () => Promise<IDBPDatabase<S>> {
  let opening: Promise<IDBPDatabase<S>> | null = null;
  const forget = () => {
    opening = null;
  };
  return () => {
    opening ??= openDB<S>(FIELD_DB_NAME, FIELD_DB_VERSION, {
      upgrade(db) {
        // The native database: this caller's schema type names only its own store.
        const raw = unwrap(db);
        if (!raw.objectStoreNames.contains(OUTBOX_STORE)) raw.createObjectStore(OUTBOX_STORE, { keyPath: 'localId' });
        if (!raw.objectStoreNames.contains(REFERENCE_STORE)) raw.createObjectStore(REFERENCE_STORE, { keyPath: 'url' });
      },
      // Another tab running a newer version needs this connection closed to upgrade.
      blocking() {
        void opening?.then((db) => db.close());
        forget();
      },
      terminated: forget,
    }).catch((error: unknown) => {
      forget();
      throw error;
    });
    return opening;
  };
}

/** jsdom and a few locked-down browsers have no IndexedDB at all. */
export function hasIndexedDb(): boolean {
  return typeof indexedDB !== 'undefined';
}
