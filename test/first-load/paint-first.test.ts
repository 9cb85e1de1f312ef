// FIRST-10: the build moves every page script behind the first paint — downloads still
// start from the head, the scripts run from one loader at the end of the body. Real
// files in a temp dir, the build's own step; the loader itself runs in a real Chromium
// in e2e/first-load.spec.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without types
import { LOADER_MARK, addPaintFirst, loadedScripts, paintFirst } from '../../scripts/paint-first.mjs';
// @ts-expect-error -- a plain .mjs build script without types
import { inlineScriptHashes } from '../../scripts/csp-hashes.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const page = (head: string, body: string) => `<!DOCTYPE html><html><head><meta charSet="utf-8"/>${head}</head><body>${body}</body></html>`;
const NEXT_PAGE = page(
  '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/webpack-1.js"/>'
    + '<script src="/_next/static/chunks/react-2.js" async=""></script><script src="/_next/static/chunks/app/page-3.js" async=""></script>'
    + '<script src="/_next/static/chunks/polyfills-4.js" noModule=""></script>',
  '<h1>Inbox</h1><script src="/_next/static/chunks/webpack-1.js" id="_R_" async=""></script>'
    + '<script>(self.__next_f=self.__next_f||[]).push([0])</script><script>self.__next_f.push([1,"</body> in the payload"])</script>',
);

describe('paint first (FIRST-10)', () => {
  it('FIRST-10: every async page script becomes a low-priority preload in the head and an entry of one loader at the end of the body', () => {
    const html = paintFirst(NEXT_PAGE);
    expect(html).not.toMatch(/<script[^>]*\ssrc="\/_next\/static\/chunks\/(react-2|app\/page-3|webpack-1)\.js"/);
    expect(loadedScripts(html)).toEqual(['/_next/static/chunks/react-2.js', '/_next/static/chunks/app/page-3.js', '/_next/static/chunks/webpack-1.js']);
    const head = html.slice(0, html.indexOf('</head>'));
    // Each download still starts from the head, once: Next's own preload of the runtime is not repeated.
    for (const src of ['react-2', 'app/page-3', 'webpack-1']) {
      expect(head.match(new RegExp(`<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/${src}\\.js"/>`, 'g')), src).toHaveLength(1);
    }
    // The legacy polyfills stay a nomodule tag (a module browser never fetches them); the flight data stays inline.
    expect(html).toContain('<script src="/_next/static/chunks/polyfills-4.js" noModule=""></script>');
    expect(html).toContain('<script>self.__next_f.push([1,"</body> in the payload"])</script>');
    // The loader is the body's last element (after the content and the flight data) and keeps the runtime's id.
    const loader = html.slice(html.lastIndexOf('<script '));
    expect(loader.startsWith(`<script ${LOADER_MARK}="">`)).toBe(true);
    expect(loader).toContain('"id":"_R_"');
    expect(loader.endsWith('})()</script></body></html>')).toBe(true);
    expect(html.indexOf('<h1>Inbox</h1>')).toBeLessThan(html.indexOf(LOADER_MARK));
  });

  it('FIRST-10: the loader is an inline script the CSP allows by hash, and a page that has one is left alone', () => {
    const once = paintFirst(NEXT_PAGE);
    expect(paintFirst(once)).toBe(once);
    // The build hashes it with the flight data (CSP-2): three inline scripts now, one of them the loader.
    expect(inlineScriptHashes(once)).toHaveLength(3);
    expect(inlineScriptHashes(NEXT_PAGE)).toHaveLength(2);
    // A page without a script of the build (a redirect stub) is unchanged.
    const plain = page('', '<p>Moved.</p>');
    expect(paintFirst(plain)).toBe(plain);
  });

  it('FIRST-10: a script name cannot break out of the loader, and a blocking script fails the build with its name', () => {
    const hostile = paintFirst(page('', '<script src="/_next/static/chunks/a</script><img src=x onerror=alert(1)>.js" async=""></script>'));
    // The attribute value ends at its quote; what the loader holds is JSON with `<` escaped.
    const loader = hostile.slice(hostile.indexOf(LOADER_MARK));
    expect(loader.indexOf('</script>')).toBe(loader.indexOf('})()</script>') + 4);
    expect(() => paintFirst(page('<script src="/_next/static/chunks/sync-5.js"></script>', ''))).toThrow(/sync-5\.js is not async/);
    expect(() => paintFirst('<script src="/_next/static/chunks/a.js" async=""></script>')).toThrow(/no <\/head> or <\/body>/);
  });

  it('FIRST-10: the build step rewrites every exported page once and says how many it changed', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-paint-first-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'pair'));
    fs.writeFileSync(path.join(dir, 'index.html'), NEXT_PAGE);
    fs.writeFileSync(path.join(dir, 'pair', 'index.html'), NEXT_PAGE.replace('<h1>Inbox</h1>', '<h1>Pair</h1>'));
    fs.writeFileSync(path.join(dir, '404.html'), page('', '<p>Not found.</p>'));
    expect(addPaintFirst(dir)).toBe(2);
    expect(loadedScripts(fs.readFileSync(path.join(dir, 'pair', 'index.html'), 'utf8'))).toHaveLength(3);
    expect(addPaintFirst(dir)).toBe(0);
  });
});
