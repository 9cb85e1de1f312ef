import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http2 from 'node:http2';
import * as https from 'node:https';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestCertificate } from '../helpers/certificate';
import { connectDevice, newKeyPair } from '../helpers/device';
import { cleanup, startRelay, tempDir } from './setup';

afterEach(cleanup);

const root = path.resolve(__dirname, '..', '..');

/** A tiny Next.js-like static export. */
function fakeApp(): string {
  const dir = tempDir('commandr-app-');
  const files: Record<string, string> = {
    'index.html': '<!doctype html><title>home</title>',
    'task.html': '<!doctype html><title>task</title>',
    '404.html': '<!doctype html><title>not found</title>',
    'settings/index.html': '<!doctype html><title>settings</title>',
    'sw.js': 'self.addEventListener("fetch", () => {});',
    'manifest.webmanifest': '{"name":"Commandr"}',
    '_next/static/chunks/app-0123abcd.js': 'console.log(1)',
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  fs.writeFileSync(path.join(path.dirname(dir), 'secret.txt'), 'secret');
  return dir;
}

describe('http', () => {
  it('HTTP-1: GET /healthz answers {ok:true, version}', async () => {
    const relay = await startRelay();
    const res = await fetch(`${relay.url}/healthz`);
    expect(await res.json()).toEqual({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('HTTP-2: the app is served with the right caching per kind of file and .html resolution', async () => {
    const relay = await startRelay({ appDir: fakeApp() });
    const get = async (p: string) => {
      const res = await fetch(`${relay.url}${p}`);
      return { status: res.status, cache: res.headers.get('cache-control'), type: res.headers.get('content-type'), body: await res.text() };
    };
    expect(await get('/')).toMatchObject({ status: 200, cache: 'no-cache', type: 'text/html; charset=utf-8', body: expect.stringContaining('home') });
    expect(await get('/task')).toMatchObject({ status: 200, body: expect.stringContaining('<title>task') });
    expect(await get('/settings')).toMatchObject({ status: 200, body: expect.stringContaining('settings') });
    expect(await get('/sw.js')).toMatchObject({ status: 200, cache: 'no-cache', type: 'text/javascript; charset=utf-8' });
    expect(await get('/_next/static/chunks/app-0123abcd.js')).toMatchObject({ status: 200, cache: 'public, max-age=31536000, immutable' });
    expect(await get('/manifest.webmanifest')).toMatchObject({ type: 'application/manifest+json' });
    expect(await get('/no/such/route')).toMatchObject({ status: 404, cache: 'no-cache', body: expect.stringContaining('not found') });
    expect(await get('/api/nothing')).toMatchObject({ status: 404, type: expect.stringContaining('application/json') });
  });

  it('HTTP-3: paths cannot escape the app directory', async () => {
    const relay = await startRelay({ appDir: fakeApp() });
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e%5csecret.txt', '/%00', '/%E0%A4%A']) {
      const res = await fetch(`${relay.url}${p}`);
      expect(await res.text()).not.toBe('secret');
    }
  });

  it('HTTP-4: every response carries CSP (self + ws self), nosniff and no-referrer', async () => {
    const relay = await startRelay({ appDir: fakeApp() });
    for (const p of ['/', '/healthz', '/api/nothing']) {
      const res = await fetch(`${relay.url}${p}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain(`connect-src 'self' ${relay.url.replace('http', 'ws')}`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('FIRST-5: the build\'s hashed assets carry nosniff and no-referrer but not the document-only headers (CSP, frame and opener policies)', async () => {
    const relay = await startRelay({ appDir: fakeApp() });
    const asset = await fetch(`${relay.url}/_next/static/chunks/app-0123abcd.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('referrer-policy')).toBe('no-referrer');
    for (const name of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy']) expect(asset.headers.get(name), name).toBeNull();
    // Anything else keeps them: pages, the worker (its CSP governs it), an unknown asset path, the API.
    for (const p of ['/', '/sw.js', '/_next/static/chunks/missing.js', '/_next/data.js', '/api/nothing']) {
      const res = await fetch(`${relay.url}${p}`);
      expect(res.headers.get('content-security-policy'), p).toContain("default-src 'self'");
      expect(res.headers.get('x-frame-options'), p).toBe('DENY');
    }
  });

  it('HTTP-5: with no built app, every page says so and how to build it', async () => {
    const relay = await startRelay({ appDir: path.join(tempDir(), 'out') });
    const res = await fetch(`${relay.url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/not built yet[\s\S]*next build/);
  });

  it('SERVE-1: --tls-cert/--tls-key serve https and wss', async () => {
    const tls = makeTestCertificate();
    const relay = await startRelay({ tls });
    expect(relay.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = tls.cert;
    const health = await new Promise<string>((resolve, reject) => {
      https.get(`${relay.url}/healthz`, { ca }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
    expect(JSON.parse(health)).toMatchObject({ ok: true });
    const phone = await connectDevice({ ...relay, ca });
    const ack = await phone.request({ type: 'device.list' });
    expect(ack.type).toBe('ack');
    await phone.close();
  });

  it('SERVE-1: the relay\'s TLS speaks HTTP/2 (ALPN h2) with the same answers and Origin rules, :authority standing for Host; close() ends open sessions', async () => {
    const tls = makeTestCertificate();
    const relay = await startRelay({ appDir: fakeApp(), tls });
    const port = new URL(relay.url).port;
    const session = http2.connect(relay.url, { ca: tls.cert });
    session.on('error', () => undefined);
    const ask = (headers: http2.OutgoingHttpHeaders, body?: string) => new Promise<{ headers: http2.IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const stream = session.request(headers);
      let text = '';
      let answer: http2.IncomingHttpHeaders = {};
      stream.setEncoding('latin1');
      stream.on('response', (h) => (answer = h));
      stream.on('data', (chunk: string) => (text += chunk));
      stream.on('end', () => resolve({ headers: answer, text }));
      stream.on('error', reject);
      stream.end(body);
    });
    const page = await ask({ ':path': '/task', 'accept-encoding': 'gzip' });
    expect(page.headers[':status']).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(page.text).toContain('<title>task</title>');
    const pair = (authority: string, origin: string) => ask({ ':method': 'POST', ':path': '/api/pair', ':authority': authority, origin, 'content-type': 'application/json' },
      JSON.stringify({ code: 'x'.repeat(43), name: 'p', publicKey: newKeyPair().publicJwk }));
    // The relay's own origin, and localhost named in :authority, reach the route (a wrong code)…
    for (const [authority, origin] of [[`127.0.0.1:${port}`, relay.url], [`localhost:${port}`, `https://localhost:${port}`]]) {
      expect(JSON.parse((await pair(authority, origin)).text).error.code).toBe('E_PAIRING_CODE');
    }
    // …a page elsewhere, or a rebound name in :authority, does not.
    for (const [authority, origin] of [[`127.0.0.1:${port}`, 'https://evil.example'], [`evil.example:${port}`, `https://evil.example:${port}`]]) {
      const refused = await pair(authority, origin);
      expect(refused.headers[':status']).toBe(403);
      expect(JSON.parse(refused.text).error.code).toBe('E_FORBIDDEN_ORIGIN');
    }
    const ended = new Promise<void>((resolve) => session.once('close', () => resolve()));
    await relay.close(); // with the session still open
    await ended;
  });

  it('SERVE-2: `commandr serve --port 0` prints `listening: <url>` first, then a pairing URL (for this computer on loopback, REACH-1)', async () => {
    const dataDir = tempDir();
    const script = `require('./cli/relay.ts').main(['serve', '--port', '0', '--data', ${JSON.stringify(dataDir)}, '--app-dir', ${JSON.stringify(path.join(dataDir, 'out'))}])`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          out += chunk;
          if (/pair#code=[A-Za-z0-9_-]{43}/.test(out) && out.includes('docs/reaching.md')) resolve();
        });
        child.once('exit', () => reject(new Error(`serve exited early: ${out}`)));
      });
      const url = /^listening: (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out)?.[1];
      expect(url).toBeDefined();
      const code = /pair#code=([A-Za-z0-9_-]{43})/.exec(out)![1]!;
      expect(out).toContain(`${url}/pair#code=${code}`);
      // the banner's code pairs a device, once
      const relay = { url: url!, dataDir };
      const pair = (name: string) =>
        fetch(`${url}/api/pair`, { method: 'POST', body: JSON.stringify({ code, name, publicKey: newKeyPair().publicJwk }) });
      expect((await pair('phone')).status).toBe(201);
      expect((await pair('again')).status).toBe(403);
      const phone = await connectDevice(relay);
      await phone.close();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
