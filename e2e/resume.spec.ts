// RESUME-1/2/3 in the browser: pair, close the app, add packets while it is away
// (an atomic rename, and a slow non-atomic write), restart the relay in between,
// reopen: every packet shows; when the relay goes away the header says when it last synced.
import { closeSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { createRelay } from '../relay/server';
import { test, expect } from './fixtures';

const packetText = (id: string, title: string): string =>
  `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# ${title}\n\n## Context\ne2e\n\n## Acceptance criteria\n- works\n\n## Files to touch\n- src/x.js\n\n## Do not touch\n- .agents/\n`;

test('RESUME-1: packets added while the app was closed and the relay restarted show on reopening; a slow write shows once whole', async ({ paired: page, relayEnv }) => {
  relayEnv.addPacket('T-before', 'Seen before leaving');
  await expect(page.getByTestId('task-card').filter({ hasText: 'T-before' })).toBeVisible();
  const context = page.context();
  const origin = new URL(relayEnv.url);
  await page.close(); // the phone goes away with its cursors saved

  // An atomic write (temp file renamed into the inbox) while the relay still runs…
  const tmp = path.join(relayEnv.bus, '.T-atomic.md.tmp');
  writeFileSync(tmp, packetText('T-atomic', 'Renamed into place'));
  renameSync(tmp, path.join(relayEnv.bus, 'inbox', 'T-atomic.md'));
  // …then the relay restarts on the same port and data, and a slow write begins.
  await relayEnv.relay.close();
  const slowText = packetText('T-slow', 'Written slowly');
  const slow = openSync(path.join(relayEnv.bus, 'inbox', 'T-slow.md'), 'w');
  writeSync(slow, slowText.slice(0, 30));
  const relay = await createRelay({
    port: Number(origin.port), host: '127.0.0.1', dataDir: relayEnv.relay.dataDir, repos: [relayEnv.repo],
    registryFile: path.join(path.dirname(relayEnv.repo), 'agents-repos'), demo: false, appDir: relayEnv.appDir,
  });
  try {
    const again = await context.newPage();
    await again.goto(relayEnv.url);
    await expect(again.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
    const inbox = again.getByTestId('group-inbox');
    await expect(inbox.getByTestId('task-card').filter({ hasText: 'T-atomic' })).toContainText('Renamed into place');
    await expect(inbox.getByTestId('task-card').filter({ hasText: 'T-before' })).toBeVisible();
    await expect(again.getByTestId('task-card').filter({ hasText: 'T-slow' })).toHaveCount(0);
    writeSync(slow, slowText.slice(30));
    closeSync(slow);
    await expect(inbox.getByTestId('task-card').filter({ hasText: 'T-slow' })).toContainText('Written slowly');
    await expect(again.getByTestId('last-synced')).toHaveCount(0); // live: nothing to say

    // RESUME-3: the relay goes away; the header says since when the tasks shown are current.
    await relay.close();
    await expect(again.getByTestId('connection-badge')).not.toHaveAttribute('data-state', 'live');
    await expect(again.getByTestId('last-synced')).toContainText(/^Synced \d/);
    await expect(again.getByTestId('task-card').filter({ hasText: 'T-slow' })).toBeVisible();
  } finally {
    await relay.close().catch(() => undefined);
  }
});
