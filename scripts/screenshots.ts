// `npx tsx scripts/screenshots.ts`: regenerates every screen of the app under
// docs/screenshots/ — `<screen>-light.png` and `<screen>-dark.png` on the phone
// profile (Pixel 7), plus `<screen>-200-light.png` at 200 % text — against a real
// relay serving its demo workspace. Needs the built app: node scripts/build-app.mjs.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startAppSession } from './app-session';

const OUT = path.resolve(__dirname, '..', 'docs', 'screenshots');
const BIG_TEXT = ':root { font-size: 200% !important; }';

interface Screen {
  name: string;
  /** Brings the page to this screen (from anywhere). */
  open(page: Page, url: string): Promise<void>;
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
      await verdict.waitFor({ timeout: 20_000 }).catch(() => undefined);
      await verdict.evaluate((el) => el.scrollIntoView({ block: 'center' })).catch(() => undefined);
    },
  },
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
];

async function shoot(scheme: 'light' | 'dark', bigText: boolean): Promise<string[]> {
  const session = await startAppSession({ colorScheme: scheme });
  const { page, relay } = session;
  const written: string[] = [];
  try {
    if (bigText) await page.addInitScript((css) => {
      document.addEventListener('DOMContentLoaded', () => { const s = document.createElement('style'); s.textContent = css; document.head.append(s); });
    }, BIG_TEXT);
    for (const screen of SCREENS) {
      await screen.open(page, relay.url);
      await page.evaluate(() => document.fonts.ready);
      const file = `${screen.name}${bigText ? '-200' : ''}-${scheme}.png`;
      await page.screenshot({ path: path.join(OUT, file), animations: 'disabled' });
      written.push(file);
    }
    // The pair screen is what an unpaired visitor sees: shoot it last, after forgetting the key.
    await session.context.clearCookies();
    const pair = await session.context.newPage();
    if (bigText) await pair.addStyleTag({ content: BIG_TEXT }).catch(() => undefined);
    await pair.goto(`${relay.url}/pair`);
    await pair.getByTestId('pair-name').waitFor();
    if (bigText) await pair.addStyleTag({ content: BIG_TEXT });
    const file = `pair${bigText ? '-200' : ''}-${scheme}.png`;
    await pair.screenshot({ path: path.join(OUT, file), animations: 'disabled' });
    written.push(file);
  } finally {
    await session.close();
  }
  return written;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  for (const old of readdirSync(OUT)) if (old.endsWith('.png')) rmSync(path.join(OUT, old));
  const written = [...await shoot('light', false), ...await shoot('dark', false), ...await shoot('light', true)];
  console.log(`${written.length} screenshots written to ${path.relative(process.cwd(), OUT)}/`);
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
