// COLD-1/COLD-2: the relay sends the app precompressed (Brotli or gzip by
// Accept-Encoding, with Vary) and large socket frames deflated. Real relay, real
// files compressed by the build's own precompress step, raw HTTP so nothing
// decompresses behind the test's back.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without types
import { precompressDir } from '../../scripts/precompress.mjs';
import { appendEvent } from '../../bus/event-log';
import { connectDevice } from '../helpers/device';
import { cleanup, startRelay, tempDir } from '../relay-core/setup';
import { makeRepo, startWatching } from './fixture';

afterEach(cleanup);

/** Text that compresses like real minified JS: repeated words with some noise. */
function scriptText(bytes: number): string {
  const words = ['function', 'return', 'const', 'useState', 'props', 'children', 'className', 'null', 'undefined'];
  let out = '';
  let i = 0;
  while (out.length < bytes) out += `${words[i++ % words.length]}(${crypto.randomInt(1000)});`;
  return out.slice(0, bytes);
}

function builtApp(): { dir: string; js: string } {
  const dir = tempDir('commandr-app-');
  const js = scriptText(200_000);
  const files: Record<string, string> = {
    'index.html': `<!doctype html><title>home</title>${'<p>pair this phone</p>'.repeat(200)}`,
    '_next/static/chunks/app-0123abcd.js': js,
    'icon.png': 'not really a png',
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  precompressDir(dir);
  return { dir, js };
}

interface Raw { status: number; headers: http.IncomingHttpHeaders; body: Buffer }

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

function decode(raw: Raw): string {
  const encoding = raw.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(raw.body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(raw.body).toString('utf8');
  expect(encoding).toBeUndefined();
  return raw.body.toString('utf8');
}

describe('precompressed static assets', () => {
  it('COLD-1: serves Brotli, else gzip, else identity by Accept-Encoding, with Vary and the exact bytes', async () => {
    const app = builtApp();
    const relay = await startRelay({ appDir: app.dir });
    const url = `${relay.url}/_next/static/chunks/app-0123abcd.js`;
    const cases: Array<[string | undefined, string | undefined]> = [
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=1.0, gzip;q=0.8', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['*', 'br'],
      ['identity', undefined],
      ['br;q=0, gzip;q=0', undefined],
      [undefined, undefined],
    ];
    const sizes: Record<string, number> = {};
    for (const [accept, expected] of cases) {
      const raw = await get(url, accept === undefined ? {} : { 'accept-encoding': accept });
      expect(raw.status, accept).toBe(200);
      expect(raw.headers['content-encoding'], accept).toBe(expected);
      expect(raw.headers.vary, accept).toBe('Accept-Encoding');
      expect(Number(raw.headers['content-length']), accept).toBe(raw.body.length);
      expect(decode(raw), accept).toBe(app.js);
      sizes[expected ?? 'identity'] = raw.body.length;
    }
    expect(sizes.identity).toBe(200_000);
    expect(sizes.gzip).toBeLessThan(sizes.identity! / 2);
    expect(sizes.br).toBeLessThan(sizes.gzip!);

    // HTML too; a PNG (not compressible) is sent as it is, without Vary.
    const html = await get(`${relay.url}/`, { 'accept-encoding': 'br' });
    expect(html.headers['content-encoding']).toBe('br');
    expect(decode(html)).toContain('<title>home</title>');
    const png = await get(`${relay.url}/icon.png`, { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers.vary).toBeUndefined();
    expect(png.body.toString()).toBe('not really a png');
  });

  it('COLD-1: each encoding has its own ETag; If-None-Match answers 304 only for the same representation', async () => {
    const app = builtApp();
    const relay = await startRelay({ appDir: app.dir });
    const url = `${relay.url}/_next/static/chunks/app-0123abcd.js`;
    const br = await get(url, { 'accept-encoding': 'br' });
    const gz = await get(url, { 'accept-encoding': 'gzip' });
    const plain = await get(url);
    const tags = [br, gz, plain].map((r) => r.headers.etag);
    expect(new Set(tags).size).toBe(3);

    const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.vary).toBe('Accept-Encoding');
    expect(again.headers.etag).toBe(br.headers.etag);
    // A Brotli tag does not validate a gzip request: the full gzip body comes back.
    const other = await get(url, { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag! });
    expect(other.status).toBe(200);
    expect(decode(other)).toBe(app.js);
    // A list of tags matches when one of them does.
    const listed = await get(url, { 'accept-encoding': 'gzip', 'if-none-match': `${br.headers.etag}, ${gz.headers.etag}` });
    expect(listed.status).toBe(304);

    const head = await get(url, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-length']).toBe(String(br.body.length));
    expect(head.body.length).toBe(0);
  });

  it('COLD-1: a sibling older than its source (the file changed after the build) is never served', async () => {
    const app = builtApp();
    const relay = await startRelay({ appDir: app.dir });
    const file = path.join(app.dir, '_next/static/chunks/app-0123abcd.js');
    fs.writeFileSync(file, 'console.log("rebuilt");');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(file, later, later);
    const raw = await get(`${relay.url}/_next/static/chunks/app-0123abcd.js`, { 'accept-encoding': 'br, gzip' });
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.body.toString()).toBe('console.log("rebuilt");');
  });
});

describe('socket compression', () => {
  it('COLD-2: permessage-deflate is negotiated and a large frame crosses the wire compressed, arriving intact', async () => {
    const repo = makeRepo(['A-1']);
    const note = 'step done: compiled, tested, linted; '.repeat(20);
    for (let i = 0; i < 400; i += 1) appendEvent(repo.bus, { event: 'task_progress', task: 'A-1', note: `${i} ${note}` });
    const relay = await startWatching(repo);
    let socket: net.Socket | undefined;
    const client = await connectDevice(relay, 'phone', {
      ws: { createConnection: (options: net.NetConnectOpts) => (socket = net.connect(options)) } as never,
    });
    expect(client.ws.extensions).toContain('permessage-deflate');
    const before = socket!.bytesRead;
    let received = 0;
    client.ws.on('message', (data: Buffer) => void (received += data.length));
    const repoId = (await client.request({ type: 'subscribe' })).result as { repos: Array<{ id: string }> };
    const snapshot = await client.next('repo.snapshot');
    await client.request({ type: 'subscribe', cursors: { [repoId.repos[0]!.id]: { offset: 0, epoch: snapshot.cursor.epoch } } });
    const notes: string[] = [];
    while (notes.length < 400) {
      const frame = await client.next('bus.events');
      for (const e of frame.events) if (e.event.event === 'task_progress') notes.push(String(e.event.note));
    }
    expect(notes).toEqual(Array.from({ length: 400 }, (_, i) => `${i} ${note}`));
    const onWire = socket!.bytesRead - before;
    expect(received).toBeGreaterThan(300_000);
    expect(onWire).toBeLessThan(received / 5);
    await client.close();
  });
});
