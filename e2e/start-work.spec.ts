// Starting work from the phone against a real relay and real git (UX-3..UX-6): a New
// task sheet writes a packet the bus parses; Run agent starts the REAL Claude Code
// CLI (claude adapter) against the Messages API stand-in, its output streams onto the
// task screen, and Stop ends the job; a commander starts with an agent and a first message.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parsePacket } from '../bus/packet';
import { startMessagesApi, type MessagesApi } from '../test/stand-ins/messages-api';
import { test, expect, gapBetween } from './fixtures';

const ROOT = path.resolve(__dirname, '..');
const CLAUDE_ENV = ['HOME', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY', 'DISABLE_TELEMETRY', 'DISABLE_AUTOUPDATER', 'DISABLE_ERROR_REPORTING',
  'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC', 'CLAUDE_CODE_MAX_RETRIES', 'COMMANDR_CLAUDE_BIN', 'COMMANDR_AGENT_ADAPTER', 'FAKE_ADAPTER_HOME'] as const;
const saved = Object.fromEntries(CLAUDE_ENV.map((k) => [k, process.env[k]]));
let api: MessagesApi | null = null;
let home: string | null = null;

test.afterEach(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await api?.close();
  api = null;
  if (home) rmSync(home, { recursive: true, force: true });
  home = null;
});

test('UX-3, UX-11: New task writes a packet into the repo\'s inbox that the bus parses, and opens it', async ({ paired: page, relayEnv }) => {
  await page.getByTestId('new-task').click();
  const sheet = page.getByTestId('new-task-sheet');
  await expect(sheet).toBeVisible();
  await expect(page.getByTestId('new-task-id')).toHaveValue('T-1');
  await expect(page.getByTestId('new-task-create')).toBeDisabled();
  await page.getByTestId('new-task-title').fill('Parse dates in the CSV import');
  await page.getByTestId('new-task-scope').fill('src/import/**');
  await page.getByTestId('new-task-context').fill('Dates arrive as "DD/MM/YYYY"; today they are read as text.');
  await page.getByTestId('new-task-acceptance').fill('dates parse\nbad dates are reported with their line');
  await page.getByTestId('new-task-create').click();
  await expect(page).toHaveURL(/\/task\?repo=.*&id=T-1$/);
  await expect(page.getByTestId('task-stage')).toHaveText('Inbox');
  const text = readFileSync(path.join(relayEnv.bus, 'inbox', 'T-1.md'), 'utf8');
  const parsed = await parsePacket(text);
  expect(parsed).toMatchObject({ ok: true, front: { id: 'T-1', type: 'implementation', scope: 'src/import/**' }, missingSections: [] });
  expect(text).toContain('- bad dates are reported with their line\n');
  // The same id again is caught before sending.
  await page.getByTestId('nav-inbox').click();
  await page.getByTestId('new-task').click();
  await page.getByTestId('new-task-id').fill('T-1');
  await expect(page.getByTestId('new-task-create')).toBeDisabled();
  await expect(page.getByTestId('new-task-sheet')).toContainText('already has a task with this id');
});

test('UX-4, UX-5, UX-11: Run agent starts Claude Code on the task; its output shows live on the task screen; Stop ends the job', async ({ paired: page, relayEnv }) => {
  api = await startMessagesApi({ apiKey: 'sk-test' });
  home = mkdtempSync(path.join(tmpdir(), 'commandr-claude-home-'));
  let toolTurns = 0;
  api.setReply((request) => {
    if (!Array.isArray(request.body?.tools) || request.body.tools.length === 0) return { text: 'side answer' };
    toolTurns += 1;
    if (toolTurns === 1) return { content: [{ type: 'text', text: 'Looking at the CSV importer first.' }, { type: 'tool_use', name: 'Bash', input: { command: 'echo inspecting' } }] };
    return { text: 'never sent', delayMs: 120_000 };
  });
  Object.assign(process.env, {
    HOME: home, ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'sk-test', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_MAX_RETRIES: '0',
    COMMANDR_CLAUDE_BIN: path.join(ROOT, 'node_modules', '.bin', 'claude'), COMMANDR_AGENT_ADAPTER: 'opencode',
  });
  relayEnv.addPacket('R-1', 'Run me');
  await page.getByTestId('task-card').filter({ hasText: 'R-1' }).click();
  await page.getByTestId('run-agent').click();
  await page.getByTestId('agent-claude').check();
  await page.getByTestId('intent-work').check();
  await page.getByTestId('run-agent-start').click();
  const job = page.getByTestId('job');
  await expect(job).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('job-output')).toContainText(/SESSION: [0-9a-f-]{36}/, { timeout: 30_000 });
  await expect(page.getByTestId('job-output')).toContainText('Looking at the CSV importer first.', { timeout: 30_000 });
  await expect(job).toContainText('Claude Code');
  await page.getByTestId('job-stop').click();
  await expect(job).toHaveAttribute('data-status', 'failed');
  await expect(page.getByTestId('job-status')).toHaveText('Stopped');
  await expect(page.getByTestId('agent-notice')).toContainText('Stopped');
  expect(relayEnv.events().filter((e) => e.event === 'task_failed' && e.task === 'R-1')).toEqual([expect.objectContaining({ reason: 'stopped by the relay' })]);
  expect(api.messageRequests().length).toBeGreaterThan(0);
});

test('UX-6: a commander starts with a chosen agent and a first message, which its first turn answers', async ({ paired: page, relayEnv }) => {
  cpSync(path.join(ROOT, 'test', 'stand-ins', 'fake-adapter'), path.join(relayEnv.relay.dataDir, 'adapters', 'fake'), { recursive: true });
  process.env.FAKE_ADAPTER_HOME = relayEnv.fakeAdapterHome; // outside the data dir, which a sandboxed run sees empty
  await page.getByTestId('nav-commanders').click();
  await page.getByTestId('cmdr-new').click();
  await page.getByTestId('cmdr-name').fill('Release notes');
  // The relay's selected agent (here the local stand-in adapter); Claude Code and OpenCode are the other choices.
  process.env.COMMANDR_AGENT_ADAPTER = 'fake';
  await expect(page.getByTestId('cmdr-agent').locator('option')).toHaveText(['The relay’s default', 'Claude Code', 'OpenCode']);
  await page.getByTestId('cmdr-agent').selectOption({ value: '' });
  await page.getByTestId('cmdr-first-message').fill('Draft the notes for 1.2.');
  await page.getByTestId('cmdr-start').click();
  await expect(page).toHaveURL(/\/commander\?id=c-/);
  await expect(page.getByTestId('cmdr-output')).toContainText('Draft the notes for 1.2.');
  await expect(page.getByTestId('commander')).toContainText('fake');
});

test('UX-10: in the New task sheet hold-to-talk keeps its gap to the Context box above it and to the next field\'s label below it', async ({ paired: page }) => {
  await page.getByTestId('new-task').click();
  await expect(page.getByTestId('new-task-sheet')).toBeVisible();
  const talk = page.getByTestId('new-task-sheet').getByTestId('voice-talk');
  await expect(talk).toBeVisible(); // this Chromium has Web Speech: the button is there
  expect(await gapBetween(page.getByTestId('new-task-context'), talk)).toBeGreaterThanOrEqual(4);
  expect(await gapBetween(talk, page.locator('label[for="nt-acceptance"]'))).toBeGreaterThanOrEqual(8);
});
