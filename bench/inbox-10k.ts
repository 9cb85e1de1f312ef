// `npx tsx bench/inbox-10k.ts`: the Inbox of a repo with 10,000 tasks (9,700 done, 200
// waiting in the inbox, 100 in progress) on a phone: real relay on loopback watching a
// real bus, real Chromium on the Pixel 7 profile with the CPU slowed 4× (CDP
// Emulation.setCPUThrottlingRate). From navigation (a paired device) it times
//   shown  — both active groups show their full counts and their first cards, more than
//            the screen holds (FIRST_CARDS each; the rest of the page follows in a render
//            React can pause, FIRST-7), from the copy of the last Inbox the page shows
//            before its scripts run (FIRST-9), the saved state or the relay,
//   live   — the same with the relay's snapshot applied (badge Live),
//   sent   — a thumb's tap on the search field, sent the moment the active tasks show: the page
//            calls a CDP binding in the frame it sees them and the harness sends the touch
//            straight through Input.dispatchTouchEvent (Event.timeStamp of its touchstart);
//            not Playwright's tap(), whose actionability checks (two still frames, a hit test)
//            are not what a thumb does and added ~200 ms at 4×,
//   tap    — that tap handled (its click reaches the page),
// COLD (no service worker, no HTTP cache: the device key and the saved state stay) and
// WARM (the service worker and the HTTP cache of a first load), each the median of RUNS.
// A second device first pages through every done task ("Show older done tasks") so its
// saved state holds all 10,000: its reload is timed too (BENCH_QUICK=1 skips it). Target: tap ≤ 1 s.
// BENCH_AB=dirA,dirB compares two builds load by load (abMain); BENCH_TRACE=1 or =loaf shows
// where a load's main thread went. Needs the built app: node scripts/build-app.mjs.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium, devices, type BrowserContext, type Page } from '@playwright/test';
import { serializeEvent } from '../bus/event-log';
import { initRepo } from '../bus/init';
import { createRelay } from '../relay/server';
import { createPairingCode } from '../relay/devices/pairing';
import { CHROMIUM_ARGS } from '../scripts/app-session';
import { FIRST_CARDS } from '../app/components/InboxGroup';

const TASKS = { done: 9_700, inbox: 200, claimed: 100 };
const ACTIVE = TASKS.inbox + TASKS.claimed;
const CPU_SLOWDOWN = 4;
const TARGET_MS = 1000;
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const root = path.resolve(__dirname, '..');

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });
}

/** A bus-ready repo with the task mix above and one progress event per task (older tasks, older events). */
function makeRepo(work: string): string {
  const repo = path.join(work, 'big');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'README.md'), 'bench\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'init');
  const { bus } = initRepo(repo, { gateBin: '/bin/false', registryFile: path.join(work, 'registry') });
  const total = TASKS.done + TASKS.inbox + TASKS.claimed;
  const lines: string[] = [];
  const start = Date.now() - total * 1000;
  for (let i = 0; i < total; i++) {
    const id = `T-${String(i).padStart(5, '0')}`;
    // The newest tasks are the active ones, as on a real bus.
    const state = i < TASKS.done ? 'done' : i < TASKS.done + TASKS.claimed ? 'claimed' : 'inbox';
    const file = state === 'inbox' ? `${id}.md` : `bench-host_${1000 + i}_${id}.md`;
    fs.writeFileSync(path.join(bus, state, file), `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# Task number ${i}: make the thing do what it should\n\n## Context\nx\n`);
    lines.push(serializeEvent({ event: 'task_progress', task: id, note: `progress on ${id}` }, new Date(start + i * 1000)));
  }
  fs.writeFileSync(path.join(bus, 'events.jsonl'), lines.join(''));
  return repo;
}

/** A relay on loopback watching `repo` and serving the app built in `appDir`, its data under `work` (`name` keeps two apart). */
function serve(work: string, repo: string, appDir: string, name: string) {
  return createRelay({ port: 0, host: '127.0.0.1', dataDir: path.join(work, `data-${name}`), repos: [repo], registryFile: path.join(work, `registry-${name}`), demo: false, appDir });
}

