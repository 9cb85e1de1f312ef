// What the first load of a screen needs before it paints and while it starts (FIRST-n):
// the styles travel in the page, the screen's text is in the exported HTML,
// workbox-window comes after the load event, an unpaired visit paints Pair, the header
// never moves what is below it, and every script the page loads carries V8's compile
// hint. Real relay, real Chromium on the phone profile.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { savedState, test, expect } from './fixtures';
// @ts-expect-error -- a plain .mjs build script without types
import { loadedScripts } from '../scripts/paint-first.mjs';
// The service worker is what this spec tests (or needs: push, offline, updates); the others run without it (SUITE-5).
test.use({ serviceWorkers: 'allow' });

/** The scripts an exported page loads by itself: its paint-first loader's list (FIRST-10), plus any `<script src>` left in it (not `nomodule`). */
function ownScripts(html: string): string[] {
  const tags = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"(?![^>]*noModule)[^>]*>/g)].map((m) => m[1]!);
  return [...new Set([...(loadedScripts(html) as string[]), ...tags])];
}

/** Every response of the page's own loads: url, resource type, body (scripts and documents). */
function recordResponses(page: Page): { url: string; type: string; body: Promise<string> }[] {
  const seen: { url: string; type: string; body: Promise<string> }[] = [];
  page.on('response', (r) => {
    const type = r.request().resourceType();
    seen.push({ url: r.url(), type, body: type === 'script' || type === 'document' ? r.text().catch(() => '') : Promise.resolve('') });
  });
  return seen;
}

test.describe('first paint without scripts', () => {
  test.use({ javaScriptEnabled: false });

  test('FIRST-1: with scripts off, Pair shows its text and form styled from the page itself, and no stylesheet is requested', async ({ page, relayEnv }) => {
    const seen = recordResponses(page);
    await page.goto(`${relayEnv.url}/pair`);
    await expect(page.getByRole('heading', { name: 'Pair this device' })).toBeVisible();
    await expect(page.getByText('Run commandr pair on the computer where the relay runs')).toBeVisible();
    // Styled: the 44 px touch target and the sticky header come from globals.css, inlined.
    expect(await page.getByTestId('pair-submit').evaluate((b) => getComputedStyle(b).minHeight)).toBe('44px');
    expect(await page.locator('.shell-header').evaluate((h) => getComputedStyle(h).position)).toBe('sticky');
    expect(seen.filter((r) => r.type === 'stylesheet').map((r) => r.url)).toEqual([]);
  });
});

/** When the page's workbox-window chunk was requested and when its load event started (ms since navigation), or null where it was not requested. */
function workboxTiming(page: Page): Promise<{ requested: number; load: number } | null> {
  return page.evaluate(() => {
    const chunk = performance.getEntriesByType('resource').find((e) => /\/workbox-window\.[0-9a-f]+\.js$/.test(e.name));
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return chunk && nav ? { requested: chunk.startTime, load: nav.loadEventStart } : null;
  });
}

test('FIRST-2, FASTPAIR-3: Pair and the Inbox register the service worker with workbox-window, whose chunk is requested only after the page\'s load event and is none of the page\'s own scripts', async ({ page, relayEnv }) => {
  await page.goto(`${relayEnv.url}/pair#code=${relayEnv.pairingCode()}`);
  await expect.poll(() => workboxTiming(page), 'Pair requests the workbox-window chunk').not.toBeNull();
  const onPair = (await workboxTiming(page))!;
  expect(onPair.requested, 'on Pair: requested after load').toBeGreaterThanOrEqual(onPair.load);
  await page.getByTestId('pair-name').fill('Worker Phone');
  await page.getByTestId('pair-submit').click();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  await page.reload();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  // The worker registered through workbox-window and installed.
  expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toBe(`${relayEnv.url}/sw.js`);
  await expect.poll(() => workboxTiming(page), 'the Inbox requests the workbox-window chunk').not.toBeNull();
  const onInbox = (await workboxTiming(page))!;
  expect(onInbox.requested, 'on the Inbox: requested after load').toBeGreaterThanOrEqual(onInbox.load);
  // Nor is it among the scripts the exported pages load (or preload) by themselves.
  for (const route of ['/', '/pair']) {
    const html = await (await page.request.get(`${relayEnv.url}${route}`)).text();
    expect(html, route).not.toMatch(/workbox-window/);
  }
});

