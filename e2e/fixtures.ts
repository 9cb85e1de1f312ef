// The e2e fixtures: a REAL relay (createRelay, port 0, temp data dir) watching a temp
// git repo made bus-ready by `commandr init`'s code (the bin tools run in the specs), and a browser paired through the
// real Pair screen with a code from relay/devices. Specs select by data-testid only.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { createRelay, type Relay } from '../relay/server';
import { createPairingCode } from '../relay/devices/pairing';
import { initCommandRepo } from '../cli/init-repo';

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin');

export interface RelayFixture {
  relay: Relay;
  url: string;
  /** The watched repo (main checkout) and its bus. */
  repo: string;
  bus: string;
  /** Runs a real bin tool in the repo. */
  tool(name: string, args?: string[]): string;
  /** Adds an inbox packet (committed like a person would). */
  addPacket(id: string, title: string): void;
  /** Every line of .agents/events.jsonl, parsed. */
  events(): { event: string; task?: string; [k: string]: unknown }[];
  /** Annotation files written for a task. */
  annotationFiles(task: string): string[];
  pairingCode(): string;
  /** The built app this relay serves. */
  appDir: string;
  /** The demo repo's bus (when the `demo` option is on). */
  demoBus: string;
  /**
   * Where the stand-in agent (test/stand-ins/fake-adapter) keeps its sessions (FAKE_ADAPTER_HOME):
   * beside the relay's data dir, never in it — a job or commander turn sees the data dir as an
   * empty tmpfs (SANDBOX-1), so state kept there would vanish between turns.
   */
  fakeAdapterHome: string;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'pipe' });
}

export const test = base.extend<{ demo: boolean; copyApp: boolean; sandbox: boolean; relayEnv: RelayFixture; paired: Page }>({
  /** Serve the relay's demo workspace (a task waiting for approval, a council verdict…) instead of the temp repo. */
  demo: [false, { option: true }],
  /** Serve a private copy of out/ (for specs that change the built app, e.g. a new worker). */
  copyApp: [false, { option: true }],
  /** Run agents in the OS sandbox; false is the relay's `--no-sandbox` (SANDBOX-WARN-1). */
  sandbox: [true, { option: true }],

  relayEnv: async ({ demo, copyApp, sandbox }, use) => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'commandr-e2e-'));
    const repo = path.join(tmp, 'repo');
    const registryFile = path.join(tmp, 'agents-repos');
    const env = { ...process.env, AGENTS_INDEX_REPOS: registryFile, HOME: tmp, GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.com', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.com' };
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(repo, 'README.md'), '# e2e repo\n');
    git(repo, 'add', '.');
    git(repo, '-c', 'user.name=e2e', '-c', 'user.email=e2e@example.com', 'commit', '-q', '-m', 'initial');
    const tool = (name: string, args: string[] = []) => execFileSync(path.join(BIN, name), args, { cwd: repo, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    // `commandr init`'s own code, in this process (cli/init-repo.ts): the bin's node start was a fifth of a test's set-up.
    initCommandRepo(repo, { binDir: BIN, registryFile, dataDir: path.join(tmp, '.commandr'), sandbox: true });
    const bus = path.join(repo, '.agents');
    const appDir = copyApp ? path.join(tmp, 'app') : path.join(ROOT, 'out');
    if (copyApp) cpSync(path.join(ROOT, 'out'), appDir, { recursive: true });
    const relay = await createRelay({ port: 0, host: '127.0.0.1', dataDir: path.join(tmp, 'data'), repos: demo ? [] : [repo], registryFile: demo ? path.join(tmp, 'no-registry') : registryFile, demo, appDir, sandbox });
    await use({
      relay, url: relay.url, repo, bus, tool, appDir,
      addPacket(id, title) {
        const text = `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# ${title}\n\n## Context\ne2e\n\n## Acceptance criteria\n- works\n\n## Files to touch\n- src/x.js\n\n## Do not touch\n- .agents/\n`;
        writeFileSync(path.join(bus, 'inbox', `${id}.md`), text);
      },
      events: () => readFileSync(path.join(bus, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)),
      annotationFiles: (task) => {
        try {
          return readdirSync(path.join(bus, 'annotations', task));
        } catch {
          return [];
        }
      },
      pairingCode: () => createPairingCode(relay.dataDir).code,
      demoBus: path.join(relay.dataDir, 'demo', 'commandr-demo', '.agents'),
      fakeAdapterHome: path.join(tmp, 'fake-adapter-home'),
    });
    await relay.close().catch(() => undefined); // a spec may have closed it already
    rmSync(tmp, { recursive: true, force: true });
  },

  paired: async ({ page, relayEnv }, use) => {
    await pairThroughScreen(page, relayEnv, 'E2E Phone');
    await use(page);
  },
});

/** Opens the pairing link as `commandr pair` shows it, names the device and pairs. */
export async function pairThroughScreen(page: Page, env: RelayFixture, name: string): Promise<void> {
  await page.goto(`${env.url}/pair#code=${env.pairingCode()}`);
  await page.getByTestId('pair-name').fill(name);
  await page.getByTestId('pair-submit').click();
  await expect(page).toHaveURL(`${env.url}/`);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
}

/** The app's saved state as the page holds it in IndexedDB (`snapshot` / `state`), or undefined. */
export function savedState(page: Page): Promise<{ repos?: Record<string, unknown>; tasks?: Record<string, Record<string, unknown>> } | undefined> {
  return page.evaluate(async () => {
    const open = indexedDB.open('commandr');
    const db: IDBDatabase = await new Promise((resolve, reject) => { open.onsuccess = () => resolve(open.result); open.onerror = () => reject(open.error); });
    try {
      return await new Promise((resolve, reject) => {
        const get = db.transaction('snapshot').objectStore('snapshot').get('state');
        get.onsuccess = () => resolve(get.result);
        get.onerror = () => reject(get.error);
      });
    } finally {
      db.close();
    }
  });
}

/** Waits until the service worker is activated and controls the page (reloads once if needed). */
export async function controlledByWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    const worker = reg.active!;
    if (worker.state !== 'activated') await new Promise<void>((resolve) => worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()));
  });
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

/** The vertical space between the bottom of `upper` and the top of `lower`, in CSS pixels (negative: they overlap). */
export async function gapBetween(upper: Locator, lower: Locator): Promise<number> {
  const a = (await upper.boundingBox())!;
  const b = (await lower.boundingBox())!;
  return b.y - (a.y + a.height);
}

/**
 * UX-10's composer at rest, the commander's and the question card's alike: an empty box one
 * line tall, a gap below it, then hold-to-talk and Send on one line without touching.
 * Returns the box's empty height, for the checks that type into it.
 */
export async function expectComposerAtRest(box: Locator, talk: Locator, send: Locator): Promise<number> {
  const [field, hold, sendBox] = await Promise.all([box, talk, send].map(async (l) => (await l.boundingBox())!));
  expect(hold.y, 'hold-to-talk and Send on one line').toBe(sendBox.y);
  expect(sendBox.x - (hold.x + hold.width), 'Send does not touch hold-to-talk').toBeGreaterThanOrEqual(4);
  expect(await gapBetween(box, talk), 'a gap between the box and hold-to-talk').toBeGreaterThanOrEqual(4);
  expect(field.height, 'an empty box is one line').toBeLessThan(60);
  return field.height;
}

export { expect };
