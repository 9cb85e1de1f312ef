// `npx tsx bench/tls-link.ts`: a phone's cold load over the relay's own TLS (SERVE-1) on a
// slow mobile link, HTTP/2 against HTTP/1.1. The link is a TCP stand-in on loopback with
// Lighthouse's mobile figures — 150 ms round trip, 1.6 Mbit/s down and 750 kbit/s up
// shared by every connection — so each TCP and TLS handshake costs its real round trips,
// which Chromium's own throttling does not model. Chromium (phone profile, no service
// worker, HTTP cache off) loads Pair as a new phone and the Inbox of a paired one; every
// connection is closed before a load, so each starts cold. HTTP/1.1 is Chromium with
// `--disable-http2` against the same relay. Median of BENCH_RUNS (default 5) loads.
// Needs the built app (node scripts/build-app.mjs) and openssl.
import { mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, devices, type Page } from '@playwright/test';
import { createRelay } from '../relay/server';
import { createPairingCode } from '../relay/devices/pairing';
import { CHROMIUM_ARGS } from '../scripts/app-session';
import { makeTestCertificate } from '../test/helpers/certificate';

const RTT_MS = 150;
const DOWN_BYTES_PER_MS = (1.6 * 1024 * 1024) / 8 / 1000;
const UP_BYTES_PER_MS = (750 * 1024) / 8 / 1000;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** One direction of the link: a queue all connections share, serialised at `rate`, each chunk arriving RTT/2 after it left. */
class Direction {
  private freeAt = 0;
  constructor(private readonly rate: number) {}
  /** When a chunk of `bytes` sent now arrives. */
  arrival(bytes: number): number {
    const now = performance.now();
    const start = Math.max(now, this.freeAt);
    this.freeAt = start + bytes / this.rate;
    return this.freeAt + RTT_MS / 2;
  }
}

/** The slow link: a TCP proxy to `target`; counts connections and can drop them all. */
async function slowLink(target: number): Promise<{ port: number; opened: () => number; dropAll: () => void; close: () => void }> {
  const down = new Direction(DOWN_BYTES_PER_MS);
  const up = new Direction(UP_BYTES_PER_MS);
  const sockets = new Set<net.Socket>();
  const clients = new Set<net.Socket>();
  let opened = 0;
  // Chunks of one socket are written in order (one queue, one timer), each at its arrival time.
  const relay = (from: net.Socket, to: net.Socket, direction: Direction) => {
    const queue: { at: number; chunk: Buffer | null }[] = [];
    let timer: NodeJS.Timeout | undefined;
    const pump = () => {
      timer = undefined;
      while (queue.length > 0 && queue[0]!.at <= performance.now()) {
        const { chunk } = queue.shift()!;
        if (to.destroyed) return;
        if (chunk) to.write(chunk);
        else to.end();
      }
      if (queue.length > 0) timer = setTimeout(pump, queue[0]!.at - performance.now());
    };
    const push = (at: number, chunk: Buffer | null) => {
      queue.push({ at: Math.max(at, queue.at(-1)?.at ?? 0), chunk });
      timer ??= setTimeout(pump, queue[0]!.at - performance.now());
    };
    from.on('data', (chunk: Buffer) => push(direction.arrival(chunk.length), chunk));
    from.on('end', () => push(performance.now() + RTT_MS / 2, null));
    from.on('close', () => clearTimeout(timer));
  };
  const server = net.createServer((client) => {
    opened += 1;
    clients.add(client);
    client.on('close', () => clients.delete(client));
    const upstream = net.connect(target, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => { client.destroy(); upstream.destroy(); });
    }
    relay(client, upstream, up);
    relay(upstream, client, down);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    opened: () => opened,
    // Ends every connection and waits until the browser has closed its side, so no request of
    // the next load is sent on a connection that is going away.
    dropAll: async () => {
      const closed = [...clients].map((c) => new Promise<void>((resolve) => c.once('close', () => resolve())));
      for (const c of clients) c.end();
      await Promise.all(closed);
      for (const s of sockets) s.destroy();
    },
    close: () => { for (const s of sockets) s.destroy(); server.close(); },
  };
}