test('FIRST-3: the header keeps its height and the screen below stays put when the connection changes and "Synced" shows', async ({ paired: page, context, relayEnv }) => {
  relayEnv.addPacket('T-first', 'A task on screen');
  await expect(page.getByTestId('task-card').first()).toBeVisible();
  const geometry = () => page.evaluate(() => {
    const rect = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
    return { header: rect('.shell-header').height, main: rect('main').top, title: rect('.shell-title').top, heading: rect('#inbox-title').top };
  });
  const live = await geometry();
  await context.setOffline(true);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
  await expect(page.getByTestId('last-synced')).toBeVisible();
  expect(await geometry()).toEqual(live);
  // The badge stays inside the header, right-aligned, and so does the label beside it.
  const inside = await page.evaluate(() => {
    const header = document.querySelector('.shell-header')!.getBoundingClientRect();
    return ['connection-badge', 'last-synced'].map((id) => {
      const r = document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect();
      return r.top >= header.top && r.bottom <= header.bottom && r.right <= header.right;
    });
  });
  expect(inside).toEqual([true, true]);
  await context.setOffline(false);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  expect(await geometry()).toEqual(live);
});

test('FIRST-4: every script the Pair and Inbox pages load by themselves starts with the compile hint', async ({ page, relayEnv }) => {
  const seen = recordResponses(page);
  await page.goto(`${relayEnv.url}/pair#code=${relayEnv.pairingCode()}`);
  await page.getByTestId('pair-name').fill('Hint Phone');
  await page.getByTestId('pair-submit').click();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  relayEnv.addPacket('T-hint', 'A task on screen');
  await page.goto(`${relayEnv.url}/`);
  await expect(page.getByTestId('task-card').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const documents = await Promise.all(seen.filter((r) => r.type === 'document').map((r) => r.body));
  const named = new Set(documents.flatMap(ownScripts));
  expect(named.size).toBeGreaterThan(3);
  for (const src of named) {
    // The last load of it: a body fetched before a navigation can be gone once the next page loads.
    const script = seen.findLast((r) => r.type === 'script' && new URL(r.url).pathname === src);
    expect(script, `${src} was loaded`).toBeTruthy();
    expect((await script!.body).startsWith('//# allFunctionsCalledOnLoad\n'), src).toBe(true);
  }
});

test('FIRST-6: a group shows its newest 50 cards and "Show more" the next ones; the folded Done group renders none until opened', async ({ paired: page, relayEnv }) => {
  for (let i = 0; i < 56; i++) relayEnv.addPacket(`T-${String(i).padStart(2, '0')}`, `Waiting task ${i}`);
  for (let i = 0; i < 3; i++) addTaskIn(relayEnv.bus, 'done', `D-${i}`, `Finished ${i}`);
  const inbox = page.getByTestId('group-inbox');
  await expect(inbox.locator('h2')).toHaveText('Inbox (56)');
  await expect(inbox.getByTestId('task-card')).toHaveCount(50);
  const done = page.getByTestId('group-done');
  await expect(done.locator('summary')).toHaveText('Done (3)');
  await expect(done.getByTestId('task-card')).toHaveCount(0);

  await inbox.getByTestId('group-more-inbox').click();
  await expect(inbox.getByTestId('task-card')).toHaveCount(56);
  await expect(inbox.getByTestId('group-more-inbox')).toHaveCount(0);
  await done.locator('summary').click();
  await expect(done.getByTestId('task-card')).toHaveCount(3);
  // Search still finds a task of any page.
  await page.getByTestId('inbox-search').fill('T-55');
  await expect(page.getByTestId('task-card')).toHaveCount(1);
});

test('FIRST-7: the Inbox\'s own scripts hold no zod schema (the client core comes as one chunk after them), and a group that appears shows its first 10 cards before the rest of its page', async ({ paired: page, relayEnv }) => {
  for (let i = 0; i < 30; i++) relayEnv.addPacket(`T-${String(i).padStart(2, '0')}`, `Waiting task ${i}`);
  const inbox = page.getByTestId('group-inbox');
  await expect(inbox.getByTestId('task-card')).toHaveCount(30);
  // On a reload the 30 tasks arrive in one store update (the saved state or the relay's snapshot).
  // The cards on the page are counted after each node React inserts, as it inserts it: React can run
  // its first commit and the deferred one in one task, where a MutationObserver sees only the last.
  await page.addInitScript(() => {
    localStorage.removeItem('commandr.inbox'); // no copy of the last Inbox (FIRST-9): React's own commits only
    const counts: number[] = ((window as unknown as { cardCounts: number[] }).cardCounts = []);
    const count = () => {
      const n = document.querySelectorAll('[data-testid="group-inbox"] [data-testid="task-card"]').length;
      if (n > 0 && counts.at(-1) !== n) counts.push(n);
    };
    const { appendChild, insertBefore } = Node.prototype;
    Node.prototype.appendChild = function <T extends Node>(this: Node, node: T): T { const r = appendChild.call(this, node) as T; count(); return r; };
    Node.prototype.insertBefore = function <T extends Node>(this: Node, node: T, child: Node | null): T { const r = insertBefore.call(this, node, child) as T; count(); return r; };
  });
  const seen = recordResponses(page);
  await page.reload();
  await expect(inbox.getByTestId('task-card')).toHaveCount(30);
  const counts = await page.evaluate(() => (window as unknown as { cardCounts: number[] }).cardCounts);
  expect(counts[0], `cards per commit: ${counts.join(', ')}`).toBe(10);
  expect(counts.at(-1)).toBe(30);

  await page.waitForLoadState('networkidle');
  const html = await seen.find((r) => r.type === 'document')!.body;
  const own = ownScripts(html);
  expect(own.length).toBeGreaterThan(3);
  for (const src of own) {
    const script = seen.find((r) => r.type === 'script' && new URL(r.url).pathname === src);
    expect(script, `${src} was loaded`).toBeTruthy();
    expect(await script!.body, `${src} holds no zod`).not.toMatch(/\$Zod(Object|Type|String)/);
  }
  const later = seen.filter((r) => r.type === 'script' && !own.includes(new URL(r.url).pathname));
  expect(later.filter((r) => /\/client-core\.[0-9a-f]+\.js$/.test(r.url)), 'the client core, one chunk').toHaveLength(1);
});

test('FIRST-10: a page paints before any of its scripts runs, even when the worker hands them over at once; the downloads start from the head', async ({ paired: page, relayEnv }) => {
  relayEnv.addPacket('T-paint', 'Painted first');
  await expect(page.getByTestId('task-card')).toHaveCount(1);
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  // Every chunk of the build registers itself in webpackChunk_N_E first: the first touch of it is the first script that ran.
  await page.addInitScript(() => {
    const w = window as unknown as { firstScriptAt?: number };
    let chunks: unknown;
    Object.defineProperty(window, 'webpackChunk_N_E', {
      configurable: true,
      get: () => ((w.firstScriptAt ??= performance.now()), chunks),
      set: (value) => ((w.firstScriptAt ??= performance.now()), (chunks = value)),
    });
  });
  const seen: { path: string; fromWorker: boolean }[] = [];
  page.on('response', (r) => r.request().resourceType() === 'script' && seen.push({ path: new URL(r.url()).pathname, fromWorker: r.fromServiceWorker() }));
  for (const screen of ['/', '/settings']) {
    seen.length = 0;
    await page.goto(`${relayEnv.url}${screen}`);
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
    const { fcp, firstScriptAt, preloads } = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      firstScriptAt: (window as unknown as { firstScriptAt?: number }).firstScriptAt,
      preloads: [...document.querySelectorAll('head link[rel="preload"][as="script"]')].map((l) => new URL((l as HTMLLinkElement).href).pathname),
    }));
    expect(fcp, `${screen}: a first contentful paint`).toBeGreaterThan(0);
    expect(firstScriptAt, `${screen}: the app's scripts ran`).toBeGreaterThan(0);
    expect(firstScriptAt!, `${screen}: the first script ran after the first contentful paint`).toBeGreaterThan(fcp!);
    // The scripts came from the worker's cache, ready before the paint: only the loader kept them back.
    const html = await (await page.request.get(`${relayEnv.url}${screen}`)).text();
    const own = ownScripts(html);
    expect(own.length, screen).toBeGreaterThan(3);
    for (const src of own) {
      expect(seen.find((r) => r.path === src), `${screen}: ${src} from the worker`).toMatchObject({ fromWorker: true });
      expect(preloads, `${screen}: ${src} is requested from the head`).toContain(src);
    }
  }
});

