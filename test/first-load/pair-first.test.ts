// FASTPAIR-1: the build step that puts the Pair screen into every other exported page, for an
// unpaired visit to paint before any script runs. Real files in a temp dir, the build's own
// step; the script itself runs in a real Chromium in e2e/first-load.spec.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without types
import { PAIRED_KEYS, PAIR_FIRST_MARK, addPaintFirst, pairFirst, pairScreenOf } from '../../scripts/paint-first.mjs';
// @ts-expect-error -- a plain .mjs build script without types
import { inlineScriptHashes } from '../../scripts/csp-hashes.mjs';
import { PAIRED_KEY, PAIR_COPY_ATTR, PREPAINT_KEY, UNPAIRED_ATTR } from '../../app/lib/prepaint';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const page = (main: string) => '<!DOCTYPE html><html><head><meta charSet="utf-8"/></head><body><div hidden=""></div>'
  + `<header class="shell-header"><p>Commandr</p></header><main class="shell-main">${main}<!--$--><!--/$--></main><nav class="shell-nav"></nav></body></html>`;
const PAIR_SCREEN = '<section aria-labelledby="pair-title"><h1 id="pair-title">Pair this device</h1><form data-testid="pair-form"><input id="pair-code"/></form></section>';

describe('pair first (FASTPAIR-1)', () => {
  it('FASTPAIR-1: a page gets the Pair screen in a template right after its header, the script that shows it, and the rule that hides its own screen; Pair\'s own page is read from its <main>', () => {
    const screen = pairScreenOf(page(PAIR_SCREEN));
    expect(screen).toBe(PAIR_SCREEN); // React's Suspense markers left out
    const html = pairFirst(page('<h1>Inbox</h1>'), screen);
    expect(html).toContain(`</header><template ${PAIR_FIRST_MARK}="">${PAIR_SCREEN}</template><script ${PAIR_FIRST_MARK}="">`);
    // Before the page's own screen, so it runs before that screen is parsed (and painted).
    expect(html.indexOf(`<script ${PAIR_FIRST_MARK}`)).toBeLessThan(html.indexOf('<main'));
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`html[${UNPAIRED_ATTR}] .shell-main:not([${PAIR_COPY_ATTR}]),html[${UNPAIRED_ATTR}] .shell-nav{display:none}`);
    expect(html).toContain(`setAttribute("${UNPAIRED_ATTR}","")`);
    expect(html).toContain(`setAttribute("${PAIR_COPY_ATTR}","")`);
    // The script reads the keys the app writes: the paired mark and the Inbox's copy (app/lib/prepaint.ts).
    expect(PAIRED_KEYS).toEqual([PAIRED_KEY, PREPAINT_KEY]);
    // One more inline script, allowed by hash (CSP-2); a page that has it is left alone.
    expect(inlineScriptHashes(html)).toHaveLength(1);
    expect(pairFirst(html, screen)).toBe(html);
  });

  it('FASTPAIR-1: a Pair page without its form, or a screen holding a script, fails the build with the reason', () => {
    expect(() => pairScreenOf(page('<h1>Pair</h1>'))).toThrow(/no <main> holding its form/);
    expect(() => pairFirst(page(''), '<section><script>alert(1)</script></section>')).toThrow(/holds a template or a script/);
    expect(() => pairFirst('<html><head></head><body></body></html>', PAIR_SCREEN)).toThrow(/no <\/header>/);
  });

  it('FASTPAIR-1: the build step puts the copy into every page but Pair and the not-found pages, once', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-pair-first-'));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'pair.html'), page(PAIR_SCREEN));
    for (const name of ['index.html', 'settings.html', '404.html', '_not-found.html']) fs.writeFileSync(path.join(dir, name), page(`<h1>${name}</h1>`));
    expect(addPaintFirst(dir)).toBe(2);
    const has = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8').includes(PAIR_FIRST_MARK);
    expect(['index.html', 'settings.html', 'pair.html', '404.html', '_not-found.html'].map(has)).toEqual([true, true, false, false, false]);
    expect(addPaintFirst(dir)).toBe(0);
  });
});
