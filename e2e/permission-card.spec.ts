// What a permission card tells the person (CARD-3), end to end: the real Claude Code
// permission hook (a process, as the CLI runs it) asks the real relay, and the card in
// the phone app shows what the agent says it is doing and why the policy asks, as text
// only — a hostile 100 KB description is neither markup nor unbounded.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test, expect, type RelayFixture } from './fixtures';

const HOOK = path.resolve(__dirname, '..', 'adapters', 'claude', 'hooks', 'permission');
let calls = 0;

/** Runs the permission hook for one Bash call; resolves with the decision it printed. */
function hook(env: RelayFixture, command: string, description: string): Promise<{ permissionDecision?: string; permissionDecisionReason?: string }> {
  const payload = JSON.stringify({
    session_id: 'card-e2e', cwd: env.repo, hook_event_name: 'PreToolUse', tool_name: 'Bash',
    tool_input: { command, description }, tool_use_id: `toolu_card_e2e_${calls++}`,
  });
  const child = spawn(HOOK, [], {
    cwd: env.repo, stdio: ['pipe', 'pipe', 'ignore'],
    env: {
      ...process.env, HOME: path.dirname(env.relay.dataDir), COMMANDR_HOME: env.relay.dataDir, COMMANDR_URL: env.url,
      AGENT_MODE: undefined, COMMANDR_TASK: undefined, COMMANDR_AGENT_ID: undefined,
    },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stdin.end(payload);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve(out.trim() ? JSON.parse(out).hookSpecificOutput : {}));
  });
}

test('CARD-3: the card says what the agent is doing and why the policy asks, from the real hook', async ({ paired: page, relayEnv }) => {
  const answer = hook(relayEnv, 'curl -fsSL https://example.com/setup.sh -o setup.sh', 'Download the setup script to read it first');
  const card = page.getByTestId('permission-card');
  await expect(card.getByTestId('permission-description')).toHaveText('Download the setup script to read it first');
  const why = card.getByTestId('permission-why');
  await expect(why).toHaveText('Why you are asked: curl reaches the network or another machine — rule ask.commands');
  await expect(why.locator('code')).toHaveText(['curl']);
  await expect(card.getByTestId('permission-description-toggle')).toHaveCount(0);
  await card.getByTestId('permission-deny').click();
  await card.getByTestId('permission-deny-confirm').click();
  expect(await answer).toMatchObject({ permissionDecision: 'deny' });
});

test('CARD-2, CARD-3: a hostile 100 KB description is shown as plain text, bounded, folded, and leaves the buttons in reach', async ({ paired: page, relayEnv }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const head = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold</b>';
  const hostile = `${head}\u202e${'<iframe src="javascript:parent.__pwned=3"></iframe>'.repeat(2200)}`;
  expect(hostile.length).toBeGreaterThan(100_000);
  const answer = hook(relayEnv, 'curl https://example.com/hostile', hostile);
  const card = page.getByTestId('permission-card');
  const said = card.getByTestId('permission-description');
  await expect(said).toHaveAttribute('data-folded', 'true');

  const text = (await said.textContent()) ?? '';
  expect(text.startsWith(`${head} <iframe src="javascript:parent.__pwned=3"></iframe>`)).toBe(true);
  expect(text.length).toBeLessThanOrEqual(500);
  expect(text.endsWith('…')).toBe(true);
  await expect(card.locator('script, img, b, iframe')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  // Folded to three lines: the card stays narrower than the screen and Deny stays close below.
  const viewport = page.viewportSize()!;
  const folded = (await said.boundingBox())!;
  const lineHeight = await said.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  expect(folded.height).toBeLessThanOrEqual(lineHeight * 3 + 1);
  expect((await card.boundingBox())!.width).toBeLessThanOrEqual(viewport.width);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const deny = card.getByTestId('permission-deny');
  expect((await deny.boundingBox())!.y - (folded.y + folded.height)).toBeLessThan(viewport.height / 2);

  // Opened, the whole (bounded) text shows, still as text.
  await card.getByTestId('permission-description-toggle').click();
  await expect(said).not.toHaveAttribute('data-folded', 'true');
  expect((await said.boundingBox())!.height).toBeGreaterThan(folded.height);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expect(card.locator('script, img, b, iframe')).toHaveCount(0);

  await deny.click();
  await card.getByTestId('permission-deny-confirm').click();
  expect(await answer).toMatchObject({ permissionDecision: 'deny' });
  expect(errors).toEqual([]);
});
