// CSP-1..3 in a real Chromium: hostile links in a task body (the known filter
// evasions) render as text and run nothing, nothing gets signed, the relay's CSP
// has no 'unsafe-inline' for scripts, an injected inline script is refused, and
// the app itself loads with no CSP violation.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { realpathSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { repoIdOf } from '../relay/watch/repo-id';
import { expect, test } from './fixtures';

const HOSTILE = [
  '[t1](java&#9;script:window.__pwned=1)',
  '[t2](&#x01;javascript:window.__pwned=2)',
  '[t3](&#106;avascript:window.__pwned=3)',
  '[t4](JaVaScRiPt:window.__pwned=4)',
  '[t5](data:text/html;base64,PHNjcmlwdD5vcGVuZXIuX19wd25lZD01PC9zY3JpcHQ+)',
  '[t6](vbscript:msgbox(6))',
  '[t7](<java\tscript:window.__pwned=7>)',
  '[t8](\u0001javascript:window.__pwned=8)',
  '[t9](  javascript:window.__pwned=9)',
  '<java\tscript:window.__pwned=10>',
  '[t11](javascript&#58;window.__pwned=11)',
];

/** Collects CSP violations the page reports, from the console and from the DOM event. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (m) => { if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text()); });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`Content-Security-Policy violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return violations;
}

test('CSP-2: the CSP allows no inline script but the build\'s hashes, the app loads on Pair and Inbox with no violation, and an injected inline script is refused', async ({ page, relayEnv }) => {
  const violations = await watchCsp(page);
  const res = await page.goto(`${relayEnv.url}/pair#code=${relayEnv.pairingCode()}`);
  const csp = res!.headers()['content-security-policy']!;
  const scriptSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'))!;
  expect(scriptSrc).not.toContain('unsafe-inline');
  expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/]{43}='/);
  await page.getByTestId('pair-name').fill('CSP phone');
  await page.getByTestId('pair-submit').click();
  await expect(page).toHaveURL(`${relayEnv.url}/`);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  await page.reload();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  expect(violations).toEqual([]);

  // An inline script that was not in the build is not run (the point of dropping 'unsafe-inline').
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.body.append(s);
    return (window as unknown as { __inline?: number }).__inline ?? null;
  });
  expect(ran).toBeNull();
  await expect.poll(() => violations.length).toBeGreaterThan(0);
});

test('CSP-1: known javascript:/data:/vbscript: filter evasions in a task body render as text, run nothing and sign nothing', async ({ paired: page, relayEnv }) => {
  const id = 'X-1';
  const body = `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# Hostile links\n\n${HOSTILE.map((l) => `- ${l}`).join('\n')}\n- [safe](https://example.com/ok)\n- [mail](mailto:someone@example.com)\n- [here](/settings)\n`;
  writeFileSync(path.join(relayEnv.bus, 'inbox', `${id}.md`), body);
  const repoId = repoIdOf(realpathSync(relayEnv.repo));
  const signed: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => { if (typeof f.payload === 'string' && f.payload.includes('"sig"')) signed.push(f.payload); }));
  const popups: string[] = [];
  page.context().on('page', (p) => popups.push(p.url()));
  await page.goto(`${relayEnv.url}/task?repo=${encodeURIComponent(repoId)}&id=${id}`);
  await page.getByTestId('task-brief').locator('summary').click(); // the brief starts folded (UX-2)
  const taskBody = page.getByTestId('task-body');
  await expect(taskBody.getByText('t4')).toBeVisible();
  signed.length = 0; // the socket's auth answer is signed; actions must not be

  const hrefs = await taskBody.locator('a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  expect(hrefs).toEqual(expect.arrayContaining(['https://example.com/ok', 'mailto:someone@example.com', `${relayEnv.url}/settings`]));
  for (const href of hrefs) expect(['http:', 'https:', 'mailto:']).toContain(new URL(href).protocol);
  // Entity forms marked leaves encoded become harmless paths on the relay's own origin; nothing else is a link.
  const others = hrefs.filter((h) => !['https://example.com/ok', 'mailto:someone@example.com', `${relayEnv.url}/settings`].includes(h));
  for (const href of others) expect(href.startsWith(`${relayEnv.url}/`), href).toBe(true);
  const linked = await taskBody.locator('a').allTextContents();
  for (const label of ['t4', 't5', 't6', 't7', 't8', 't9']) expect(linked).not.toContain(label);

  // Click every hostile item that is text: nothing may happen.
  for (const label of ['t4', 't5', 't6', 't7', 't8', 't9']) {
    await taskBody.getByText(label, { exact: false }).first().click();
  }
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null)).toBeNull();
  expect(popups.filter((u) => !u.startsWith('http'))).toEqual([]);
  expect(signed).toEqual([]);
  // Nothing reached the bus either (no event log at all, or none written by an action).
  const written = existsSync(path.join(relayEnv.bus, 'events.jsonl')) ? relayEnv.events() : [];
  expect(written.filter((e) => e.event.startsWith('approval_') || e.event === 'task_annotation')).toEqual([]);
});
