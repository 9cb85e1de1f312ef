// Commanders from the phone against the real relay and the stand-in agent adapter
// (test/stand-ins/fake-adapter, installed as the relay's local adapter "fake").
import { cpSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect, gapBetween, expectComposerAtRest } from './fixtures';

const FAKE_ADAPTER = path.resolve(__dirname, '..', 'test', 'stand-ins', 'fake-adapter');
const saved = process.env.COMMANDR_AGENT_ADAPTER;

test.beforeEach(({ relayEnv }) => {
  cpSync(FAKE_ADAPTER, path.join(relayEnv.relay.dataDir, 'adapters', 'fake'), { recursive: true });
  process.env.COMMANDR_AGENT_ADAPTER = 'fake';
  process.env.FAKE_ADAPTER_HOME = relayEnv.fakeAdapterHome; // outside the data dir, which a sandboxed run sees empty
});
test.afterEach(() => {
  if (saved === undefined) delete process.env.COMMANDR_AGENT_ADAPTER;
  else process.env.COMMANDR_AGENT_ADAPTER = saved;
  delete process.env.FAKE_ADAPTER_HOME;
});

/** CHAT-4: `entry` is on screen and not under the pinned composer. */
async function expectAboveComposer(page: Page, entry: Locator): Promise<void> {
  await expect(entry).toBeInViewport();
  await expect.poll(async () => {
    const box = (await entry.boundingBox())!;
    const dock = (await page.locator('.cmdr-composer').boundingBox())!;
    return box.y + box.height - dock.y;
  }, { message: 'the newest entry ends above the composer' }).toBeLessThanOrEqual(0);
}

/** Opens the header's ⋯ menu (CHAT-5). */
async function openMenu(page: Page): Promise<void> {
  await page.getByTestId('cmdr-menu').click();
  await expect(page.getByTestId('cmdr-menu-list')).toBeVisible();
}

/** Starts a commander named `name` from the Commanders tab and waits for its screen. */
async function startCommander(page: Page, name: string): Promise<void> {
  await page.getByTestId('nav-commanders').click();
  await page.getByTestId('cmdr-new').click();
  await page.getByTestId('cmdr-name').fill(name);
  await page.getByTestId('cmdr-start').click();
  await expect(page).toHaveURL(/\/commander\?id=c-/);
}

test('CMDR-UI-2: start a commander on an allowed root; CMDR-UI-3: exchange a message with streamed output; CMDR-UI-4: the waiting state shows', async ({ paired: page, relayEnv }) => {
  await page.getByTestId('nav-commanders').click();
  await expect(page.getByTestId('commanders')).toBeVisible();
  await page.getByTestId('cmdr-new').click();
  await page.getByTestId('cmdr-name').fill('Docs keeper');
  await expect(page.getByTestId('ref-root')).toHaveValue(relayEnv.repo);
  // The folder's own name comes first: a phone's select cuts a long path off before it.
  await expect(page.getByTestId('ref-root').locator('option').first()).toHaveText(`${path.basename(relayEnv.repo)} — ${relayEnv.repo}`);
  await page.getByTestId('cmdr-start').click();
  await expect(page).toHaveURL(/\/commander\?id=c-/);
  await expect(page.getByTestId('cmdr-references').locator('li')).toHaveText(path.basename(relayEnv.repo));
  await expect(page.getByTestId('cmdr-references').locator('li')).toHaveAttribute('title', relayEnv.repo);
  await expect(page.getByTestId('cmdr-status')).toHaveText(/idle|waiting for you/);
  await page.getByTestId('cmdr-message').fill('Please list the docs. FAKE:ask');
  await page.getByTestId('cmdr-send').click();
  await expect(page.getByTestId('chat-person').last()).toHaveText('Please list the docs. FAKE:ask'); // the person's side of the conversation
  await expect(page.getByTestId('chat-commander').last()).toContainText('echo: Please list the docs.');
  await expect(page.getByTestId('cmdr-waiting')).toBeVisible();
  await page.getByTestId('nav-commanders').click();
  await expect(page.getByTestId('cmdr-card')).toHaveAttribute('data-status', 'waiting');
});

