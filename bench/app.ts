// `npx tsx bench/app.ts`: JavaScript the phone downloads per route — every script
// response of a fresh load (no service worker, no HTTP cache) in Chromium on the
// phone profile, against a real relay with the demo workspace: bytes actually
// transferred (the relay's precompressed Brotli, COLD-1) and, for comparison, gzip -9
// of the decoded bodies. Target: Inbox ≤ 150 KB transferred (cold).
// Needs the built app: node scripts/build-app.mjs.
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { startAppSession } from '../scripts/app-session';

const INBOX_BUDGET_KB = 150;

async function scriptsOf(page: Page, url: string, ready: string): Promise<{ count: number; raw: number; gzip: number; transferred: number }> {
  const context = page.context();
  const fresh = await context.newPage(); // a new page: nothing already loaded in memory
  const cdp = await context.newCDPSession(fresh);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const bodies: Promise<Buffer | null>[] = [];
  const wire: Promise<number>[] = [];
  fresh.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    wire.push(response.finished().then(() => response.request().sizes()).then((s) => s.responseBodySize).catch(() => 0));
    bodies.push(response.body().then((b) => {
      if (process.env.BENCH_VERBOSE) console.log(`  ${url} ← ${response.url()} ${kb(gzipSync(b).length)} KB gz`);
      return b;
    }).catch(() => null));
  });
  await fresh.goto(url, { waitUntil: 'networkidle' });
  await fresh.getByTestId(ready).first().waitFor();
  const all = (await Promise.all(bodies)).filter((b): b is Buffer => b !== null);
  await fresh.close();
  const transferred = sum(await Promise.all(wire));
  return { count: all.length, raw: sum(all.map((b) => b.length)), gzip: sum(all.map((b) => gzipSync(b, { level: 9 }).length)), transferred };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const kb = (n: number) => (n / 1024).toFixed(1);

async function main(): Promise<void> {
  const session = await startAppSession();
  try {
    const { url } = session.relay;
    const repo = await session.page.getByTestId('task-card').first().getAttribute('data-repo');
    const routes: [string, string, string][] = [
      ['Inbox /', `${url}/`, 'task-card'],
      ['Settings /settings', `${url}/settings`, 'this-device-name'],
      ['Task /task', `${url}/task?repo=${repo}&id=demo-1-greeting`, 'task-screen'],
    ];
    const rows: string[][] = [];
    let inbox = 0;
    for (const [name, href, ready] of routes) {
      const r = await scriptsOf(session.page, href, ready);
      if (name.startsWith('Inbox')) inbox = r.transferred;
      rows.push([name, String(r.count), kb(r.raw), kb(r.gzip), kb(r.transferred)]);
    }
    console.log('| route | scripts | raw KB | gzip -9 KB | transferred KB |\n|---|---:|---:|---:|---:|');
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
    const ok = inbox / 1024 <= INBOX_BUDGET_KB;
    console.log(`\nInbox JS transferred (cold): ${kb(inbox)} KB — budget ${INBOX_BUDGET_KB} KB: ${ok ? 'within' : 'OVER'}`);
    if (!ok) process.exitCode = 1;
  } finally {
    await session.close();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