interface Loaf { start: number; duration: number; blocking: number; render: number; scripts: { invoker: string; src: string; duration: number; forced: number }[] }

interface Timing { shown: number; live: number; sent: number; tap: number; cards: number }

/** BENCH_TRACE=loaf: the load's long animation frames with the scripts in them, and when the tap's events were handled. */
const LOAF_PROBE = `bench.loaf = [];
  bench.events = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) bench.loaf.push({ start: e.startTime, duration: e.duration, blocking: e.blockingDuration, render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0, scripts: e.scripts.map((s) => ({ invoker: s.invoker, src: (s.sourceURL || '').split('/').pop() + ':' + s.sourceFunctionName, duration: s.duration, forced: s.forcedStyleAndLayoutDuration })) }); }).observe({ type: 'long-animation-frame', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (['touchstart', 'pointerdown', 'click'].includes(e.name)) bench.events.push(e.name + ' created ' + e.startTime.toFixed(0) + ', handled ' + e.processingStart.toFixed(0) + '–' + e.processingEnd.toFixed(0)); }).observe({ type: 'event', durationThreshold: 16, buffered: true });`;

const SHOWN_BINDING = '__benchShown';

/**
 * Watches every frame from the first script on for the Inbox showing its active tasks: both active
 * groups with their full counts in the heading and their first cards (InboxGroup renders
 * FIRST_CARDS at once and the rest of its page of GROUP_PAGE after, FIRST-6, FIRST-7); records
 * the first tap handled.
 * A string, not a function: tsx would wrap inner functions in a helper the page does not have.
 */
const PROBE = `(() => {
  const want = { 'group-inbox': [${TASKS.inbox}, ${Math.min(TASKS.inbox, FIRST_CARDS)}], 'group-in-progress': [${TASKS.claimed}, ${Math.min(TASKS.claimed, FIRST_CARDS)}] };
  const bench = (window.__bench = { shown: null, live: null, sent: null, tap: null });
  // The tap's touchstart carries the moment the browser created it (Event.timeStamp, this page's clock).
  addEventListener('touchstart', (e) => { if (bench.sent === null) bench.sent = e.timeStamp; }, { capture: true, passive: true });
  addEventListener('click', () => { if (bench.tap === null) bench.tap = performance.now(); }, { capture: true });
  const showing = () => Object.entries(want).every(([id, [total, cards]]) => {
    const group = document.querySelector('[data-testid="' + id + '"]');
    return group && group.querySelector('h2')?.textContent?.endsWith('(' + total + ')') && group.querySelectorAll('[data-testid="task-card"]').length >= cards;
  });
  const tick = () => {
    if (showing()) {
      if (bench.shown === null) {
        bench.shown = performance.now();
        // The thumb: told where the search field is, the harness taps it at once (a CDP binding, no round trip).
        const field = document.querySelector('[data-testid="inbox-search"]').getBoundingClientRect();
        window.${SHOWN_BINDING}(JSON.stringify({ x: field.x + field.width / 2, y: field.y + field.height / 2 }));
      }
      if (bench.live === null && document.querySelector('[data-testid="connection-badge"][data-state="live"]')) bench.live = performance.now();
    }
    if (bench.live === null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  ${process.env.BENCH_TRACE === 'loaf' ? LOAF_PROBE : ''}
})();`;