test('CMDR-UI-5, CHAT-5: Delete is in the header\'s ⋯ menu; it asks first, then removes the commander from the list', async ({ paired: page }) => {
  await startCommander(page, 'Short lived');
  await openMenu(page);
  await page.getByTestId('cmdr-delete').click();
  await expect(page.getByTestId('delete-sheet')).toBeVisible();
  await page.getByTestId('delete-confirm').click();
  await expect(page).toHaveURL(/\/commanders$/);
  await expect(page.getByTestId('cmdr-card')).toHaveCount(0);
});

test('CMDR-UI-4: a commander whose session is lost needs a new session; the button starts one in the same folder', async ({ paired: page }) => {
  await startCommander(page, 'Forgetful');
  await expect(page.getByTestId('cmdr-status')).toHaveText(/idle|waiting for you/);
  await page.getByTestId('cmdr-message').fill('Remember this. FAKE:lose-session');
  await page.getByTestId('cmdr-send').click();
  await expect(page.getByTestId('chat-commander').last()).toContainText('Remember this.');
  await expect(page.getByTestId('cmdr-status')).toHaveText(/idle|waiting for you/);
  await page.getByTestId('cmdr-message').fill('Still there?');
  await page.getByTestId('cmdr-send').click();
  await expect(page.getByTestId('cmdr-dead')).toBeVisible();
  await expect(page.getByTestId('cmdr-status')).toHaveText('needs a new session');
  await expect(page.getByTestId('cmdr-message')).toHaveCount(0);
  await page.getByTestId('cmdr-replace').click();
  await expect(page.getByTestId('cmdr-status')).toHaveText(/starting|running|idle|waiting for you/);
  await expect(page.getByTestId('cmdr-dead')).toHaveCount(0);
});

