// SBXDEF-8: the task screen says in one line when the task's agent runs without a sandbox, and
// how to fix it; a session that reports its sandbox on shows nothing. Real relay, real live posts.
// SANDBOX-WARN-1: so does a commander's screen when its relay runs turns with --no-sandbox.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';
import { openTask, requestApproval, startTask } from './task-setup';

async function postLive(url: string, dataDir: string, event: Record<string, unknown>): Promise<void> {
  const token = readFileSync(path.join(dataDir, 'hook-token'), 'utf8').trim();
  const res = await fetch(`${url}/api/events`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ v: 1, ...event }),
  });
  expect(res.status).toBeLessThan(300);
}

test('SBXDEF-8: a task whose agent runs without a sandbox shows one plain line with how to fix it; sandboxed, none', async ({ paired: page, relayEnv }, testInfo) => {
  const task = startTask(relayEnv, 'S-1', 'Sandbox task');
  requestApproval(relayEnv, task, { 'src/s.js': 's();\n' });
  await openTask(page, relayEnv, task);
  await postLive(relayEnv.url, relayEnv.relay.dataDir, { session: 'sess-on', kind: 'edit', summary: 'Edited src/s.js', file: 'src/s.js', task: 'S-1', ok: true, sandbox: 'on' });
  await expect(page.getByTestId('timeline').locator('[data-kind="live"]')).toContainText('Edited src/s.js');
  await expect(page.getByTestId('sandbox-off')).toHaveCount(0);

  await postLive(relayEnv.url, relayEnv.relay.dataDir, { session: 'sess-off', kind: 'command', summary: 'ls', cmd: 'ls', task: 'S-1', ok: true, sandbox: 'off' });
  const warning = page.getByTestId('sandbox-off');
  await expect(warning).toBeVisible();
  await expect(warning.locator('summary')).toHaveText(/No sandbox — this agent can read your approval key\. How to fix/);
  // A line, not a banner: at most two short lines of text on a phone, the header still on screen.
  const box = (await warning.boundingBox())!;
  expect(box.height).toBeLessThanOrEqual(52); // two lines of text; a third would make it ~66
  await expect(page.getByTestId('task-header')).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath('sandbox-off.png') });
  await warning.locator('summary').click();
  await expect(page.getByTestId('sandbox-off-fix')).toContainText('commandr init --wire');
  await expect(page.getByTestId('sandbox-off-fix')).toContainText('commandr sandbox -- opencode');
  await page.screenshot({ path: testInfo.outputPath('sandbox-off-open.png') });

  // The same session turning its sandbox on takes the line away.
  await postLive(relayEnv.url, relayEnv.relay.dataDir, { session: 'sess-off', kind: 'command', summary: 'pwd', cmd: 'pwd', task: 'S-1', ok: true, sandbox: 'on' });
  await expect(page.getByTestId('sandbox-off')).toHaveCount(0);
});

/** Opens the demo's commander from the Commanders tab. */
async function openDemoCommander(page: import('@playwright/test').Page): Promise<void> {
  await page.getByTestId('nav-commanders').click();
  await page.getByTestId('cmdr-card').first().click();
  await expect(page.getByTestId('commander')).toBeVisible();
  await expect(page.getByTestId('chat-commander').first()).toBeVisible();
}

test.describe('a commander on a relay started with --no-sandbox', () => {
  test.use({ demo: true, sandbox: false });

  test('SANDBOX-WARN-1: its turns run unsandboxed, so its screen shows the one plain No sandbox line with how to fix it', async ({ paired: page }, testInfo) => {
    await openDemoCommander(page);
    const warning = page.getByTestId('sandbox-off');
    await expect(warning).toBeVisible();
    await expect(warning.locator('summary')).toHaveText(/No sandbox — this agent can read your approval key\. How to fix/);
    expect((await warning.boundingBox())!.height).toBeLessThanOrEqual(52); // a line, not a banner
    await warning.locator('summary').click();
    await expect(page.getByTestId('sandbox-off-fix')).toContainText('--no-sandbox');
    await page.screenshot({ path: testInfo.outputPath('commander-sandbox-off.png') });
    // Its turns do run: a message is answered, and the line stays.
    await page.getByTestId('cmdr-message').fill('Are you there?');
    await page.getByTestId('cmdr-send').click();
    await expect(page.getByTestId('chat-commander').last()).toContainText('This is the demo commander');
    await expect(warning).toBeVisible();
  });
});

test.describe('a commander on a sandboxed relay', () => {
  test.use({ demo: true });

  test('SANDBOX-WARN-1: its turns run in the sandbox, so its screen shows no No sandbox line', async ({ paired: page }) => {
    await openDemoCommander(page);
    await page.getByTestId('cmdr-message').fill('Are you there?');
    await page.getByTestId('cmdr-send').click();
    await expect(page.getByTestId('chat-commander').last()).toContainText('This is the demo commander');
    await expect(page.getByTestId('sandbox-off')).toHaveCount(0);
  });
});
