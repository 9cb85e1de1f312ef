// The saved state (the last data the relay sent, kept in IndexedDB) read once per page.
// The frame starts the read as its module runs, so the Inbox shows the saved tasks as
// soon as IndexedDB answers, without waiting for the client core's chunk; the core's
// hydrate takes the same read (FIRST-8).
//
// API:
//   readSavedState() → Promise<PersistedState | undefined> (one read per page; never rejects)
//   hydrateEarly(store) — dispatches `local.hydrate` with it once read (a store already hydrated ignores it)
import { openDb } from './db';
import type { PersistedState, Store } from './store';

let reading: Promise<PersistedState | undefined> | null = null;

export function readSavedState(): Promise<PersistedState | undefined> {
  reading ??= openDb()
    .then((db) => db.get('snapshot', 'state'))
    .then((saved) => (saved?.v === 1 ? saved : undefined))
    .catch(() => undefined);
  return reading;
}

export function hydrateEarly(store: Store): Promise<void> {
  return readSavedState().then((saved) => {
    if (saved) store.dispatch({ type: 'local.hydrate', snapshot: saved });
  });
}
