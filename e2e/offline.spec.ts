// Offline: actions queue in the outbox and are applied exactly once when back; the
// service worker opens the app and its last data with no network at all.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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

test.describe('with the demo workspace, things queued offline', () => {
  test.use({ demo: true });

  test('QUEUE-2: a merge tapped offline says it is queued, then, once the connection is back, that the relay merged it', async ({ paired: page, relayEnv, context }) => {
    await page.getByTestId('task-card').filter({ hasText: 'demo-7-farewell' }).click();
    await expect(page.getByTestId('finish-merge')).toBeEnabled();
    await context.setOffline(true);
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
    await page.getByTestId('finish-merge').click();
    await expect(page.getByTestId('merge-queued').locator('.action-status-text')).toHaveText('You are offline: the merge is queued and will be sent when the connection is back.');
    await expect(page.getByTestId('finish-merge')).toBeDisabled(); // not a second merge the relay would refuse
    await context.setOffline(false);
    // Not "will be sent" once it was: the notice says what became of it.
    await expect(page.getByTestId('merge-done').locator('.action-status-text')).toHaveText('Sent when the connection came back: the relay merged the branch.');
    await expect(page.getByTestId('merge-queued')).toHaveCount(0);
    await expect(page.getByTestId('task-finished')).toContainText('Merged into main');
    expect(readFileSync(`${relayEnv.demoBus}/events.jsonl`, 'utf8').split('\n').filter((l) => l.includes('"task_merged"') && l.includes('demo-7-farewell'))).toHaveLength(1);
  });

  test('QUEUE-3: a queued merge and its refusal are named as the button is ("Merge on …"), never by the wire type', async ({ paired: page, relayEnv, context }) => {
    await controlledByWorker(page); // the Inbox opens with no network
    await page.getByTestId('task-card').filter({ hasText: 'demo-7-farewell' }).click();
    await expect(page.getByTestId('finish-merge')).toBeEnabled();
    await context.setOffline(true);
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
    await page.getByTestId('finish-merge').click();
    await expect(page.getByTestId('connection-badge')).toHaveText('Offline · 1 queued');
    await page.getByTestId('nav-inbox').click();
    const queued = page.getByTestId('queued-actions').getByTestId('queued-item');
    await expect(queued).toHaveText(/^Merge on demo-7-farewell/);
    // Meanwhile the person changes, on main, the file the task adds: the relay will refuse the merge.
    const repo = path.dirname(relayEnv.demoBus);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: 'p', GIT_AUTHOR_EMAIL: 'p@example.com', GIT_COMMITTER_NAME: 'p', GIT_COMMITTER_EMAIL: 'p@example.com' } });
    mkdirSync(path.join(repo, 'src'), { recursive: true });
    writeFileSync(path.join(repo, 'src/farewell.js'), 'export const bye = "mine";\n');
    git('add', 'src/farewell.js');
    git('-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', 'person edits farewell');
    await context.setOffline(false);
    const refused = page.getByTestId('refused-actions').getByTestId('queued-item');
    await expect(refused).toHaveCount(1);
    await expect(refused).toContainText('Merge on demo-7-farewell');
    await expect(refused.getByTestId('queued-error')).toHaveText(/^Not merged: main moved since the task branched and the two conflict in src\/farewell\.js/);
    await expect(page.getByTestId('refused-actions')).not.toContainText('task.merge');
  });

  test('QUEUE-2: a commander message sent offline is said to be queued (not in the danger colour) and the notice goes once it is sent', async ({ paired: page, context }) => {
    await page.getByTestId('nav-commanders').click();
    await page.getByTestId('cmdr-card').first().click();
    await expect(page.getByTestId('commander')).toBeVisible();
    await context.setOffline(true);
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
    await page.getByTestId('cmdr-message').fill('Written in a tunnel');
    await page.getByTestId('cmdr-send').click();
    const notice = page.getByTestId('cmdr-notice');
    await expect(notice).toHaveText('You are offline: the message will be sent when the connection is back.');
    await expect(notice).toHaveAttribute('data-tone', 'warn');
    await context.setOffline(false);
    await expect(page.getByTestId('connection-badge')).toHaveText('Live');
    await expect(notice).toHaveCount(0);
    await expect(page.getByTestId('commander')).toContainText('Written in a tunnel');
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
