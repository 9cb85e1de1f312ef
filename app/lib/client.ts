// Wires the page's client core together once: saved snapshot → store, device key →
// RelayConnection → store, outbox ⇄ connection, browser online/offline/visibility.
// Browser only; call startClient() from a client component (the layout does).
//
// API:
//   startClient() → Client (idempotent; returns the running one)
//   getClient()   → Client | null
//   interface Client { store, connection, outbox, signer(), restart() }
//   restart(): reconnect with the stored identity (after pairing)
import { openDb } from './db';
import { clearDevice, loadDevice } from './device-key';
import { Outbox } from './outbox';
import { RelayConnection, relaySocketUrl } from './socket';
import { appStore, persistable, type Store } from './store';
import { hydrateEarly } from './saved-state';
import { loadServerFrame } from './wire-schema';
import { CLOSE_SETTLED, OUTBOX_CHANGED, OUTBOX_SYNC_TAG } from './worker-messages';
import type { Signer } from './sign';

export interface Client {
  store: Store;
  connection: RelayConnection;
  outbox: Outbox;
  signer(): Promise<Signer | null>;
  restart(): void;
}

let client: Client | null = null;
const PERSIST_DELAY_MS = 250;

export function getClient(): Client | null {
  return client;
}

export function startClient(): Client {
  if (client) return client;
  const store = appStore;
  const signer = async (): Promise<Signer | null> => {
    const device = await loadDevice().catch(() => null);
    return device ? { deviceId: device.deviceId, privateKey: device.privateKey } : null;
  };
  const connection = new RelayConnection({
    url: relaySocketUrl(location.origin),
    signer,
    cursors: () => store.getState().cursors,
    onFrame: (frame) => {
      store.dispatch(frame);
      closeSettledNotification(frame);
    },
    onState: (state, error) => {
      store.dispatch({ type: 'local.connection', state, error, at: new Date().toISOString() });
      if (state === 'live') {
        void outbox.flush();
        reportVisibility(connection);
      }
      if (state === 'unpaired' && error?.code === 'E_UNAUTHORIZED') void clearDevice();
    },
  });
  const outbox = new Outbox({
    signer,
    send: (frame) => connection.request(frame),
    onChange: (items) => {
      store.dispatch({ type: 'local.outbox', items });
      if (items.some((i) => i.status === 'queued') && connection.state !== 'live') requestBackgroundSync();
    },
  });
  client = { store, connection, outbox, signer, restart: () => { connection.stop(); connection.start(); } };

  watchBrowser(connection);
  // The worker flushed the outbox while this page was away: show what is left.
  navigator.serviceWorker?.addEventListener('message', (event) => {
    if ((event.data as { type?: string } | null)?.type === OUTBOX_CHANGED) void outbox.list().then((items) => store.dispatch({ type: 'local.outbox', items }));
  });
  // Saved state first: the subscribe then carries its cursors, and no late hydrate can
  // bring back a repo the relay has dropped meanwhile.
  // The frame schema is built in steps (FIRST-7) once the saved state is on screen, while the socket connects (FIRST-8).
  const hydrated = hydrateEarly(store);
  // Saving starts from the hydrated state, so what was just read is not written back (FIRST-9).
  void hydrated.then(() => persistOnChange(store));
  void hydrated.then(() => void loadServerFrame());
  void hydrated
    .then(() => outbox.list())
    .then((items) => store.dispatch({ type: 'local.outbox', items }))
    .catch(() => undefined)
    .then(signer)
    .then((s) => (s ? connection.start() : store.dispatch({ type: 'local.connection', state: 'unpaired' })));
  return client;
}

function persistOnChange(store: Store): void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let saved = persistable(store.getState());
  store.subscribe(() => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      const state = store.getState();
      if (!state.hydrated) return;
      const next = persistable(state);
      const same = (Object.keys(next) as (keyof typeof next)[]).every((k) => next[k] === saved[k]);
      if (same) return;
      saved = next;
      void openDb().then((db) => db.put('snapshot', next, 'state')).catch(() => undefined);
    }, PERSIST_DELAY_MS);
  });
}

/**
 * A request settled while this phone had the app on screen gets no push that replaces its
 * notification (PUSH-5, ASK-9): the worker closes it, unless it is already one without buttons
 * (its confirmation of a tap, or the relay's quiet notice), which says what happened. The worker
 * does it, not the page: Chromium closes a notification by its tag, and only the worker orders
 * this close with the confirmation it shows under the same tag when a person taps a button.
 * Only while the page is on screen: otherwise the relay's quiet push replaces it.
 */
function closeSettledNotification(frame: Parameters<Store['dispatch']>[0]): void {
  if (document.visibilityState !== 'visible') return;
  const tag = frame.type === 'question.request' && frame.request.status !== 'pending' ? `question:${frame.request.id}`
    : frame.type === 'permission.request' && frame.request.status !== 'pending' ? `permission:${frame.request.id}` : null;
  // The active worker, whether or not it controls this page (a hard reload leaves it uncontrolled).
  if (tag) void navigator.serviceWorker?.ready.then((reg) => reg.active?.postMessage({ type: CLOSE_SETTLED, tag })).catch(() => undefined);
}

/** Asks the worker to flush the outbox when connectivity returns, even if the app is closed by then. */
function requestBackgroundSync(): void {
  void navigator.serviceWorker?.ready
    .then((reg) => (reg as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync?.register(OUTBOX_SYNC_TAG))
    .catch(() => undefined); // no Background Sync here: the page flushes when it reconnects
}

/** Tells the relay whether the app is on screen (then it sends live updates rather than pushes). */
function reportVisibility(connection: RelayConnection): void {
  if (connection.state !== 'live') return;
  const visible = document.visibilityState === 'visible';
  connection.request({ type: 'client.visibility', id: connection.readId(), visible }).catch(() => undefined);
}

function watchBrowser(connection: RelayConnection): void {
  const network = () => connection.setNetwork(navigator.onLine);
  addEventListener('online', network);
  addEventListener('offline', network);
  if (!navigator.onLine) connection.setNetwork(false);
  document.addEventListener('visibilitychange', () => reportVisibility(connection));
}
