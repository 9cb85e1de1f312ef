// Offline: actions queue in the outbox and are applied exactly once when back; the
// service worker opens the app and its last data with no network at all.
import { readFileSync } from 'node:fs';
import { test, expect, controlledByWorker, savedState } from './fixtures';
// The service worker is what this spec tests (or needs: push, offline, updates); the others run without it (SUITE-5).
test.use({ serviceWorkers: 'allow' });

test('APP-4: a note written offline is queued, then applied exactly once when the connection is back', async ({ paired: page, relayEnv, context }) => {
  relayEnv.addPacket('T-note', 'Note me');
  relayEnv.tool('claim');
  await expect(page.getByTestId('group-in-progress').getByTestId('task-card')).toHaveCount(1);

  await context.setOffline(true);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
  await page.getByTestId('task-menu').click(); // the note is in the card's menu (ROOM-6)
  await page.getByTestId('task-note').click();
  await page.getByTestId('note-body').fill('Please also handle the empty name.');
  await page.getByTestId('note-send').click();
  const queued = page.getByTestId('queued-item');
  await expect(queued).toHaveAttribute('data-status', 'queued');
  expect(relayEnv.annotationFiles('T-note')).toEqual([]);

  await context.setOffline(false);
  await expect(page.getByTestId('queued-actions')).toHaveCount(0);
  await expect.poll(() => relayEnv.annotationFiles('T-note').length).toBe(1);
  // Reconnects and a reload must not send it again.
  await page.reload();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  expect(relayEnv.annotationFiles('T-note')).toHaveLength(1);
  expect(relayEnv.events().filter((e) => e.event === 'task_annotation' && e.task === 'T-note')).toHaveLength(1);
});

/** The watched repo's id as the app holds it (from the saved state in IndexedDB). */
async function repoIdOf(page: import('@playwright/test').Page): Promise<string> {
  return Object.keys((await savedState(page))?.repos ?? {})[0]!;
}

test('APP-9: reloading with no network opens the app from the service worker with the last data', async ({ paired: page, relayEnv, context }) => {
  relayEnv.addPacket('T-cached', 'Seen before going offline');
  await expect(page.getByTestId('task-card').filter({ hasText: 'T-cached' })).toBeVisible();
  await controlledByWorker(page);
  await expect(page.getByTestId('task-card').filter({ hasText: 'T-cached' })).toBeVisible();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
  await expect(page.getByTestId('task-card').filter({ hasText: 'T-cached' })).toBeVisible();
  // Another route, never visited, also opens offline.
  await page.goto(`${relayEnv.url}/settings`);
  await expect(page.getByTestId('this-device-name')).toHaveText('E2E Phone');
  // A task link (query string) opens from the cached task route.
  await page.goto(`${relayEnv.url}/task?repo=${await repoIdOf(page)}&id=T-cached`);
  await expect(page.getByTestId('task-screen')).toBeVisible();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
  // Any other address opens the app shell rather than the browser's offline error.
  await page.goto(`${relayEnv.url}/no-such-page`);
  await expect(page.getByTestId('connection-badge')).toBeVisible();
  await context.setOffline(false);
});

test.describe('with the demo workspace', () => {
  test.use({ demo: true });

  test('APP-4: an approval given offline on the Task screen is applied exactly once when back', async ({ paired: page, relayEnv, context }) => {
    const card = page.getByTestId('group-approval').getByTestId('task-card').first();
    await expect(card).toBeVisible();
    const task = await card.getAttribute('data-task');
    await card.click();
    await expect(page.getByTestId('diff-digest')).toBeVisible();
    await context.setOffline(true);
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
    await page.getByTestId('approve').click();
    await expect(page.getByTestId('connection-badge')).toHaveText('Offline · 1 queued');
    await context.setOffline(false);
    await expect(page.getByTestId('connection-badge')).toHaveText('Live');
    const bus = relayEnv.demoBus;
    const granted = () => readFileSync(`${bus}/events.jsonl`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
      .filter((e) => e.event === 'approval_granted' && e.task === task);
    await expect.poll(() => granted().length).toBe(1);
    expect(granted()[0].by).toBe('E2E Phone');
    await page.reload(); // reconnecting flushes again: nothing may be applied twice
    await expect(page.getByTestId('connection-badge')).toHaveText('Live');
    expect(granted()).toHaveLength(1);
  });
});

test('APP-4: with the app closed, the worker flushes the outbox over POST /api/action on Background Sync, once', async ({ paired: page, relayEnv, context }) => {
  relayEnv.addPacket('T-sync', 'Synced by the worker');
  relayEnv.tool('claim');
  await expect(page.getByTestId('group-in-progress').getByTestId('task-card')).toHaveCount(1);
  await controlledByWorker(page);

  await context.setOffline(true);
  await page.getByTestId('task-menu').click(); // the note is in the card's menu (ROOM-6)
  await page.getByTestId('task-note').click();
  await page.getByTestId('note-body').fill('Sent by the worker');
  await page.getByTestId('note-send').click();
  await expect(page.getByTestId('queued-item')).toHaveAttribute('data-status', 'queued');
  await page.goto('about:blank'); // the app is closed: only the worker can send it now
  await context.setOffline(false);

  const cdp = await context.newCDPSession(page);
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const reg = registrations.find((r: { scopeURL: string; isDeleted: boolean }) => r.scopeURL.startsWith(relayEnv.url) && !r.isDeleted);
      if (reg) resolve(reg.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.dispatchSyncEvent', { origin: relayEnv.url, registrationId: await registration, tag: 'commandr-outbox', lastChance: false });
  await expect.poll(() => relayEnv.annotationFiles('T-sync').length).toBe(1);

  // Opening the app again shows nothing left to send, and nothing is sent twice.
  await page.goto(`${relayEnv.url}/`);
  await expect(page.getByTestId('connection-badge')).toHaveText('Live');
  await expect(page.getByTestId('queued-actions')).toHaveCount(0);
  expect(relayEnv.events().filter((e) => e.event === 'task_annotation' && e.task === 'T-sync')).toHaveLength(1);
});