interface Load { connections: number; fcp: number; scripts: number; ready: number }

/**
 * One cold load: every connection closed first, then the page from the link. Times are from
 * the start of the page's first connection: `ready` when `selector` first matched (checked
 * every frame), `scripts` when the last of the page's scripts had arrived.
 */
async function coldLoad(page: Page, link: Awaited<ReturnType<typeof slowLink>>, url: string, selector: string): Promise<Load> {
  await page.goto('about:blank');
  await link.dropAll();
  const before = link.opened();
  await page.goto(url, { waitUntil: 'commit' });
  const ready = await (await page.waitForFunction((s) => document.querySelector(s) && performance.now(), selector, { polling: 'raf', timeout: 60_000 })).jsonValue() as number;
  await page.waitForLoadState('networkidle');
  const timing = await page.evaluate(() => ({
    start: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).connectStart,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    scripts: Math.max(...performance.getEntriesByType('resource').filter((e) => e.name.includes('/_next/static/') && e.name.endsWith('.js')).map((e) => (e as PerformanceResourceTiming).responseEnd)),
  }));
  // From the page's first connection: what the browser did before it is not the link's.
  return { connections: link.opened() - before, fcp: timing.fcp - timing.start, scripts: timing.scripts - timing.start, ready: ready - timing.start };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'commandr-tls-bench-'));
  const relay = await createRelay({
    port: 0, host: '127.0.0.1', dataDir: path.join(tmp, 'data'), repos: [], registryFile: path.join(tmp, 'no-registry'),
    demo: true, appDir: path.resolve(__dirname, '..', 'out'), tls: makeTestCertificate(),
  });
  const link = await slowLink(relay.port);
  const origin = `https://127.0.0.1:${link.port}`;
  const rows: string[] = [];
  try {
    for (const [protocol, extra] of [['HTTP/2', []], ['HTTP/1.1', ['--disable-http2']]] as const) {
      const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...extra] });
      try {
        const context = await browser.newContext({ ...devices['Pixel 7'], serviceWorkers: 'block', ignoreHTTPSErrors: true });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        const pair: Load[] = [];
        for (let i = 0; i < RUNS; i++) pair.push(await coldLoad(page, link, `${origin}/pair`, '[data-testid=pair-form]'));
        await page.goto('about:blank'); // the pairing link loads the page, not only a new hash
        await page.goto(`${origin}/pair#code=${createPairingCode(relay.dataDir).code}`);
        await page.getByTestId('pair-name').fill('Pixel 7');
        await page.getByTestId('pair-submit').click();
        await page.getByTestId('task-card').first().waitFor();
        const inbox: Load[] = [];
        for (let i = 0; i < RUNS; i++) inbox.push(await coldLoad(page, link, `${origin}/`, '[data-testid=connection-badge][data-state=live]'));
        for (const [screen, loads] of [['Pair (new phone)', pair], ['Inbox (paired)', inbox]] as const) {
          const m = (f: (l: Load) => number) => median(loads.map(f)).toFixed(0);
          rows.push(`| ${screen} | ${protocol} | ${m((l) => l.connections)} | ${m((l) => l.fcp)} | ${m((l) => l.scripts)} | ${m((l) => l.ready)} |`);
        }
        await context.close();
      } finally {
        await browser.close();
      }
    }
  } finally {
    link.close();
    await relay.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`cold loads over the relay's TLS on a stand-in mobile link (RTT ${RTT_MS} ms, 1.6 Mbit/s down, 750 kbit/s up), median of ${RUNS}; ms from the start of the page's first connection`);
  console.log('| screen | protocol | connections opened | first paint ms | every script in ms | ready ms (Pair: the form; Inbox: live) |\n|---|---|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