test('FIRST-11: the worker hands the page its scripts as responses of its own, not Cache Storage entries that carry a code cache', async ({ paired: page, relayEnv }) => {
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts: { url: string; source?: string; cacheName?: string }[] = [];
  cdp.on('Network.responseReceived', ({ type, response }) => {
    if (type === 'Script' && response.fromServiceWorker) scripts.push({ url: new URL(response.url).pathname, source: response.serviceWorkerResponseSource, cacheName: response.cacheStorageCacheName });
  });
  await page.reload();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  await page.waitForLoadState('networkidle');
  const html = await (await page.request.get(`${relayEnv.url}/`)).text();
  for (const src of ownScripts(html)) {
    // From the worker, but not as the Cache Storage entry (whose eager code cache the page would deserialize on its main thread).
    const script = scripts.find((r) => r.url === src);
    expect(script, src).toMatchObject({ cacheName: undefined });
    expect(script!.source, src).not.toBe('cache-storage');
  }
  // Every one of them came from the worker.
  expect(scripts.length).toBeGreaterThan(3);
});

/** A task an agent (host e2e-host, pid 200) has claimed or finished, written onto the bus as `claim` / `complete` leave it. */
function addTaskIn(bus: string, state: 'claimed' | 'done', id: string, title: string): void {
  writeFileSync(path.join(bus, state, `e2e-host_200_${id}.md`), `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# ${title}\n\n## Context\ne2e\n`);
}

