// The Inbox follows the bus live: packets added and claimed with the real tools show up without a reload.
import { test, expect } from './fixtures';

test('APP-12: a task appears in the Inbox live and moves to In progress after a real claim', async ({ paired: page, relayEnv }) => {
  relayEnv.addPacket('T-live', 'Live task from the bus');
  const card = page.getByTestId('group-inbox').getByTestId('task-card').filter({ hasText: 'T-live' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Live task from the bus');

  expect(relayEnv.tool('claim')).toMatch(/^claimed:/);
  const claimed = page.getByTestId('group-in-progress').getByTestId('task-card').filter({ hasText: 'T-live' });
  await expect(claimed).toBeVisible();
  await expect(page.getByTestId('group-inbox')).toHaveCount(0);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
});

test('APP-12: search by id filters the Inbox', async ({ paired: page, relayEnv }) => {
  relayEnv.addPacket('T-alpha', 'Alpha');
  relayEnv.addPacket('T-beta', 'Beta');
  await expect(page.getByTestId('task-card')).toHaveCount(2);
  await page.getByTestId('inbox-search').fill('beta');
  await expect(page.getByTestId('task-card')).toHaveCount(1);
  await expect(page.getByTestId('task-card')).toContainText('T-beta');
  await page.getByTestId('inbox-search').fill('nothing-like-this');
  await expect(page.getByTestId('inbox-empty')).toContainText('No task matches.');
});
