// `npx tsx scripts/screenshots.ts`: regenerates every screen of the app under
// docs/screenshots/ — `<screen>-light.png` and `<screen>-dark.png` on the phone
// profile (Pixel 7), plus `<screen>-200-light.png` at 200 % text — against a real
// relay serving its demo workspace. Needs the built app: node scripts/build-app.mjs.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { devices, type Page } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { COMMITTED_TASK, FAILED_RUN_TASK, MERGED_TASK, REVIEW_TASK, RUNNING_TASK } from '../relay/demo/packets';
import type { Relay } from '../relay/server';
import { startAppSession } from './app-session';
import { startMember, type Member } from './fleet-member';

const OUT = path.resolve(__dirname, '..', 'docs', 'screenshots');
const BIG_TEXT = ':root { font-size: 200% !important; }';

interface Screen {
  name: string;
  /** Brings the page to this screen (from anywhere). */
  open(page: Page, url: string, relay: Relay): Promise<void>;
}

async function firstApprovalTask(page: Page, url: string): Promise<string> {
  await page.goto(`${url}/`);
  const card = page.getByTestId('group-approval').getByTestId('task-card').first();
  await card.waitFor();
  return `${url}/task?repo=${await card.getAttribute('data-repo')}&id=${await card.getAttribute('data-task')}`;
}

async function firstInboxTask(page: Page, url: string): Promise<string> {
  await page.goto(`${url}/`);
  const card = page.getByTestId('group-inbox').getByTestId('task-card').first();
  await card.waitFor();
  return `${url}/task?repo=${await card.getAttribute('data-repo')}&id=${await card.getAttribute('data-task')}`;
}

/** The demo task `id`'s screen (the repo id read from the Inbox: the demo's path makes it). */
async function demoTask(page: Page, url: string, id: string): Promise<string> {
  await page.goto(`${url}/`);
  const card = page.getByTestId('task-card').first();
  await card.waitFor();
  return `${url}/task?repo=${await card.getAttribute('data-repo')}&id=${id}`;
}

/** Scrolls `testId` to the top, clear of the sticky header. */
async function scrollToTop(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => scrollBy(0, -70));
}

/** A task screen once its stage and its change are on screen (no loading line left). */
async function openTaskAt(page: Page, url: string, id: string, stage: string, changes?: string): Promise<void> {
  await page.goto(await demoTask(page, url, id));
  await page.locator(`[data-testid="task-stage"][data-stage="${stage}"]`).waitFor({ timeout: 20_000 });
  if (changes) await page.getByTestId(changes).waitFor({ timeout: 20_000 });
  await page.getByTestId('changes').waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-testid="diff-loading"]'), undefined, { timeout: 20_000 });
}

// A task's later life in the demo (DEMO-STATES-n): running, committed, merged, a failed run.
const TASK_STATES: Screen[] = [
  {
    name: 'inbox-later',
    open: async (page, url) => {
      await page.goto(`${url}/`);
      await page.getByTestId('group-in-progress').getByTestId('task-card').first().waitFor();
      await scrollToTop(page, 'group-in-progress');
    },
  },
  { name: 'task-running', open: (page, url) => openTaskAt(page, url, RUNNING_TASK, 'running') },
  { name: 'task-committed', open: (page, url) => openTaskAt(page, url, COMMITTED_TASK, 'committed', 'diff-committed') },
  {
    name: 'task-committed-diff',
    open: async (page, url) => {
      await openTaskAt(page, url, COMMITTED_TASK, 'committed', 'diff-committed');
      await scrollToTop(page, 'diff-committed');
    },
  },
  { name: 'task-merged', open: (page, url) => openTaskAt(page, url, MERGED_TASK, 'merged', 'diff-committed') },
  {
    name: 'task-failed',
    open: async (page, url) => {
      await openTaskAt(page, url, FAILED_RUN_TASK, 'failed');
      await page.getByTestId('job-reason').waitFor({ timeout: 20_000 }); // Details stay folded
    },
  },
];

