// `npx tsx bench/app.ts`: JavaScript the phone downloads per route — every script
// response of a fresh load (no service worker, no HTTP cache) in Chromium on the
// phone profile, against a real relay with the demo workspace: bytes actually
// transferred (the relay's precompressed Brotli, COLD-1) and, for comparison, gzip -9
// of the decoded bodies. Targets: Inbox ≤ 150 KB and Pair (a new phone: a browser
// context of its own, never paired) ≤ 130 KB transferred (cold).
// Needs the built app: node scripts/build-app.mjs.
import { gzipSync } from 'node:zlib';
import { devices, type BrowserContext } from '@playwright/test';
import { startAppSession } from '../scripts/app-session';

const BUDGET_KB: Record<string, number> = { Inbox: 150, Pair: 130 };

async function scriptsOf(context: BrowserContext, url: string, ready: string): Promise<{ count: number; raw: number; gzip: number; transferred: number }> {
  const fresh = await context.newPage(); // a new page: nothing already loaded in memory
  const cdp = await context.newCDPSession(fresh);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.enable');
  // Bytes on the wire per script (headers + the encoded body), as Lighthouse's transferSize counts them.
  const scripts = new Set<string>();
  const wire = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => void (e.type === 'Script' && scripts.add(e.requestId)));
  cdp.on('Network.loadingFinished', (e) => void wire.set(e.requestId, e.encodedDataLength));
  const bodies: Promise<Buffer | null>[] = [];
  fresh.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    bodies.push(response.body().then((b) => {
      if (process.env.BENCH_VERBOSE) console.log(`  ${url} ← ${response.url()} ${kb(gzipSync(b).length)} KB gz`);
      return b;
    }).catch(() => null));
  });
  await fresh.goto(url, { waitUntil: 'networkidle' });
  await fresh.getByTestId(ready).first().waitFor();
  const all = (await Promise.all(bodies)).filter((b): b is Buffer => b !== null);
  await fresh.close();
  const transferred = sum([...scripts].map((id) => wire.get(id) ?? 0));
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
    const transferred: Record<string, number> = {};
    // A new phone: its own context, no device key, no worker, nothing cached.
    const stranger = await session.browser.newContext({ ...devices['Pixel 7'], serviceWorkers: 'block' });
    try {
      const r = await scriptsOf(stranger, `${url}/pair`, 'pair-form');
      transferred.Pair = r.transferred;
      rows.push(['Pair /pair (never paired)', String(r.count), kb(r.raw), kb(r.gzip), kb(r.transferred)]);
    } finally {
      await stranger.close();
    }
    for (const [name, href, ready] of routes) {
      const r = await scriptsOf(session.context, href, ready);
      transferred[name.split(' ')[0]!] = r.transferred;
      rows.push([name, String(r.count), kb(r.raw), kb(r.gzip), kb(r.transferred)]);
    }
    console.log('| route | scripts | raw KB | gzip -9 KB | transferred KB |\n|---|---:|---:|---:|---:|');
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
    console.log('');
    for (const [route, budget] of Object.entries(BUDGET_KB)) {
      const ok = (transferred[route] ?? Infinity) / 1024 <= budget;
      console.log(`${route} JS transferred (cold): ${kb(transferred[route] ?? 0)} KB — budget ${budget} KB: ${ok ? 'within' : 'OVER'}`);
      if (!ok) process.exitCode = 1;
    }
  } finally {
    await session.close();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