/** BENCH_TRACE=1: prints the renderer's main-thread tasks over 50 ms of each load, with what ran in them. */
async function startTrace(cdp: import('@playwright/test').CDPSession): Promise<() => Promise<void>> {
  const events: { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; args?: { data?: { url?: string; functionName?: string; type?: string } } }[] = [];
  (cdp as unknown as { on(event: string, listener: (e: { value: typeof events }) => void): void }).on('Tracing.dataCollected', (e) => void events.push(...e.value));
  await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline,v8.execute', transferMode: 'ReportEvents' });
  return async () => {
    const done = new Promise<void>((resolve) => (cdp as unknown as { once(event: string, listener: () => void): void }).once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await done;
    const busiest = new Map<string, number>();
    for (const e of events) if (e.name === 'EvaluateScript' || e.name === 'FunctionCall') busiest.set(`${e.pid}:${e.tid}`, (busiest.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
    if (process.env.BENCH_TRACE === 'debug') console.log(`  trace: ${events.length} events, threads ${JSON.stringify([...busiest])}`);
    const main = [...busiest].sort((a, b) => b[1] - a[1])[0]?.[0];
    const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X');
    const start = Math.min(...onMain.map((e) => e.ts));
    const longest = Number(process.env.BENCH_TRACE_MIN ?? 50) * 1000; // µs: tasks longer than BENCH_TRACE_MIN ms, and what took a fifth of that in them
    for (const task of onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > longest)) {
      const inner = onMain.filter((e) => e.ts >= task.ts && e.ts < task.ts + task.dur! && e !== task && (e.dur ?? 0) > Math.min(10_000, longest / 5) && e.name !== 'RunTask')
        .map((e) => `${e.name}${e.args?.data?.url ? `:${e.args.data.url.split('/').pop()}` : ''}${e.args?.data?.functionName ? `:${e.args.data.functionName}` : ''}${e.args?.data?.type ? `:${e.args.data.type}` : ''} ${((e.dur ?? 0) / 1000).toFixed(0)}`);
      console.log(`  @${((task.ts - start) / 1000).toFixed(0)} ms: ${(task.dur! / 1000).toFixed(0)} ms — ${inner.slice(0, 6).join(', ')}`);
    }
  };
}

async function timedLoad(context: BrowserContext, url: string, cold: boolean): Promise<Timing> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  if (cold) {
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.setBypassServiceWorker', { bypass: true });
  }
  await cdp.send('Runtime.enable');
  await cdp.send('Runtime.addBinding', { name: SHOWN_BINDING });
  await page.addInitScript({ content: PROBE });
  const trace = process.env.BENCH_TRACE && process.env.BENCH_TRACE !== 'loaf' ? await startTrace(cdp) : null;
  try {
    // Input.dispatchTouchEvent as Playwright's touchscreen sends it, but straight from the binding's
    // event: no actionability checks (two still frames, hit tests), which are not what a thumb does.
    const tapped = new Promise<void>((resolve, reject) => {
      (cdp as unknown as { on(event: string, listener: (e: { name: string; payload: string }) => void): void }).on('Runtime.bindingCalled', (e) => {
        if (e.name !== SHOWN_BINDING) return;
        const { x, y } = JSON.parse(e.payload) as { x: number; y: number };
        cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] })
          .then(() => cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] }))
          .then(() => resolve(), reject);
      });
    });
    await page.goto(url, { waitUntil: 'commit' });
    await tapped;
    await page.waitForFunction(() => {
      const b = (window as unknown as { __bench: { live: number | null; tap: number | null } }).__bench;
      return b.live !== null && b.tap !== null;
    }, undefined, { polling: 'raf', timeout: 60_000 });
    const t = await page.evaluate(() => (window as unknown as { __bench: { shown: number; live: number; sent: number; tap: number } }).__bench);
    const cards = await page.getByTestId('task-card').count();
    if (trace) await trace();
    if (process.env.BENCH_TRACE === 'loaf') {
      const { loaf, events } = await page.evaluate(() => (window as unknown as { __bench: { loaf: Loaf[]; events: string[] } }).__bench);
      console.log(`  ${cold ? 'cold' : 'warm'}: shown ${t.shown.toFixed(0)}, tap sent ${t.sent.toFixed(0)}, handled ${t.tap.toFixed(0)}; ${events.join('; ')}`);
      for (const f of loaf.filter((f) => f.start < t.tap + 50)) {
        console.log(`    frame @${f.start.toFixed(0)} ${f.duration.toFixed(0)} ms (blocking ${f.blocking.toFixed(0)}, render ${f.render.toFixed(0)}): ${f.scripts.filter((x) => x.duration >= 5).map((x) => `${x.invoker} ${x.src} ${x.duration.toFixed(0)}${x.forced ? ` (forced ${x.forced.toFixed(0)})` : ''}`).join(' | ')}`);
      }
    }
    return { ...t, cards };
  } catch (error) {
    const seen = await page.evaluate(() => ({
      groups: [...document.querySelectorAll('section[data-testid^="group-"]')].map((g) => `${g.getAttribute('data-testid')}: ${g.querySelectorAll('[data-testid="task-card"]').length}`),
      badge: document.querySelector('[data-testid="connection-badge"]')?.textContent,
      bench: (window as unknown as { __bench?: unknown }).__bench,
    })).catch(() => null);
    throw new Error(`the Inbox did not show its ${ACTIVE} active tasks (${cold ? 'cold' : 'warm'}): ${JSON.stringify(seen)}`, { cause: error });
  } finally {
    await page.close();
  }
}