const SCREENS: Screen[] = [
  { name: 'inbox', open: async (page, url) => { await page.goto(`${url}/`); await page.getByTestId('task-card').first().waitFor(); } },
  { name: 'new-task', open: async (page, url) => { await page.goto(`${url}/`); await page.getByTestId('new-task').click(); await page.getByTestId('new-task-sheet').waitFor(); } },
  { name: 'task', open: async (page, url) => { await page.goto(await firstApprovalTask(page, url)); await page.getByTestId('diff-digest').waitFor({ timeout: 20_000 }); } },
  {
    name: 'task-diff',
    open: async (page, url) => {
      await page.goto(await firstApprovalTask(page, url));
      const digest = page.getByTestId('diff-digest');
      await digest.waitFor({ timeout: 20_000 });
      await digest.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.evaluate(() => scrollBy(0, -70)); // clear of the sticky header
    },
  },
  {
    name: 'task-council',
    open: async (page, url) => {
      await page.goto(await firstApprovalTask(page, url));
      const verdict = page.getByTestId('council-verdict');
      await verdict.waitFor({ timeout: 20_000 });
      // The screen as a person reads it: the change loaded, so Approve is on.
      await page.getByTestId('diff-digest').waitFor({ timeout: 20_000 });
      await verdict.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    },
  },
  ...TASK_STATES,
  { name: 'run-agent', open: async (page, url) => { await page.goto(await firstInboxTask(page, url)); await page.getByTestId('run-agent').click(); await page.getByTestId('run-agent-sheet').waitFor(); } },
  { name: 'commanders', open: async (page, url) => { await page.goto(`${url}/commanders`); await page.getByTestId('cmdr-card').first().waitFor({ timeout: 10_000 }).catch(() => undefined); } },
  { name: 'start-commander', open: async (page, url) => { await page.goto(`${url}/commanders`); await page.getByTestId('cmdr-new').click(); await page.getByTestId('start-sheet').waitFor(); } },
  {
    name: 'commander',
    open: async (page, url) => {
      await page.goto(`${url}/commanders`);
      await page.getByTestId('cmdr-card').first().click();
      await page.getByTestId('commander').waitFor();
    },
  },
  { name: 'settings', open: async (page, url) => { await page.goto(`${url}/settings`); await page.getByTestId('this-device-name').waitFor(); } },
  { name: 'pair-already-paired', open: async (page, url) => { await page.goto(`${url}/pair`); await page.getByTestId('pair-already').waitFor(); } },
  // A fleet (FLEETUI-n): a member online and one that went offline, then their tasks and the Machines list.
  {
    name: 'fleet-inbox',
    open: async (page, url, relay) => {
      await joinDemoFleet(page, relay);
      await page.goto(`${url}/`);
      await page.getByTestId('machine-offline').first().waitFor();
      await page.getByTestId('group-inbox').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.evaluate(() => scrollBy(0, -70)); // clear of the sticky header
    },
  },
  {
    name: 'machines',
    open: async (page, url, relay) => {
      await joinDemoFleet(page, relay);
      await page.goto(`${url}/settings`);
      const list = page.getByTestId('machines');
      await list.getByTestId('machine-row').nth(1).waitFor();
      await list.evaluate((el) => el.parentElement!.scrollIntoView({ block: 'start' }));
      await page.evaluate(() => scrollBy(0, -70));
    },
  },
  {
    name: 'fleet-start-commander',
    open: async (page, url, relay) => {
      await joinDemoFleet(page, relay);
      await page.goto(`${url}/commanders`);
      await page.getByTestId('cmdr-new').click();
      await page.getByTestId('cmdr-machine').selectOption({ label: 'laptop' });
      await page.getByTestId('cmdr-name').fill('API keeper');
      await page.getByTestId('cmdr-path').fill('/home/me/code/api');
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    },
  },
  // Last: they leave an artifact and a pending question behind in the demo workspace.
  {
    name: 'task-artifacts',
    open: async (page, url, relay) => {
      await emitDemoArtifacts(page, relay);
      await page.goto(await firstApprovalTask(page, url));
      const list = page.getByTestId('artifacts');
      await list.getByTestId('artifact').nth(1).waitFor({ timeout: 20_000 });
      await list.getByTestId('artifact').first().getByTestId('artifact-open').click();
      await list.getByTestId('artifact-image').waitFor();
      await list.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.evaluate(() => scrollBy(0, -70)); // clear of the sticky header
    },
  },
  {
    name: 'task-artifact-report',
    open: async (page, url) => {
      await page.goto(await firstApprovalTask(page, url));
      const row = page.locator('[data-testid="artifact"][data-kind="markdown"]');
      await row.getByTestId('artifact-open').click({ timeout: 20_000 });
      await row.getByTestId('artifact-markdown').waitFor();
      await row.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.evaluate(() => scrollBy(0, -70));
    },
  },
  {
    name: 'question',
    open: async (page, url, relay) => {
      askDemoQuestion(relay);
      await page.goto(`${url}/`);
      await page.getByTestId('question-card').waitFor({ timeout: 20_000 });
    },
  },
];

const fleets = new Map<Relay, Member[]>();

/** Joins two member machines to the demo home once per session: `laptop` stays online, `buildbox` goes offline. */
async function joinDemoFleet(page: Page, relay: Relay): Promise<void> {
  if (fleets.has(relay)) return;
  const members: Member[] = [];
  fleets.set(relay, members);
  members.push(await startMember(relay, 'laptop', 'api', [['API-7', 'Add a health endpoint'], ['API-8', 'Rate-limit the login route']]));
  members.push(await startMember(relay, 'buildbox', 'web', [['WEB-3', 'Cache the landing page']]));
  await page.goto(`${relay.url}/`);
  await page.locator('[data-task="WEB-3"]').waitFor({ timeout: 20_000 });
  await page.locator('[data-task="API-8"]').waitFor({ timeout: 20_000 });
  await members[1]!.stop();
}