test('UX-10: the composer is a chat\'s: the message box named Message, then hold-to-talk and Send side by side; at 200 % text they stack and it keeps most of the screen for the conversation', async ({ paired: page }) => {
  await page.setViewportSize({ width: 412, height: 915 });
  await startCommander(page, 'Spacing');
  const box = page.getByTestId('cmdr-message');
  const talk = page.getByTestId('voice-talk');
  const send = page.getByTestId('cmdr-send');
  await expect(talk).toBeVisible(); // this Chromium has Web Speech: the button is there
  // Its label is for screen readers; the box shows it as its placeholder.
  await expect(page.getByLabel('Message')).toHaveAttribute('data-testid', 'cmdr-message');
  await expect(box).toHaveAttribute('placeholder', 'Message');
  const composer = page.locator('.cmdr-composer');

  await expectComposerAtRest(box, talk, send);
  expect((await composer.boundingBox())!.height / 915).toBeLessThan(0.15);

  await page.evaluate(() => { document.documentElement.style.fontSize = '200%'; });
  const field = (await box.boundingBox())!;
  expect(await gapBetween(talk, send), 'stacked, with their gap').toBeGreaterThanOrEqual(4);
  expect(await gapBetween(box, talk)).toBeGreaterThanOrEqual(4);
  expect((await composer.boundingBox())!.height / 915, 'the composer\'s share of the screen at 200 % text').toBeLessThanOrEqual(0.3);
  // The box grows with what is typed, up to 30 % of the screen, and no further.
  await box.fill('one\ntwo\nthree');
  expect((await box.boundingBox())!.height).toBeGreaterThan(field.height * 2);
  await box.fill(Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n'));
  expect((await box.boundingBox())!.height).toBeLessThanOrEqual(915 * 0.3 + 1);
});

test('CHAT-2: the person\'s messages are bubbles on the right, the commander\'s on the left in the body font, its markdown rendered and its HTML shown as text', async ({ paired: page }) => {
  await startCommander(page, 'Bubbles');
  await expect(page.getByTestId('cmdr-status')).toHaveText(/idle|waiting for you/);
  await page.getByTestId('cmdr-message').fill('Say **bold** and <img src=x onerror="document.title=1"> please');
  await page.getByTestId('cmdr-send').click();
  const reply = page.getByTestId('chat-commander').filter({ hasText: 'echo: Say' });
  await expect(reply).toBeVisible();
  await expect(reply.locator('strong')).toHaveText('bold'); // markdown rendered
  await expect(reply.locator('img')).toHaveCount(0); // raw HTML is text, never an element
  await expect(reply).toContainText('<img src=x');
  const person = page.getByTestId('chat-person').last();
  await expect(person).toContainText('Say **bold** and <img'); // the person's own words, as typed
  const chat = (await page.getByTestId('cmdr-output').boundingBox())!;
  const right = (await person.boundingBox())!;
  const left = (await reply.boundingBox())!;
  expect(Math.abs(right.x + right.width - (chat.x + chat.width)), 'the person\'s bubble ends at the right edge').toBeLessThanOrEqual(2);
  expect(Math.abs(left.x - chat.x), 'the commander\'s bubble starts at the left edge').toBeLessThanOrEqual(2);
  expect(right.x).toBeGreaterThan(left.x);
  const font = await reply.evaluate((el) => getComputedStyle(el).fontFamily);
  expect(font).not.toMatch(/mono/i);
  await expect(page.getByTestId('cmdr-output')).not.toContainText('SESSION:');
});

test.describe('the demo commander', () => {
  test.use({ demo: true });

  test('CHAT-6: the demo commander opens on a short history; CHAT-4: the newest message is on screen; CHAT-3: a tool line folds and opens on tap', async ({ paired: page }, testInfo) => {
    await page.getByTestId('nav-commanders').click();
    await page.getByTestId('cmdr-card').first().click();
    await expect(page).toHaveURL(/\/commander\?id=c-demo/);
    await expect(page.getByTestId('chat-notice').first()).toContainText('A sample conversation');
    // DEMO-7: its header names the script that answers it, not an agent that is not there.
    await expect(page.getByTestId('commander').locator('.task-meta')).toContainText('demo script');
    await expect(page.getByTestId('commander').locator('.task-meta')).not.toContainText('Claude Code');
    await expect(page.getByTestId('chat-person')).toHaveCount(3);
    await expect(page.getByTestId('chat-commander')).toHaveCount(4);
    await expect(page.getByTestId('chat-commander').last()).toContainText('I only answer when you write to me');
    await page.screenshot({ path: testInfo.outputPath('demo-commander.png') });
    await expectAboveComposer(page, page.getByTestId('chat-commander').last());
    await expect(page.getByTestId('cmdr-output')).not.toContainText('SESSION:');

    const tool = page.getByTestId('chat-tool').first();
    await expect(tool.locator('summary')).toHaveText('Ran ls .agents/claimed .agents/done .agents/inbox');
    await expect(tool.getByTestId('chat-tool-detail')).toBeHidden();
    await tool.locator('summary').click();
    await expect(tool.getByTestId('chat-tool-detail')).toBeVisible();
    await expect(tool.getByTestId('chat-tool-detail')).toContainText('demo-4-docs.md');
    await page.screenshot({ path: testInfo.outputPath('demo-commander-tool-open.png') });

    // Delete and Add reference path wait in the header's menu, not on the screen (CHAT-5).
    await expect(page.getByTestId('cmdr-delete')).toHaveCount(0);
    await expect(page.getByTestId('cmdr-add-ref')).toHaveCount(0);
    await page.getByTestId('cmdr-menu').click();
    await expect(page.getByTestId('cmdr-delete')).toBeVisible();
    await expect(page.getByTestId('cmdr-add-ref')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('demo-commander-menu.png') });
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('cmdr-menu-list')).toHaveCount(0);

    // A message to it is answered below the history, and that answer is on screen.
    await page.getByTestId('cmdr-message').fill('What next?');
    await page.getByTestId('cmdr-send').click();
    await expect(page.getByTestId('chat-person').last()).toHaveText('What next?');
    await expect(page.getByTestId('chat-commander').last()).toContainText('This is the demo commander');
    await expectAboveComposer(page, page.getByTestId('chat-commander').last());
  });
});
