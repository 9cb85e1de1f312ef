// The app's one IndexedDB database ('commandr'): device key, offline outbox and
// the last state snapshot. Uses no window APIs, so the service worker opens it too.
//
// API:
//   DB_NAME, DB_VERSION
//   openDb(): Promise<IDBPDatabase<CommandrDb>> — opened once per realm and cached
//   stores: 'keys' (key 'device' → DeviceKeyRecord), 'outbox' (keyPath 'id' → OutboxItem),
//           'snapshot' (key 'state' → PersistedState)
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { DeviceKeyRecord } from './device-key';
import type { OutboxItem } from './outbox';
import type { PersistedState } from './store';

export const DB_NAME = 'commandr';
export const DB_VERSION = 1;

export interface CommandrDb extends DBSchema {
  keys: { key: string; value: DeviceKeyRecord };
  outbox: { key: string; value: OutboxItem };
  snapshot: { key: string; value: PersistedState };
}

let opening: Promise<IDBPDatabase<CommandrDb>> | null = null;

export function openDb(): Promise<IDBPDatabase<CommandrDb>> {
  opening ??= openDB<CommandrDb>(DB_NAME, DB_VERSION, {
    upgrade(db) {
      db.createObjectStore('keys');
      db.createObjectStore('outbox', { keyPath: 'id' });
      db.createObjectStore('snapshot');
    },
    // Another tab or the worker upgraded the schema: drop our handle so the next call reopens.
    blocking() {
      void opening?.then((db) => db.close());
      opening = null;
    },
  });
  return opening;
}

/** Test hook: forget the cached connection (fake-indexeddb is reset between tests). */
export function resetDbForTests(): void {
  opening = null;
}