/** The Inbox's copy for the next load (FIRST-9), parsed: its card links' markup, or null when none is kept. */
function prepaintCopy(page: Page): Promise<string[] | null> {
  return page.evaluate(() => {
    const saved = localStorage.getItem('commandr.inbox');
    if (!saved) return null;
    const box = document.createElement('div');
    box.innerHTML = (JSON.parse(saved) as { html: string }).html;
    return [...box.querySelectorAll('a.task-card')].map((a) => a.outerHTML);
  });
}

/** How many tasks the page's saved state (IndexedDB) holds. */
async function savedTasks(page: Page): Promise<number> {
  const state = await savedState(page);
  return Object.values(state?.tasks ?? {}).reduce((sum, byId) => sum + Object.keys(byId).length, 0);
}

test.describe('with the service worker blocked, so a script can be held back', () => {
  test.use({ serviceWorkers: 'block' });

  test('FIRST-8: the Inbox shows the saved tasks while the client core is still on its way, and the cards past its first 10 are laid out only near the screen', async ({ paired: page, relayEnv }) => {
    for (let i = 0; i < 12; i++) relayEnv.addPacket(`T-${String(i).padStart(2, '0')}`, `Waiting task ${i}`);
    const inbox = page.getByTestId('group-inbox');
    await expect(inbox.getByTestId('task-card')).toHaveCount(12);
    // The saved state is written a moment after a change: wait until it holds the 12.
    await expect.poll(() => savedTasks(page)).toBe(12);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    await page.route(/\/client-core\.[0-9a-f]+\.js$/, async (route) => {
      asked++;
      await held;
      await route.continue();
    });
    await page.reload({ waitUntil: 'commit' }); // the held chunk holds the load event back
    // No client core yet (so no socket): the cards come from the saved state alone.
    await expect(inbox.getByTestId('task-card')).toHaveCount(12);
    await expect(inbox.getByText('Waiting task 11')).toBeVisible();
    expect(asked, 'the client core was requested and is being held').toBe(1);
    await expect(page.getByTestId('connection-badge')).not.toHaveAttribute('data-state', 'live');
    release();
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
    await expect(inbox.getByTestId('task-card')).toHaveCount(12);

    const items = inbox.locator('ul.task-list > li');
    // The first 10 (a screen and more) are always laid out, so none of them is drawn at a placeholder height first.
    expect(await items.evaluateAll((lis) => lis.map((li) => getComputedStyle(li).contentVisibility))).toEqual([...Array(10).fill('visible'), 'auto', 'auto']);
  });

  test('FIRST-9: the Inbox shows the cards it last rendered before any of the app\'s scripts has run, and its first render puts the same markup in their place', async ({ paired: page, relayEnv }) => {
    // Two in progress, one with a title that is markup: the copy must keep it as text.
    for (const [i, title] of ['Being worked on', '<img src=x onerror="window.__pwned=1">'].entries()) addTaskIn(relayEnv.bus, 'claimed', `C-${i}`, title);
    for (let i = 0; i < 13; i++) relayEnv.addPacket(`T-${String(i).padStart(2, '0')}`, `Waiting task ${i}`);
    await expect(page.getByTestId('group-inbox').getByTestId('task-card')).toHaveCount(13);
    await expect(page.getByTestId('group-in-progress').getByTestId('task-card')).toHaveCount(2);
    // The copy is kept when the page is idle: the first 10 cards of each group (the 2 in progress,
    // 10 of 13 waiting). Waited for before searching: a search typed before the page was idle
    // cancels that save, and a filtered Inbox is never saved (on a busy machine the test lost that race).
    await expect.poll(async () => (await prepaintCopy(page))?.length).toBe(12);
    // Searching filters the Inbox on screen, not the copy the next load shows (the reload below shows it).
    await page.getByTestId('inbox-search').fill('T-0');
    await expect(page.getByTestId('group-in-progress')).toHaveCount(0);
    expect((await prepaintCopy(page))?.length).toBe(12);
    await page.getByTestId('inbox-search').fill('');

    // Every script of the app is held: what shows comes from the page and its inline script alone.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    await page.route(/\/_next\/static\/.*\.js$/, async (route) => {
      asked++;
      await held;
      await route.continue();
    });
    await page.reload({ waitUntil: 'commit' });
    const copy = page.getByTestId('inbox-prepaint');
    await expect(copy.getByTestId('group-inbox').locator('h2')).toHaveText('Inbox (13)');
    await expect(copy.getByTestId('group-in-progress').locator('h2')).toHaveText('In progress (2)');
    await expect(copy.getByTestId('task-card')).toHaveCount(12);
    await expect(copy.getByText('<img src=x onerror="window.__pwned=1">')).toBeVisible();
    expect(await copy.locator('img').count(), 'the hostile title is text, not an element').toBe(0);
    await expect(page.getByTestId('inbox-loading')).toBeHidden();
    // Nothing is known of the connection yet: the badge says so, not "Offline".
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'connecting');
    // Its buttons say they do nothing yet; its links need no script.
    expect(await copy.getByTestId('task-menu').evaluateAll((buttons) => buttons.map((b) => (b as HTMLButtonElement).disabled))).toEqual(Array(12).fill(true));
    expect(asked, 'the app\'s scripts were requested and are being held').toBeGreaterThan(3);
    const before = await copy.locator('a.task-card').evaluateAll((links) => links.map((a) => a.outerHTML));

    release();
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
    await expect(copy).toHaveCount(0);
    const rendered = await page.locator('[data-testid^="group-"] ul.task-list').evaluateAll((lists) => lists.flatMap((ul) => [...ul.querySelectorAll(':scope > li')].slice(0, 10).map((li) => li.querySelector('a.task-card')!.outerHTML)));
    expect(rendered).toEqual(before);
    expect(await page.evaluate(() => [(window as unknown as { __pwned?: number }).__pwned, document.documentElement.hasAttribute('data-prepaint')])).toEqual([undefined, false]);
  });

  test('FIRST-9: a device the relay revoked keeps no copy of the Inbox', async ({ paired: page, relayEnv }) => {
    relayEnv.addPacket('T-kept', 'A task the copy holds');
    await expect.poll(async () => (await prepaintCopy(page))?.length).toBe(1);
    const [device] = relayEnv.relay.services.devices.list();
    relayEnv.relay.services.devices.revoke(device!.id);
    await expect(page).toHaveURL(/\/pair$/);
    await expect.poll(() => prepaintCopy(page)).toBeNull();
  });

  test('FIRST-8: nothing on the Inbox moves while it loads, from the saved state to the relay\'s snapshot (no layout shift below the header)', async ({ paired: page, relayEnv }) => {
    // Groups above the Inbox group too, so a card drawn at a placeholder height would move the groups below it.
    for (let i = 0; i < 3; i++) addTaskIn(relayEnv.bus, 'claimed', `C-${i}`, `Being worked on ${i}, a title long enough to wrap onto a second line on a phone`);
    for (let i = 0; i < 14; i++) relayEnv.addPacket(`T-${String(i).padStart(2, '0')}`, `Waiting task ${i} with a title long enough to wrap onto a second line on a phone`);
    await expect(page.getByTestId('group-inbox').getByTestId('task-card')).toHaveCount(14);
    await expect(page.getByTestId('group-in-progress').getByTestId('task-card')).toHaveCount(3);
    await expect.poll(() => savedTasks(page)).toBe(17);
    await page.addInitScript(() => {
      const moved: string[] = ((window as unknown as { moved: string[] }).moved = []);
      new PerformanceObserver((list) => {
        for (const shift of list.getEntries() as unknown as { value: number; sources: { node: Node | null }[] }[]) {
          for (const { node } of shift.sources) {
            const element = node instanceof Element ? node : node?.parentElement;
            if (element?.closest('main')) moved.push(`${element.tagName.toLowerCase()}[${element.getAttribute('data-testid') ?? element.className}] ${shift.value.toFixed(4)}`);
          }
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const loaded = async () => {
      await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
      await expect(page.getByTestId('group-inbox').getByTestId('task-card')).toHaveCount(14);
      // Shifts are reported after the frame that made them: two more frames.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      return page.evaluate(() => (window as unknown as { moved: string[] }).moved);
    };
    await page.reload(); // from the saved state, then the relay's snapshot
    expect(await loaded(), 'shifts with the saved state').toEqual([]);
    await page.evaluate(() => new Promise<void>((resolve, reject) => { // without it: everything comes with the snapshot
      const open = indexedDB.open('commandr');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const tx = open.result.transaction('snapshot', 'readwrite');
        tx.objectStore('snapshot').clear();
        tx.oncomplete = () => { open.result.close(); resolve(); };
        tx.onerror = () => reject(tx.error);
      };
    }));
    await page.reload();
    expect(await loaded(), 'shifts without a saved state').toEqual([]);
  });
});

test('FIRST-12: the Inbox\'s cards come from the saved state and from a live event in a render React can pause, not in the task that read them', async ({ paired: page, relayEnv }) => {
  for (let i = 0; i < 12; i++) relayEnv.addPacket(`T-${String(i).padStart(2, '0')}`, `Waiting task ${i}`);
  const inbox = page.getByTestId('group-inbox');
  await expect(inbox.getByTestId('task-card')).toHaveCount(12);
  await expect.poll(() => savedTasks(page)).toBe(12);
  // A render React can pause reads the clock between pieces of work and yields to the browser
  // once 5 ms have passed; here each reading is 1 ms later than the last, so such a render
  // yields every few pieces. (At 3 ms a reading, every render here outlasted React's own limit:
  // an update that has waited 5 s is rendered synchronously, and each of them ended at a lead of
  // almost exactly 5 s, its last piece synchronous. Under two CPU hogs the test failed once with the
  // cards committed 2 ticks after a commit made for a frame from the relay, most likely such a
  // render interrupted and then finished at once. At 1 ms the render ends by itself, at a lead of
  // about 1 s.) A ticker (a message to itself at a time, the queue React's scheduler posts to as
  // well) counts the browser's tasks for as long as the page lives. The page marks the tick at
  // which IndexedDB answered a read (and from which store) or a frame came from the relay, and
  // React reports each commit to the developer tools' hook: the cards must be committed several
  // ticks after the read that brought them. A synchronous render (what a store read with useSyncExternalStore gets)
  // commits them in the very task of the answer. Only a read of the saved state or a frame can
  // bring cards; the device key's and the outbox's reads, made at the same moment, are listed
  // but not taken for the cause.
  await page.addInitScript(() => {
    const w = window as unknown as { commits: { cards: number; tick: number }[]; reads: { tick: number; from: string }[]; ticks: number };
    w.commits = [];
    w.reads = [];
    w.ticks = 0;
    const now = performance.now.bind(performance);
    let skew = 0;
    performance.now = () => now() + (skew += 1);
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      w.ticks += 1;
      channel.port2.postMessage(null);
    };
    channel.port2.postMessage(null);
    const Socket = WebSocket;
    window.WebSocket = class extends Socket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        this.addEventListener('message', () => w.reads.push({ tick: w.ticks, from: 'socket' }));
      }
    };
    for (const method of ['get', 'getAll', 'openCursor'] as const) {
      const read = IDBObjectStore.prototype[method] as (...args: unknown[]) => IDBRequest;
      (IDBObjectStore.prototype as unknown as Record<string, unknown>)[method] = function (this: IDBObjectStore, ...args: unknown[]) {
        const request = read.apply(this, args);
        request.addEventListener('success', () => w.reads.push({ tick: w.ticks, from: this.name }));
        return request;
      };
    }
    const cards = () => document.querySelectorAll('[data-testid="group-inbox"] [data-testid="task-card"]:not([data-testid="inbox-prepaint"] *)').length;
    (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: object }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true, isDisabled: false, renderers: new Map(),
      inject: () => 1, checkDCE: () => undefined, onScheduleFiberRoot: () => undefined,
      onCommitFiberUnmount: () => undefined, onPostCommitFiberRoot: () => undefined,
      onCommitFiberRoot: () => void w.commits.push({ cards: cards(), tick: w.ticks }),
    };
  });
  await page.reload(); // the socket connects only once the saved state is in the store (FIRST-8)
  await expect(inbox.getByTestId('task-card')).toHaveCount(12);
  /** Ticks from what set the render going to the first commit that shows more than `n` cards: the later of the commit before it (a store read right after hydration is checked in that commit's effects) and the last read that can bring cards (the saved state, a frame) answered before it. */
  const ticksToCards = async (n: number) => {
    const { commits, reads } = await page.evaluate(() => {
      const w = window as unknown as { commits: { cards: number; tick: number }[]; reads: { tick: number; from: string }[] };
      return { commits: w.commits, reads: w.reads };
    });
    const at = commits.findIndex((c) => c.cards > n);
    expect(at, `commits: ${JSON.stringify(commits)}`).toBeGreaterThan(0);
    const bringsCards = reads.filter((r) => r.from === 'snapshot' || r.from === 'socket');
    const cause = Math.max(commits[at - 1]!.tick, ...bringsCards.filter((r) => r.tick <= commits[at]!.tick).map((r) => r.tick));
    return { ticks: commits[at]!.tick - cause, seen: `reads at ${reads.map((r) => `${r.tick} (${r.from})`).join(', ')}; commits ${JSON.stringify(commits)}` };
  };
  const saved = await ticksToCards(0);
  expect(saved.ticks, `from the saved state: ${saved.seen}`).toBeGreaterThanOrEqual(3);

  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  relayEnv.addPacket('T-99', 'Arrives live');
  await expect(inbox.getByTestId('task-card')).toHaveCount(13);
  const live = await ticksToCards(12);
  expect(live.ticks, `from a live event: ${live.seen}`).toBeGreaterThanOrEqual(3);
});

