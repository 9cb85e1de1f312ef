// The header's connection badge says what the connection is doing.
import { test, expect } from './fixtures';
// The service worker is what this spec tests (or needs: push, offline, updates); the others run without it (SUITE-5).
test.use({ serviceWorkers: 'allow' });

test('APP-8: the badge shows live, offline with the queued count, and live again', async ({ paired: page, relayEnv, context }) => {
  const badge = page.getByTestId('connection-badge');
  await expect(badge).toHaveAttribute('data-state', 'live');
  await expect(badge).toHaveText('Live');
  relayEnv.addPacket('T-badge', 'Badge task');
  await expect(page.getByTestId('task-card')).toHaveCount(1);

  await context.setOffline(true);
  await expect(badge).toHaveAttribute('data-state', 'offline');
  await page.getByTestId('task-menu').first().click(); // the note is in the card's menu (ROOM-6)
  await page.getByTestId('task-note').first().click();
  await page.getByTestId('note-body').fill('queued while offline');
  await page.getByTestId('note-send').click();
  await expect(badge).toHaveText('Offline · 1 queued');

  await context.setOffline(false);
  await expect(badge).toHaveText('Live');
});

test('APP-8: when the relay goes away the badge says reconnecting, then offline', async ({ paired: page, relayEnv }) => {
  const badge = page.getByTestId('connection-badge');
  await expect(badge).toHaveAttribute('data-state', 'live');
  await relayEnv.relay.close();
  await expect(badge).toHaveAttribute('data-state', 'reconnecting');
  await expect(badge).toHaveAttribute('data-state', 'offline', { timeout: 20_000 });
});