async function pair(context: BrowserContext, url: string, dataDir: string, name: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${url}/pair#code=${createPairingCode(dataDir).code}`);
  await page.getByTestId('pair-name').fill(name);
  await page.getByTestId('pair-submit').click();
  await page.waitForURL(`${url}/`);
  await page.locator('[data-testid="connection-badge"][data-state="live"]').waitFor();
  await page.getByTestId('group-in-progress').getByTestId('task-card').first().waitFor();
  // The service worker is installed and controls the next load (warm runs).
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  return page;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function main(): Promise<void> {
  const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-inbox10k-')));
  const repo = makeRepo(work);
  const relay = await serve(work, repo, process.env.BENCH_APP_DIR ?? path.join(root, 'out'), 'main'); // BENCH_APP_DIR: another build, to compare
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const rows: [string, Timing][] = [];
    const measure = async (label: string, context: BrowserContext, cold: boolean) => {
      const runs: Timing[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await timedLoad(context, `${relay.url}/`, cold));
      const byTap = [...runs].sort((a, b) => a.tap - b.tap);
      rows.push([label, { ...byTap[Math.floor((runs.length - 1) / 2)]!, shown: median(runs.map((r) => r.shown)), live: median(runs.map((r) => r.live)) }]);
    };

    // A phone that saw the Inbox once: its saved state holds the snapshot (active + newest done).
    const phone = await browser.newContext({ ...devices['Pixel 7'], serviceWorkers: 'allow' });
    (await pair(phone, relay.url, relay.dataDir, 'Bench phone')).close();
    await measure('Inbox, saved state = snapshot', phone, true);
    await measure('Inbox, saved state = snapshot', phone, false);

    // A phone that paged through every done task: its saved state holds all 10,000.
    // (BENCH_QUICK=1 skips it, for A/B rounds: the saved state is trimmed to a snapshot's, FIRST-6.)
    if (!process.env.BENCH_QUICK) {
      const reader = await browser.newContext({ ...devices['Pixel 7'], serviceWorkers: 'allow' });
      const page = await pair(reader, relay.url, relay.dataDir, 'Bench reader');
      const more = page.getByTestId('inbox-done-more');
      while (await more.count()) {
        const before = await more.innerText();
        await more.click();
        await page.waitForFunction((label) => {
          const button = document.querySelector<HTMLButtonElement>('[data-testid="inbox-done-more"]');
          return !button || (!button.disabled && button.textContent !== label);
        }, before, { timeout: 120_000 });
      }
      const held = ACTIVE + Number(/\((\d+)\)/.exec(await page.getByTestId('group-done').locator('summary').innerText())?.[1] ?? 0);
      // Let the saved state catch up with all of it (it is written a moment after each change).
      await page.waitForFunction(async (n) => {
        const open = indexedDB.open('commandr');
        const db: IDBDatabase = await new Promise((resolve, reject) => { open.onsuccess = () => resolve(open.result); open.onerror = () => reject(open.error); });
        try {
          const state = await new Promise<{ tasks: Record<string, Record<string, unknown>> } | undefined>((resolve, reject) => {
            const get = db.transaction('snapshot').objectStore('snapshot').get('state');
            get.onsuccess = () => resolve(get.result);
            get.onerror = () => reject(get.error);
          });
          return Object.values(state?.tasks ?? {}).reduce((sum, byId) => sum + Object.keys(byId).length, 0) >= n;
        } finally {
          db.close();
        }
      }, held, { polling: 500, timeout: 60_000 });
      await page.close();
      await measure(`Inbox, saved state = all ${held.toLocaleString('en')} tasks`, reader, true);
      await measure(`Inbox, saved state = all ${held.toLocaleString('en')} tasks`, reader, false);
    }

    console.log(`10,000 tasks (${TASKS.done.toLocaleString('en')} done, ${TASKS.inbox} inbox, ${TASKS.claimed} in progress), Pixel 7, CPU ${CPU_SLOWDOWN}× slower, median of ${RUNS}`);
    console.log('| load | saved state | active shown ms | live ms | tap sent ms | tap handled ms | cards in DOM |');
    console.log('|---|---|---:|---:|---:|---:|---:|');
    for (const [i, [label, t]] of rows.entries()) {
      const load = i % 2 === 0 ? 'cold' : 'warm';
      console.log(`| ${load} | ${label.replace('Inbox, saved state = ', '')} | ${t.shown.toFixed(0)} | ${t.live.toFixed(0)} | ${t.sent.toFixed(0)} | ${t.tap.toFixed(0)}${t.tap <= TARGET_MS ? '' : ' ✗'} | ${t.cards} |`);
    }
    console.log(`target: tap handled ≤ ${TARGET_MS} ms from navigation`);
    console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (shared: figures are noisy)`);
    if (rows.some(([, t]) => t.tap > TARGET_MS)) process.exitCode = 1;
  } finally {
    await browser.close();
    await relay.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * BENCH_AB=dirA,dirB: two builds of the app, each served by its own relay over the same repo,
 * loaded in turn (cold, warm, then the other build) RUNS times, so both meet the same machine
 * load; prints each build's medians and how many taps were handled within the target.
 */
async function abMain(dirs: string[]): Promise<void> {
  const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-inbox10k-')));
  const repo = makeRepo(work);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const arms: { dir: string; relay: Awaited<ReturnType<typeof serve>>; phone: BrowserContext; runs: { cold: Timing[]; warm: Timing[] } }[] = [];
  try {
    for (const [i, dir] of dirs.entries()) {
      const relay = await serve(work, repo, dir, String(i));
      const phone = await browser.newContext({ ...devices['Pixel 7'], serviceWorkers: 'allow' });
      arms.push({ dir, relay, phone, runs: { cold: [], warm: [] } });
      (await pair(phone, relay.url, relay.dataDir, 'Bench phone')).close();
    }
    for (let r = 0; r < RUNS; r++) {
      for (const arm of r % 2 === 0 ? arms : [...arms].reverse()) {
        arm.runs.cold.push(await timedLoad(arm.phone, `${arm.relay.url}/`, true));
        arm.runs.warm.push(await timedLoad(arm.phone, `${arm.relay.url}/`, false));
      }
    }
    console.log(`A/B, 10,000 tasks, Pixel 7, CPU ${CPU_SLOWDOWN}× slower, ${RUNS} alternating runs each; medians`);
    console.log('| build | load | active shown ms | tap sent ms | tap handled ms | taps ≤ 1 s |');
    console.log('|---|---|---:|---:|---:|---:|');
    for (const arm of arms) {
      for (const load of ['cold', 'warm'] as const) {
        const runs = arm.runs[load];
        console.log(`| ${arm.dir} | ${load} | ${median(runs.map((t) => t.shown)).toFixed(0)} | ${median(runs.map((t) => t.sent)).toFixed(0)} | ${median(runs.map((t) => t.tap)).toFixed(0)} | ${runs.filter((t) => t.tap <= TARGET_MS).length}/${runs.length} |`);
      }
    }
    console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await browser.close();
    for (const arm of arms) await arm.relay.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

(process.env.BENCH_AB ? abMain(process.env.BENCH_AB.split(',')) : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