/** Holds every script of the build until the returned call; counts the requests held. */
async function holdScripts(page: Page): Promise<{ release: () => void; asked: () => number }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  await page.route(/\/_next\/static\/.*\.js$/, async (route) => {
    asked++;
    await held;
    await route.continue().catch(() => undefined); // a page that went on meanwhile
  });
  return { release, asked: () => asked };
}

/** Before the page's own HTML is parsed: notes, at every frame, whether the Inbox's heading or the Pair copy would be painted. */
async function watchFrames(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { frames_: { inbox: number; pair: number } };
    w.frames_ = { inbox: 0, pair: 0 };
    const look = () => {
      const shown = (el: Element | null) => Boolean(el && el.checkVisibility() && el.getBoundingClientRect().height > 0);
      if (shown(document.getElementById('inbox-title'))) w.frames_.inbox++;
      if (shown(document.getElementById('pair-title'))) w.frames_.pair++;
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
}
const framesSeen = (page: Page) => page.evaluate(() => (window as unknown as { frames_: { inbox: number; pair: number } }).frames_);
const pairedMark = (page: Page) => page.evaluate(() => localStorage.getItem('commandr.paired'));

test.describe('an unpaired visit paints Pair first (service worker blocked, so scripts can be held back)', () => {
  test.use({ serviceWorkers: 'block' });

  test('FASTPAIR-1: an unpaired visit to / paints Pair before any script runs and never the Inbox; the app then moves to /pair keeping what was typed, and pairs', async ({ page, relayEnv }) => {
    await watchFrames(page);
    const scripts = await holdScripts(page);
    await page.goto(`${relayEnv.url}/`, { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { name: 'Pair this device' })).toBeVisible();
    await expect(page.getByTestId('pair-form')).toBeVisible();
    await expect(page.locator('#inbox-title')).toBeHidden();
    await expect(page.getByTestId('nav-inbox')).toBeHidden();
    expect(await page.evaluate(() => document.querySelector('[role="main"]')?.hasAttribute('data-pair-copy'))).toBe(true);
    // Typed before the app runs, into the copy.
    const code = relayEnv.pairingCode();
    await page.getByTestId('pair-code').fill(code);
    await page.getByTestId('pair-name').fill('Early Phone');
    expect(scripts.asked(), 'the app\'s scripts were requested and are being held').toBeGreaterThan(3);
    expect(page.url()).toBe(`${relayEnv.url}/`);

    scripts.release();
    await expect(page).toHaveURL(/\/pair$/);
    await expect(page.getByTestId('pair-name')).toHaveAttribute('placeholder', /\S/); // the real screen runs
    await expect(page.locator('[data-pair-copy]')).toHaveCount(0);
    await expect(page.getByTestId('pair-code')).toHaveValue(code);
    await expect(page.getByTestId('pair-name')).toHaveValue('Early Phone');
    await expect(page.getByTestId('pair-name')).toBeFocused(); // the focus moved with the text
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-unpaired'))).toBe(false);
    const frames = await framesSeen(page);
    expect(frames.inbox, 'frames that showed the Inbox').toBe(0);
    expect(frames.pair, 'frames that showed Pair').toBeGreaterThan(0);

    await page.getByTestId('pair-submit').click();
    await expect(page).toHaveURL(`${relayEnv.url}/`);
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
    expect(await pairedMark(page)).toBe('1');
  });

  test('FASTPAIR-1: another screen of an unpaired visit (Settings) paints Pair too; the not-found page does not', async ({ page, relayEnv }) => {
    const scripts = await holdScripts(page);
    await page.goto(`${relayEnv.url}/settings`, { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { name: 'Pair this device' })).toBeVisible();
    await expect(page.getByTestId('nav-settings')).toBeHidden();
    scripts.release();
    await expect(page).toHaveURL(/\/pair$/);
    await expect(page.locator('[data-pair-copy]')).toHaveCount(0);
    await expect(page.getByTestId('pair-form')).toBeVisible();
    const missing = await (await page.request.get(`${relayEnv.url}/no-such-page`)).text();
    expect(missing).not.toContain('data-pair-first');
  });

  test('FASTPAIR-1, FASTPAIR-2: a paired browser paints the screen it asked for, with no Pair copy, before any script runs', async ({ paired: page }) => {
    expect(await pairedMark(page), 'pairing set the mark').toBe('1');
    await watchFrames(page);
    const scripts = await holdScripts(page);
    await page.reload({ waitUntil: 'commit' });
    await expect(page.locator('#inbox-title')).toBeVisible();
    await expect(page.getByTestId('nav-inbox')).toBeVisible();
    await expect(page.locator('[data-pair-copy]')).toHaveCount(0);
    expect(scripts.asked()).toBeGreaterThan(3);
    scripts.release();
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
    expect((await framesSeen(page)).pair, 'frames that showed Pair').toBe(0);
  });

  test('FASTPAIR-2: a device with a key but no mark (paired before the mark existed) sees Pair only until its key is read, then its Inbox; the mark is set again', async ({ paired: page, relayEnv }) => {
    await page.evaluate(() => {
      localStorage.removeItem('commandr.paired');
      localStorage.removeItem('commandr.inbox');
    });
    await page.reload();
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
    await expect(page.locator('#inbox-title')).toBeVisible();
    await expect(page.locator('[data-pair-copy]')).toHaveCount(0);
    await expect(page.getByTestId('nav-inbox')).toBeVisible();
    expect(page.url()).toBe(`${relayEnv.url}/`);
    expect(await pairedMark(page)).toBe('1');
  });

  test('FASTPAIR-2: a device the relay revoked loses the mark, so its next visit paints Pair at once', async ({ paired: page, relayEnv }) => {
    const [device] = relayEnv.relay.services.devices.list();
    relayEnv.relay.services.devices.revoke(device!.id);
    await expect(page).toHaveURL(/\/pair$/);
    await expect.poll(() => pairedMark(page)).toBeNull();
    const scripts = await holdScripts(page);
    await page.goto(`${relayEnv.url}/`, { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { name: 'Pair this device' })).toBeVisible();
    await expect(page.locator('#inbox-title')).toBeHidden();
    scripts.release();
  });
});
