// What the phone shows of a thing it has not sent yet (QUEUE-5..7): a commander message queued
// offline is in the conversation at once, marked; a note from the Inbox is confirmed; the note
// sheet opens, or says why it cannot, offline before its code was fetched. Real relay, real Chromium.
import type { Page } from '@playwright/test';
import { test, expect, pairThroughScreen } from './fixtures';

async function openCommander(page: Page): Promise<void> {
  await page.getByTestId('nav-commanders').click();
  await page.getByTestId('cmdr-card').first().click();
  await expect(page.getByTestId('commander')).toBeVisible();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
}

// Offline as a phone is offline: with the app's service worker (SUITE-5), except QUEUE-7, whose
// premise is a device without it.
test.describe('with the demo workspace', () => {
  test.use({ demo: true, serviceWorkers: 'allow' });

  test('QUEUE-5: a commander message sent offline is in the conversation at once, "Waiting to send", then one ordinary bubble once sent', async ({ paired: page, context }, info) => {
    await openCommander(page);
    await context.setOffline(true);
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
    await page.getByTestId('cmdr-message').fill('Written in a tunnel');
    await page.getByTestId('cmdr-send').click();
    await expect(page.getByTestId('cmdr-message')).toHaveValue('');
    const chat = page.getByTestId('cmdr-output');
    const pending = chat.getByTestId('chat-pending');
    await expect(pending).toHaveAttribute('data-state', 'waiting');
    await expect(pending).toContainText('Written in a tunnel');
    await expect(pending.getByTestId('chat-pending-state')).toHaveText(/Waiting to send$/);
    await expect(pending).toBeInViewport();
    await expect(page.getByTestId('cmdr-notice')).toHaveText('You are offline: the message will be sent when the connection is back.');
    await page.screenshot({ path: info.outputPath('commander-waiting-to-send.png') });
    await page.setViewportSize({ width: 320, height: 640 });
    await expect(pending).toBeInViewport();
    await page.screenshot({ path: info.outputPath('commander-waiting-to-send-320.png') });

    await context.setOffline(false);
    await expect(chat.getByTestId('chat-person').filter({ hasText: 'Written in a tunnel' })).toHaveCount(1);
    await expect(pending).toHaveCount(0);
    await expect(chat.getByText('Written in a tunnel', { exact: true })).toHaveCount(1); // no duplicate
    await expect(page.getByTestId('cmdr-notice')).toHaveCount(0);
  });

  test('QUEUE-5: a commander message queued offline and refused when sent says why on its bubble and copies its text back to the message box', async ({ paired: page, context }, info) => {
    // The relay would refuse a message to a commander whose session is gone; this socket answers so.
    await page.routeWebSocket(/\/ws$/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        const frame = typeof message === 'string' ? JSON.parse(message) as { type?: string; id?: string; commander?: string } : null;
        if (frame?.type === 'commander.message') {
          ws.send(JSON.stringify({ type: 'error', id: frame.id, error: { code: 'E_CONFLICT', message: `commander ${frame.commander} needs a new session: replace its session first` } }));
        } else {
          server.send(message);
        }
      });
    });
    await page.reload();
    await openCommander(page);
    await context.setOffline(true);
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
    await page.getByTestId('cmdr-message').fill('Please do the thing');
    await page.getByTestId('cmdr-send').click();
    const pending = page.getByTestId('cmdr-output').getByTestId('chat-pending');
    await expect(pending).toHaveAttribute('data-state', 'waiting');
    await context.setOffline(false);
    await expect(pending).toHaveAttribute('data-state', 'refused');
    await expect(pending.getByTestId('chat-pending-reason')).toHaveText(/^Not (sent|done)\b.*needs a new session: replace its session first\.?$/);
    await expect(page.getByTestId('cmdr-notice')).toHaveCount(0); // said once, on the bubble
    await page.screenshot({ path: info.outputPath('commander-refused.png') });
    await pending.getByTestId('chat-copy-back').click();
    await expect(page.getByTestId('cmdr-message')).toHaveValue('Please do the thing');
    await expect(pending).toHaveCount(0);
    // Shown here, so not again in the Inbox's "Not done".
    await page.getByTestId('nav-inbox').click();
    await expect(page.getByTestId('task-card').first()).toBeVisible();
    await expect(page.getByTestId('refused-actions')).toHaveCount(0);
  });
});

