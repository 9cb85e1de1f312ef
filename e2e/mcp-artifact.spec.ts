// Artifacts in the real app on a phone profile: an agent (the real `commandr mcp`
// server over stdio, the SDK client playing the agent) emits files from its task's
// worktree; the task screen lists them live and opens each through the
// authenticated `artifact.open` read: an image inline, markdown and text as
// escaped text, anything else as a download. A path outside the worktree is
// refused when the agent emits it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, type RelayFixture } from './fixtures';
import { startAgent, textOf, type Agent } from './mcp-agent';
import { startTask, type AgentTask } from './task-setup';

const HOSTILE = '<img src=x onerror="window.__pwned=1">';

async function openTaskScreen(page: Page, env: RelayFixture, task: AgentTask): Promise<void> {
  await page.goto(`${env.url}/task?repo=${encodeURIComponent(task.repoId)}&id=${encodeURIComponent(task.id)}`);
  await expect(page.getByTestId('task-screen')).toBeVisible();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
}

function write(task: AgentTask, rel: string, data: string | Buffer): void {
  const file = path.join(task.worktree, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, data);
}

/** Width and height from a PNG's IHDR. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

let agent: Agent | undefined;
test.afterEach(async () => { await agent?.close(); agent = undefined; });

test('ARTUI-1 ARTUI-2 ARTIFACT-1 ARTIFACT-3: an agent\'s image and text artifacts show on the task screen and open through the signed read', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'T-41', 'Screenshots for the review');
  // A real screenshot is the image the agent emits (the phone's own Inbox).
  const shot = await page.screenshot();
  write(task, 'shots/inbox.png', shot);
  write(task, 'reports/test.log', `PASS src/a.test.ts\n${HOSTILE}\n<b>not bold</b>\n`);
  write(task, 'reports/plan.md', `# Plan\n\n- first **step**\n- ${HOSTILE}\n\n[bad](javascript:alert(1)) [good](https://example.com)\n`);
  agent = await startAgent(relayEnv, task.worktree);

  // Emitted before the screen opens: read with the timeline.
  const log = await agent.call('emit_artifact', { path: 'reports/test.log', summary: 'the unit test run' });
  expect(log.isError, textOf(log)).toBeFalsy();
  const plan = await agent.call('emit_artifact', { path: 'reports/plan.md', title: HOSTILE });
  expect(plan.isError, textOf(plan)).toBeFalsy();
  await openTaskScreen(page, relayEnv, task);
  const list = page.getByTestId('artifacts');
  await expect(list.getByTestId('artifact')).toHaveCount(2);

  // Emitted while the screen is open: arrives live, newest first.
  const image = await agent.call('emit_artifact', { path: 'shots/inbox.png', title: 'Inbox on the phone' });
  expect(image.structuredContent).toMatchObject({ kind: 'image', bytes: shot.length });
  await expect(list.getByTestId('artifact')).toHaveCount(3);
  await expect(list.getByTestId('artifact-name')).toHaveText(['Inbox on the phone', HOSTILE, 'test.log']);
  await expect(list.getByTestId('artifact-kind')).toHaveText(['Image', 'Markdown', 'Text']);
  const logBytes = readFileSync(path.join(task.worktree, 'reports/test.log')).length;
  await expect(list.getByTestId('artifact-size')).toHaveText([`${(shot.length / 1024).toFixed(shot.length < 10 * 1024 ? 1 : 0)} KB`, /bytes$/, `${logBytes} bytes`]);
  await expect(page.getByRole('heading', { name: 'Artifacts · 3 files' })).toBeVisible();

  // Every file is fetched only with a token the authenticated read granted.
  const fetched: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/api/artifacts')) fetched.push(r.url()); });

  const imageRow = list.getByTestId('artifact').filter({ hasText: 'Inbox on the phone' });
  await imageRow.getByTestId('artifact-open').click();
  const img = imageRow.getByTestId('artifact-image');
  await expect(img).toBeVisible();
  expect(await img.getAttribute('src')).toMatch(/^blob:/);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => ({ width: el.naturalWidth, height: el.naturalHeight }))).toEqual(pngSize(shot));

  const logRow = list.getByTestId('artifact').filter({ hasText: 'test.log' });
  await logRow.getByTestId('artifact-open').click();
  await expect(logRow.getByTestId('artifact-text')).toHaveText(`PASS src/a.test.ts\n${HOSTILE}\n<b>not bold</b>\n`);
  await expect(logRow.getByTestId('artifact-text').locator('b, img')).toHaveCount(0);
  await expect(logRow.getByText('the unit test run')).toBeVisible();

  const planRow = list.locator('[data-testid="artifact"][data-kind="markdown"]');
  await planRow.getByTestId('artifact-open').click();
  const md = planRow.getByTestId('artifact-markdown');
  await expect(md.getByRole('heading', { name: 'Plan' })).toBeVisible();
  await expect(md.locator('strong')).toHaveText('step');
  await expect(md).toContainText(HOSTILE);
  await expect(md.locator('img')).toHaveCount(0);
  await expect(md.locator('a')).toHaveCount(1);
  await expect(md.locator('a')).toHaveAttribute('href', 'https://example.com');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  expect(fetched).toHaveLength(3);
  for (const url of fetched) expect(url).toMatch(/\/api\/artifacts\?t=[A-Za-z0-9_-]{43}$/);
  // The granted URL alone, without the read that granted it, is refused once guessed.
  expect((await fetch(`${relayEnv.url}/api/artifacts?t=${'A'.repeat(43)}`)).status).toBe(401);

  // Hide closes the viewer and lets go of the blob.
  await imageRow.getByTestId('artifact-close').click();
  await expect(imageRow.getByTestId('artifact-image')).toHaveCount(0);
});

test('ARTUI-3 ARTIFACT-2: a file of another kind is offered as a download of its exact bytes; a path outside the worktree is refused at emit time', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'T-42', 'Build output');
  const bytes = Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 60, 115, 99, 114, 105, 112, 116, 62]);
  write(task, 'build/out.bin', bytes);
  agent = await startAgent(relayEnv, task.worktree);
  await openTaskScreen(page, relayEnv, task);

  for (const outside of ['../repo/README.md', path.join(relayEnv.repo, 'README.md'), '/etc/passwd']) {
    const refused = await agent.call('emit_artifact', { path: outside });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^E_BAD_PATH/);
  }
  expect(relayEnv.events().filter((e) => e.event === 'artifact_emitted')).toEqual([]);

  const emitted = await agent.call('emit_artifact', { path: 'build/out.bin', kind: 'file' });
  expect(emitted.isError, textOf(emitted)).toBeFalsy();
  const row = page.getByTestId('artifact');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('artifact-kind')).toHaveText('File');
  await row.getByTestId('artifact-open').click();
  const link = row.getByTestId('artifact-download');
  await expect(link).toHaveAttribute('href', /^blob:/);
  await expect(link).toHaveAttribute('download', 'out.bin');
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('out.bin');
  expect(readFileSync((await download.path())!)).toEqual(bytes);

  // The file changed after it was emitted: opening it says so instead of showing other bytes.
  write(task, 'build/out.bin', Buffer.concat([bytes, Buffer.from('!')]));
  await row.getByTestId('artifact-close').click();
  await row.getByTestId('artifact-open').click();
  await expect(row.getByTestId('artifact-error')).toContainText('changed since it was emitted');
});

test('ARTUI-1 UX-10: at 200 % text a long unbroken name, path and line wrap or scroll inside their box; controls stay 44 px; nothing scrolls sideways', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'T-45', 'Long names');
  const long = `${'very-long-file-name-without-any-break-'.repeat(4)}end.log`;
  write(task, `reports/${long}`, `${'x'.repeat(2000)}\nsecond line\n`);
  agent = await startAgent(relayEnv, task.worktree);
  const emitted = await agent.call('emit_artifact', { path: `reports/${long}`, title: `${'Unbroken'.repeat(24)}` });
  expect(emitted.isError, textOf(emitted)).toBeFalsy();
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => { document.documentElement.style.fontSize = '200%'; });
  });
  await openTaskScreen(page, relayEnv, task);
  const row = page.getByTestId('artifact');
  await row.getByTestId('artifact-open').click();
  await expect(row.getByTestId('artifact-text')).toContainText('second line');
  const problems = await page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('[data-testid="artifacts"] button, [data-testid="artifacts"] a[href]')) {
      const box = el.getBoundingClientRect();
      if (box.height < 44) out.push(`${el.textContent?.trim()} is ${box.height.toFixed(0)} px tall`);
    }
    if (document.documentElement.scrollWidth > innerWidth + 1) out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${innerWidth}`);
    const pre = document.querySelector<HTMLElement>('[data-testid="artifact-text"]')!;
    if (pre.scrollWidth <= pre.clientWidth) out.push('the long line does not scroll inside its box');
    return out;
  });
  expect(problems).toEqual([]);
});
