// Notifications in the real service worker, driven the way the browser would:
// pushes delivered over CDP, shown notifications read back, buttons tapped.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { PushService as LocalPushService } from '../test/stand-ins/push-service';
import { expect, test, type RelayFixture } from './fixtures';

/**
 * For the spec file: the local push-service stand-in, started before its tests, with its CA
 * handed to the relay fixture through COMMANDR_PUSH_CA (read when that relay starts).
 * `caPrefix` names the CA's temp dir. The endpoint is set once beforeAll has run.
 */
export function usePushStandIn(caPrefix: string): { endpoint: LocalPushService } {
  const stand = {} as { endpoint: LocalPushService };
  let caDir: string | undefined;
  test.beforeAll(async () => {
    stand.endpoint = await new LocalPushService().start();
    caDir = mkdtempSync(path.join(tmpdir(), caPrefix));
    writeFileSync(path.join(caDir, 'ca.pem'), stand.endpoint.certificate.cert);
    process.env.COMMANDR_PUSH_CA = path.join(caDir, 'ca.pem');
  });
  test.afterAll(async () => {
    delete process.env.COMMANDR_PUSH_CA;
    await stand.endpoint?.close();
    if (caDir) rmSync(caDir, { recursive: true, force: true });
  });
  return stand;
}

/** Delivers `data` to the page origin's service worker the way the browser's push service would. */
export async function deliverPush(page: Page, origin: string, data: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r: { scopeURL: string; isDeleted: boolean }) => r.scopeURL.startsWith(origin) && !r.isDeleted);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: await registration, data });
  await cdp.detach();
}

/**
 * Delivers until the worker shows a notification with `tag`: under load a CDP push to a
 * worker that is just being started can be dropped (a real push service retries too).
 */
export async function deliverUntilShown(page: Page, origin: string, data: string, tag: string): Promise<Worker> {
  const sw = worker(page.context());
  await trackShows(sw);
  await expect.poll(async () => {
    if ((await shown(sw, tag)).length === 0) await deliverPush(page, origin, data);
    return (await shown(sw, tag)).length;
  }, { timeout: 20_000, intervals: [500, 1000, 2000] }).toBe(1);
  return sw;
}

export function worker(context: BrowserContext): Worker {
  const [sw] = context.serviceWorkers();
  if (!sw) throw new Error('no service worker');
  return sw;
}

/**
 * Makes the worker count the notifications it is in the middle of showing, so `shown` can
 * wait for them. Chromium's getNotifications() is not a passive read: it deletes every stored
 * notification that was created before the read began and is not on screen yet. A read that
 * lands between a showNotification's database write and its display deletes that notification
 * for good (showNotification still resolves); a button's confirmation, which replaces the
 * tapped notification under its tag, was lost that way under load (CI, stop 36).
 */
async function trackShows(sw: Worker): Promise<void> {
  await sw.evaluate(() => {
    const scope = self as unknown as { __showing?: Set<Promise<void>> };
    if (scope.__showing) return;
    const showing = new Set<Promise<void>>();
    scope.__showing = showing;
    const proto = ServiceWorkerRegistration.prototype;
    const show = proto.showNotification;
    proto.showNotification = function (this: ServiceWorkerRegistration, ...args: Parameters<typeof show>) {
      const pending = show.apply(this, args);
      showing.add(pending);
      const done = () => void showing.delete(pending);
      pending.then(done, done);
      return pending;
    };
  });
}

/** The worker's notifications under `tag`, read once no showNotification is in flight (see trackShows). */
export async function shown(sw: Worker, tag: string) {
  await trackShows(sw);
  return sw.evaluate(async (t) => {
    const showing = (self as unknown as { __showing: Set<Promise<void>> }).__showing;
    while (showing.size > 0) await Promise.allSettled([...showing]);
    const list = await (self as unknown as ServiceWorkerGlobalScope).registration.getNotifications({ tag: t });
    return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, actions: (n as Notification & { actions: { action: string; title: string }[] }).actions.map((a) => ({ action: a.action, title: a.title })), data: n.data }));
  }, tag);
}

/** Taps a button of the notification with `tag` (a notificationclick in the worker itself). */
export async function tap(sw: Worker, tag: string, action: string): Promise<void> {
  await trackShows(sw); // before the tap, so the confirmation it shows is waited for
  await sw.evaluate(async ([t, a]) => {
    const scope = self as unknown as ServiceWorkerGlobalScope;
    const [n] = await scope.registration.getNotifications({ tag: t });
    if (!n) throw new Error(`no notification tagged ${t}`);
    scope.dispatchEvent(new NotificationEvent('notificationclick', { notification: n, action: a }));
  }, [tag, action] as const);
}


/**
 * Push subscription for specs without a vendor push service: PushManager.subscribe
 * hands back `json` (a subscription of the local stand-in, test/stand-ins/push-service)
 * and Settings' toggle is used as a person would. Same steps as e2e/push.spec.ts.
 */
export async function subscribeThroughSettings(page: Page, env: { url: string }, json: { endpoint: string }): Promise<void> {
  await page.addInitScript((sub) => {
    let current: PushSubscription | null = null;
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const key = options?.applicationServerKey as Uint8Array;
      current = {
        endpoint: sub.endpoint, expirationTime: null, options: { applicationServerKey: key.buffer, userVisibleOnly: true },
        toJSON: () => sub, unsubscribe: async () => { current = null; return true; }, getKey: () => null,
      } as unknown as PushSubscription;
      return current;
    };
    PushManager.prototype.getSubscription = async () => current;
  }, json);
  await page.reload();
  await page.context().grantPermissions(['notifications'], { origin: env.url });
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('notifications-toggle').click();
  await expect(page.getByTestId('notifications-message')).toHaveText('Notifications are on for this device.');
}

/**
 * The app goes to the background, and the relay has been told: it no longer counts this
 * device as looking, so it pushes. Waiting for the relay is the point: the page reports its
 * visibility over its socket, and under load a question or gate block the test triggers right
 * after the page's event can reach the relay first and get no push ("no matching push").
 */
export async function hideApp(page: Page, env: RelayFixture): Promise<void> {
  await setVisibility(page, 'hidden');
  await expect.poll(() => looking(env), { message: 'the relay still counts the app as on screen' }).toBe(false);
}

/** The app back on screen (after hideApp), and the relay has been told: it stops pushing to it. */
export async function showApp(page: Page, env: RelayFixture): Promise<void> {
  await setVisibility(page, 'visible');
  await expect.poll(() => looking(env), { message: 'the relay does not count the app as on screen' }).toBe(true);
}

/** What the relay's push service asks before pushing: does a socket of a paired device report the app visible? */
function looking(env: RelayFixture): boolean {
  return env.relay.services.clients().some((c) => c.visible);
}

function setVisibility(page: Page, state: DocumentVisibilityState): Promise<void> {
  return page.evaluate((value) => {
    Object.defineProperty(document, 'visibilityState', { value, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
}