test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('QUEUE-6: a note sent from the Inbox is confirmed: saved for the agent\'s next turn, or queued when offline', async ({ paired: page, relayEnv, context }, info) => {
    relayEnv.addPacket('T-confirm', 'Confirm my note');
    relayEnv.tool('claim');
    const card = page.getByTestId('group-in-progress').getByTestId('task-card');
    await expect(card).toHaveCount(1);
    await page.getByTestId('task-menu').click();
    await page.getByTestId('task-note').click();
    await page.getByTestId('note-body').fill('Mind the empty name.');
    await page.getByTestId('note-send').click();
    await expect(page.getByTestId('note-sheet')).toHaveCount(0);
    const toast = page.getByTestId('inbox-toast');
    await expect(toast).toHaveText('Note saved for T-confirm. The agent sees it on its next turn.');
    await expect(toast).toHaveAttribute('role', 'status');
    await expect(toast).toBeInViewport();
    await page.screenshot({ path: info.outputPath('inbox-note-saved.png') });
    await expect.poll(() => relayEnv.annotationFiles('T-confirm').length).toBe(1);

    await context.setOffline(true);
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
    await page.getByTestId('task-menu').click();
    await page.getByTestId('task-note').click();
    await page.getByTestId('note-body').fill('And the long one.');
    await page.getByTestId('note-send').click();
    await expect(toast).toHaveText('You are offline: the note for T-confirm is queued and will be sent when the connection is back.');
    await expect(toast).toHaveAttribute('data-tone', 'warn');
    await page.setViewportSize({ width: 320, height: 640 });
    await expect(toast).toBeInViewport();
    await page.screenshot({ path: info.outputPath('inbox-note-queued-320.png') });
    await context.setOffline(false);
    await expect.poll(() => relayEnv.annotationFiles('T-confirm').length).toBe(2);
  });
});

/** Fails, as a dropped connection would, the fetch of the app's chunk that holds `marker`; says whether one was asked for. */
async function withoutChunk(page: Page, marker: string): Promise<() => boolean> {
  let asked = false;
  await page.route('**/_next/static/chunks/**', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes(marker)) { asked = true; await route.abort('internetdisconnected'); return; }
    await route.fulfill({ response, body });
  });
  return () => asked;
}

test('QUEUE-7: offline, with no service worker and the note sheet\'s code never fetched, Add note says why instead of crashing the page', async ({ page, relayEnv, context }, info) => {
  // The sheet's own chunk cannot be fetched (as offline before the page fetched it when idle).
  const noteChunk = await withoutChunk(page, 'note-body');
  await pairThroughScreen(page, relayEnv, 'E2E Phone');
  relayEnv.addPacket('T-lazy', 'Note me offline');
  relayEnv.tool('claim');
  const card = page.getByTestId('group-in-progress').getByTestId('task-card');
  await expect(card).toHaveCount(1);
  await context.setOffline(true);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
  await page.getByTestId('task-menu').click();
  await page.getByTestId('task-note').click();
  const sheet = page.getByTestId('note-sheet');
  await expect(sheet).toContainText('could not be loaded');
  expect(noteChunk()).toBe(true);
  await expect(page.getByText(/This page couldn.t load/)).toHaveCount(0);
  await expect(page.getByTestId('connection-badge')).toBeVisible();
  await page.screenshot({ path: info.outputPath('inbox-note-unavailable.png') });
  await sheet.getByRole('button', { name: 'Close' }).click();
  await expect(sheet).toHaveCount(0);
  await expect(card).toBeVisible();
  await context.setOffline(false);
});

test('QUEUE-7: offline, with no service worker and the New task sheet\'s code never fetched, New task says why instead of crashing the page', async ({ page, relayEnv, context }, info) => {
  const sheetChunk = await withoutChunk(page, 'new-task-repo');
  await pairThroughScreen(page, relayEnv, 'E2E Phone');
  relayEnv.addPacket('T-lazy', 'Create offline');
  await expect(page.getByTestId('task-card')).toHaveCount(1);
  await context.setOffline(true);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
  await page.getByTestId('new-task').click();
  const sheet = page.getByTestId('new-task-sheet');
  await expect(sheet).toContainText('could not be loaded');
  expect(sheetChunk()).toBe(true);
  await expect(page.getByText(/This page couldn.t load/)).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('inbox-new-task-unavailable.png') });
  await sheet.getByRole('button', { name: 'Close' }).click();
  await expect(sheet).toHaveCount(0);
  await context.setOffline(false);
  // Online again, the sheet's code is fetched when New task is tapped again, and the form opens.
  await page.unroute('**/_next/static/chunks/**');
  await expect(page.getByTestId('connection-badge')).not.toHaveAttribute('data-state', 'offline');
  await page.getByTestId('new-task').click();
  await expect(page.locator('#nt-title')).toBeVisible();
});
