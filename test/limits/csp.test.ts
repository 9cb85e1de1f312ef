// CSP-2/CSP-3: the relay's script-src is 'self' plus the hashes build:app wrote for
// the exported pages' inline scripts — never 'unsafe-inline', and a tampered hash
// file cannot widen it. Real relay, hashes made by the build's own step.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without types
import { inlineScriptHashes, writeCspHashes } from '../../scripts/csp-hashes.mjs';
import { cleanup, startRelay, tempDir } from '../relay-core/setup';

afterEach(cleanup);

const scriptSrc = (csp: string | null): string => csp!.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'))!;

describe('content security policy', () => {
  it('CSP-2: script-src lists the sha256 of every inline script of the built pages and no unsafe-inline', async () => {
    const app = tempDir('commandr-app-');
    fs.writeFileSync(path.join(app, 'index.html'), '<!doctype html><script src="/a.js" async=""></script><script>self.__next_f.push([1,"a"])</script><p>x</p>');
    fs.mkdirSync(path.join(app, 'settings'));
    fs.writeFileSync(path.join(app, 'settings', 'index.html'), '<script>self.__next_f.push([1,"b"])</script><script id="x">\nlet y = 2;\n</script>');
    expect(writeCspHashes(app)).toBe(3);
    const relay = await startRelay({ appDir: app });
    const res = await fetch(`${relay.url}/`);
    const src = scriptSrc(res.headers.get('content-security-policy'));
    expect(src).not.toContain('unsafe-inline');
    const expected = [
      ...inlineScriptHashes('<script>self.__next_f.push([1,"a"])</script>'),
      ...inlineScriptHashes('<script>self.__next_f.push([1,"b"])</script>'),
      ...inlineScriptHashes('<script id="x">\nlet y = 2;\n</script>'),
    ];
    expect(src.split(' ').slice(1).sort()).toEqual(["'self'", ...expected].sort());
    // The same policy on API answers and on the not-found page.
    expect(scriptSrc((await fetch(`${relay.url}/healthz`)).headers.get('content-security-policy'))).toBe(src);
  });

  it('CSP-3: entries of the hash file that are not sha256 hashes are ignored; no file means script-src \'self\' only', async () => {
    const app = tempDir('commandr-app-');
    fs.writeFileSync(path.join(app, 'index.html'), '<!doctype html><p>x</p>');
    fs.writeFileSync(path.join(app, 'csp-hashes.json'), JSON.stringify({ scriptSrc: ["'unsafe-inline'", 'https://evil.example', "'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='", "'sha256-x' 'unsafe-eval'"] }));
    const relay = await startRelay({ appDir: app });
    expect(scriptSrc((await fetch(`${relay.url}/`)).headers.get('content-security-policy'))).toBe("script-src 'self' 'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='");
    const bare = await startRelay({ appDir: tempDir('commandr-empty-') });
    expect(scriptSrc((await fetch(`${bare.url}/`)).headers.get('content-security-policy'))).toBe("script-src 'self'");
  });
});
