// Push in the real app and its real service worker: Settings subscribes (the
// browser's PushManager.subscribe is replaced by an init script returning keys this
// test made, since no vendor push service is reachable), a real gate block makes the
// relay push to the local push service, which decrypts it; the test hands that exact
// payload to the worker through CDP ServiceWorker.deliverPushMessage, checks the
// notification, and taps Approve in the worker.
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import type { TestSubscription } from '../test/stand-ins/push-service';
import { fullBrowser } from './browsers';
import { test, expect, controlledByWorker, type RelayFixture } from './fixtures';
import { approvalToken, requestApproval, startTask } from './task-setup';
import { deliverUntilShown, hideApp, usePushStandIn, shown, tap } from './notifications';
// The service worker is what this spec tests (or needs: push, offline, updates); the others run without it (SUITE-5).
test.use({ serviceWorkers: 'allow', ...fullBrowser }); // push notifications: the full browser (SUITE-6)

const pushService = usePushStandIn('e2e-push-ca-');

/** Replaces PushManager so `subscribe` hands back the test's subscription (and remembers the key it was given). */
async function fakePushManager(page: Page, sub: TestSubscription['json']): Promise<void> {
  await page.addInitScript((json) => {
    let current: PushSubscription | null = null;
    const w = window as unknown as { __pushKey?: string };
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const key = options?.applicationServerKey as Uint8Array;
      w.__pushKey = btoa(String.fromCharCode(...new Uint8Array(key))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      current = {
        endpoint: json.endpoint, expirationTime: null, options: { applicationServerKey: key.buffer, userVisibleOnly: true },
        toJSON: () => json, unsubscribe: async () => { current = null; return true; }, getKey: () => null,
      } as unknown as PushSubscription;
      return current;
    };
    PushManager.prototype.getSubscription = async () => current;
    const ask = Notification.requestPermission.bind(Notification);
    const counted = window as unknown as { __permissionAsks: number };
    counted.__permissionAsks = 0;
    Notification.requestPermission = (() => { counted.__permissionAsks++; return ask(); }) as typeof Notification.requestPermission;
  }, sub);
}

/** Turns notifications on in Settings, as a person would. */
async function enableNotifications(page: Page, context: BrowserContext, env: RelayFixture, sub: TestSubscription): Promise<void> {
  await context.grantPermissions(['notifications'], { origin: env.url });
  await page.getByTestId('nav-settings').click();
  await controlledByWorker(page);
  await expect(page.getByTestId('notifications-toggle')).not.toBeChecked();
  expect(await page.evaluate(() => (window as unknown as { __permissionAsks: number }).__permissionAsks)).toBe(0);
  await page.getByTestId('notifications-toggle').click();
  await expect(page.getByTestId('notifications-message')).toHaveText('Notifications are on for this device.');
  await expect(page.getByTestId('notify-approval_requested')).toBeEnabled(); // the kinds unlock once it is on
  await expect(page.getByTestId('notification-prefs-off')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __permissionAsks: number }).__permissionAsks)).toBe(1);
  const key = await page.evaluate(() => (window as unknown as { __pushKey?: string }).__pushKey);
  const vapid = (await (await fetch(`${env.url}/api/push/key`)).json()) as { publicKey: string };
  expect(key).toBe(vapid.publicKey);
  const push = env.relay.services.push as unknown as { hasDevice(id: string): boolean };
  const [device] = env.relay.services.devices.list();
  expect(push.hasDevice(device!.id)).toBe(true);
  expect(pushService.endpoint.for(sub.id)).toEqual([]);
}