/** The real `commandr mcp`, as the demo task's agent, emits a screenshot and a report (ARTUI-1). */
async function emitDemoArtifacts(page: Page, relay: Relay): Promise<void> {
  const worktree = path.join(relay.dataDir, 'demo', 'worktrees', REVIEW_TASK);
  mkdirSync(path.join(worktree, 'shots'), { recursive: true });
  await page.goto(`${relay.url}/`);
  await page.getByTestId('task-card').first().waitFor();
  writeFileSync(path.join(worktree, 'shots', 'inbox.png'), await page.screenshot());
  writeFileSync(path.join(worktree, 'REPORT.md'), '# Greeting\n\n- `greet(name)` says hello by name\n- tests: **3 passed**\n');
  const client = new Client({ name: 'scripts/screenshots.ts', version: '0' });
  await client.connect(new StdioClientTransport({
    command: process.execPath, args: [path.resolve(__dirname, '..', 'bin', 'commandr'), 'mcp'], cwd: worktree, stderr: 'ignore',
    env: { PATH: process.env.PATH ?? '', HOME: relay.dataDir, COMMANDR_HOME: relay.dataDir, COMMANDR_URL: relay.url, GIT_CONFIG_NOSYSTEM: '1' },
  }));
  try {
    for (const args of [{ path: 'REPORT.md', summary: 'What changed and how it was tested' }, { path: 'shots/inbox.png', title: 'Inbox after the change' }]) {
      const result = await client.callTool({ name: 'emit_artifact', arguments: args });
      if (result.isError) throw new Error(`emit_artifact ${args.path}: ${JSON.stringify(result.content)}`);
    }
  } finally {
    await client.close();
  }
}

/** A question as `ask` posts it (the relay long-polls until the session closes). */
function askDemoQuestion(relay: Relay): void {
  const token = readFileSync(path.join(relay.dataDir, 'hook-token'), 'utf8').trim();
  const worktree = path.join(relay.dataDir, 'demo', 'worktrees', REVIEW_TASK);
  const body = {
    kind: 'question', key: `q-${randomBytes(10).toString('hex')}`, task: REVIEW_TASK, cwd: worktree, timeoutMs: 600_000,
    question: 'Should the greeting also work without a name?', choices: ['Yes, say "Hello!"', 'No, require a name'],
  };
  void fetch(`${relay.url}/api/questions`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    .catch(() => undefined); // ends when the relay closes
}

async function shoot(scheme: 'light' | 'dark', bigText: boolean): Promise<string[]> {
  const session = await startAppSession({ colorScheme: scheme });
  const { page, relay } = session;
  const written: string[] = [];
  try {
    if (bigText) await page.addInitScript((css) => {
      document.addEventListener('DOMContentLoaded', () => { const s = document.createElement('style'); s.textContent = css; document.head.append(s); });
    }, BIG_TEXT);
    for (const screen of SCREENS.filter((s) => ONLY.length === 0 || ONLY.includes(s.name))) {
      await screen.open(page, relay.url, relay);
      await page.evaluate(() => document.fonts.ready);
      const file = `${screen.name}${bigText ? '-200' : ''}-${scheme}.png`;
      await page.screenshot({ path: path.join(OUT, file), animations: 'disabled' });
      written.push(file);
    }
    // The pair screen is what an unpaired visitor sees: a browser profile that holds no device key.
    if (ONLY.length > 0 && !ONLY.includes('pair')) return written;
    const fresh = await session.browser.newContext({ ...devices['Pixel 7'], serviceWorkers: 'block', colorScheme: scheme });
    const pair = await fresh.newPage();
    await pair.goto(`${relay.url}/pair`);
    await pair.getByTestId('pair-name').waitFor();
    await pair.evaluate(() => document.fonts.ready);
    if (bigText) await pair.addStyleTag({ content: BIG_TEXT });
    const file = `pair${bigText ? '-200' : ''}-${scheme}.png`;
    await pair.screenshot({ path: path.join(OUT, file), animations: 'disabled' });
    written.push(file);
  } finally {
    for (const m of fleets.get(relay) ?? []) await m.close();
    await session.close();
  }
  return written;
}

/** `npx tsx scripts/screenshots.ts task-artifacts question` regenerates only those screens. */
const ONLY = process.argv.slice(2);

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  if (ONLY.length === 0) for (const old of readdirSync(OUT)) if (old.endsWith('.png')) rmSync(path.join(OUT, old));
  const written = [...await shoot('light', false), ...await shoot('dark', false), ...await shoot('light', true)];
  console.log(`${written.length} screenshots written to ${path.relative(process.cwd(), OUT)}/`);
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
