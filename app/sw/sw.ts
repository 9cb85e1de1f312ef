// The service worker: precaches the app shell and every exported route (the list is
// injected by scripts/build-app.mjs after `next build`), answers navigations from the
// cache so the app opens offline, and flushes the outbox by Background Sync when the
// page is closed. The relay's API and socket are never cached.
import { addPlugins, cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute, setCatchHandler } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';
import type { ActionFrame } from '../../protocol/wire/frames';
import { loadDevice } from '../lib/device-key';
import { clientError } from '../lib/errors';
import { Outbox } from '../lib/outbox';
import { OUTBOX_CHANGED, OUTBOX_SYNC_TAG } from '../lib/worker-messages';
import { sendActionOverHttp } from './http-action';
import { installPushHandlers } from './push';

const sw = self as unknown as ServiceWorkerGlobalScope;
// Written out as `self.__WB_MANIFEST` so workbox-build finds the spot to inject the list.
const manifest = (self as unknown as { __WB_MANIFEST: (string | PrecacheEntry)[] }).__WB_MANIFEST;

cleanupOutdatedCaches();
// FIRST-11: a script is handed to the page as a response of its own, not the Cache Storage
// entry. Chromium attaches to an entry cached while the worker installs a code cache of
// every function, and a page that gets the entry deserializes it on its main thread
// (160–210 ms of a warm load's start here, against 30–40 ms for the same scripts compiled
// while they stream in on a background thread, which their compile hint asks for, FIRST-4).
addPlugins([{ cachedResponseWillBeUsed: async ({ cachedResponse }) => (cachedResponse && isScript(cachedResponse) ? new Response(cachedResponse.body, cachedResponse) : cachedResponse) }]);
// `/task?repo=…&id=…` is served by the precached task.html: query strings are data, not pages.
precacheAndRoute(manifest, { cleanURLs: true, directoryIndex: 'index.html', ignoreURLParametersMatching: [/.*/] });

// Other navigations go to the network (the relay's 404 page online)…
registerRoute(new NavigationRoute(new NetworkOnly()));
// …and an uncached navigation offline still opens the app (the Inbox shell), never the browser's error page.
setCatchHandler(async ({ request }) => {
  if (request.mode === 'navigate') return (await matchPrecache('/index.html')) ?? Response.error();
  return Response.error();
});

sw.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void sw.skipWaiting();
});
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));

sw.addEventListener('sync', (event) => {
  const sync = event as Event & { tag: string; waitUntil(p: Promise<unknown>): void };
  if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(flushOutbox());
});

/** Sends queued actions over `POST /api/action` (same ids, fresh signatures); tells open pages. */
async function flushOutbox(): Promise<void> {
  const outbox = new Outbox({
    signer: async () => {
      const device = await loadDevice();
      return device ? { deviceId: device.deviceId, privateKey: device.privateKey } : null;
    },
    send: sendOverHttp,
  });
  await outbox.flush();
  for (const client of await sw.clients.matchAll({ type: 'window' })) client.postMessage({ type: OUTBOX_CHANGED });
}

function isScript(response: Response): boolean {
  return /javascript/i.test(response.headers.get('content-type') ?? '');
}

async function sendOverHttp(frame: ActionFrame): Promise<unknown> {
  const device = await loadDevice();
  if (!device) throw clientError('E_NOT_PAIRED');
  return sendActionOverHttp(frame, device.deviceId);
}

installPushHandlers(sw);