test('PUSH-4, PUSH-6: permission is asked only on turning notifications on; a gate block reaches the phone as an actionable notification; Approve in the worker writes the digest-bound token and the commit passes; tapping the body opens the task', async ({ paired: page, context, relayEnv }) => {
  const sub = pushService.endpoint.subscribe();
  await fakePushManager(page, sub.json);
  await page.reload();
  await enableNotifications(page, context, relayEnv, sub);
  await hideApp(page, relayEnv);

  const task = startTask(relayEnv, 'T-31', 'Push me');
  requestApproval(relayEnv, task, { 'src/push.js': 'export const pushed = true;\n' });
  const digest = relayEnv.events().find((e) => e.event === 'approval_requested' && e.task === 'T-31')!.digest as string;
  const received = await pushService.endpoint.waitFor((p) => p.subscription === sub.id);
  const tag = `task:${task.repoId}:T-31`;

  const sw = await deliverUntilShown(page, relayEnv.url, received.text, tag);
  expect(await shown(sw, tag)).toEqual([{
    title: `Approve T-31 in ${path.basename(relayEnv.repo)}?`, body: '1 file changed · +1 −0', tag,
    actions: [{ action: 'approve', title: 'Approve' }, { action: 'deny', title: 'Deny' }],
    data: expect.objectContaining({ kind: 'approval_requested', data: { repo: task.repoId, task: 'T-31', digest } }),
  }]);

  await tap(sw, tag, 'approve');
  await expect.poll(() => approvalToken(relayEnv, 'T-31')).not.toBeNull();
  expect(JSON.parse(approvalToken(relayEnv, 'T-31')!)).toMatchObject({ digest, by: 'E2E Phone' });
  await expect.poll(async () => (await shown(sw, tag)).map((n) => n.title)).toEqual(['Approved T-31']);
  expect(task.commit().code).toBe(0);
  await tap(sw, tag, ''); // the body of the confirmation: back to the task
  await expect(page).toHaveURL(`${relayEnv.url}/task?repo=${task.repoId}&id=T-31`);
});

test('PUSH-4: Approve on a notification whose change was updated since opens the task with the reason and writes nothing', async ({ paired: page, context, relayEnv }) => {
  const sub = pushService.endpoint.subscribe();
  await fakePushManager(page, sub.json);
  await page.reload();
  await enableNotifications(page, context, relayEnv, sub);
  await hideApp(page, relayEnv);

  const task = startTask(relayEnv, 'T-32', 'Stale push');
  requestApproval(relayEnv, task, { 'src/stale.js': 'first\n' });
  const received = await pushService.endpoint.waitFor((p) => p.subscription === sub.id);
  task.stage({ 'src/stale.js': 'second\n' });
  const tag = `task:${task.repoId}:T-32`;

  const sw = await deliverUntilShown(page, relayEnv.url, received.text, tag);
  await tap(sw, tag, 'approve');
  await expect(page).toHaveURL(`${relayEnv.url}/task?repo=${task.repoId}&id=T-32&notice=E_STALE_DIGEST`);
  // The task opens with the reason in words, not just a code in the address.
  await expect(page.getByTestId('task-push-notice')).toContainText(/changed|updated/i);
  expect(approvalToken(relayEnv, 'T-32')).toBeNull();
  expect(relayEnv.events().some((e) => e.event === 'approval_granted' && e.task === 'T-32')).toBe(false);
});

test('QUEUE-1: turning notifications on while the relay is down says the relay could not be reached, not the browser\'s "Failed to fetch", and the switch stays off', async ({ paired: page, context, relayEnv }) => {
  await context.grantPermissions(['notifications'], { origin: relayEnv.url });
  await page.getByTestId('nav-settings').click();
  await controlledByWorker(page);
  await expect(page.getByTestId('notifications-toggle')).not.toBeChecked();
  await relayEnv.relay.close();
  await expect(page.getByTestId('connection-badge')).not.toHaveAttribute('data-state', 'live');
  await page.getByTestId('notifications-toggle').click();
  await expect(page.getByTestId('notifications-message')).toHaveText('Could not reach the relay, so notifications are still off. Check that the relay is running and reachable, then try again.');
  await expect(page.getByTestId('notifications-toggle')).not.toBeChecked();
});
