// Reaching the relay from a phone (REACH-n) and the serve/devices traps (CLIUX-n):
// the real `commandr` bundle as a child process, a real self-signed certificate
// (openssl), a real Node reverse proxy, a stand-in `tailscale` on PATH.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRelay, type Relay } from '../../relay/server';
import { connectDevice, newKeyPair, openSocket, postJson, type RelayAddress } from '../helpers/device';
import { buildRelayInstall } from './child-relay';

let install: string;
let dir: string;
let env: NodeJS.ProcessEnv;
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  install = await buildRelayInstall();
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'relay-reach-')));
  fs.mkdirSync(path.join(dir, 'home'));
  fs.mkdirSync(path.join(dir, 'nobin'));
  // PATH without any tailscale (the tests that want one add a stand-in in front).
  env = { ...process.env, HOME: path.join(dir, 'home'), COMMANDR_HOME: path.join(dir, 'unused'), PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` };
});

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  for (const f of cleanups.splice(0)) await f();
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(install, { recursive: true, force: true });
});

const bin = (): string => path.join(install, 'bin', 'commandr');
let dataN = 0;
const dataDir = (): string => path.join(dir, `data-${++dataN}`);

/** Starts `commandr serve …` and resolves with its stdout once `until` matches it. */
function serve(args: string[], until: RegExp, extraEnv: Record<string, string> = {}): Promise<{ out: string; child: ChildProcess }> {
  const child = spawn(bin(), ['serve', '--no-demo', '--app-dir', path.join(dir, 'no-app'), ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (until.test(out)) resolve({ out, child });
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before ${until}: ${out}${err}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const codeIn = (out: string, origin: string): string | undefined =>
  new RegExp(`${origin.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/pair#code=([A-Za-z0-9_-]{43})`).exec(out)?.[1];

describe('reaching the relay from a phone', () => {
  it('REACH-1: on loopback, serve and pair print no link or QR "for your phone": a link for this computer and the three ways to reach it', async () => {
    const data = dataDir();
    const { out, child } = await serve(['--port', '0', '--data', data], /docs\/reaching\.md/);
    const port = /listening: http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1]!;
    expect(out).not.toMatch(/Pair a phone:/);
    expect(out).not.toContain('▄'); // no QR code
    expect(out).toMatch(/Pair a browser on THIS computer/);
    expect(out).toContain(`tailscale serve --bg http://127.0.0.1:${port}`);
    expect(out).toContain(`--tls-cert cert.pem --tls-key key.pem`);
    expect(out).toContain(`forward it to http://127.0.0.1:${port}`);
    const pair = spawnSync(bin(), ['pair', '--data', data], { env, encoding: 'utf8' });
    expect(pair.status).toBe(0);
    expect(pair.stdout).not.toMatch(/Pair a phone:/);
    expect(pair.stdout).toContain(`http://127.0.0.1:${port}/pair#code=`);
    expect(pair.stdout).toContain('A phone cannot open this address');
    await stop(child);
  });

  it('REACH-2: with Tailscale running, serve prints the exact `tailscale serve` command and the --public-origin to restart with', async () => {
    const fake = path.join(dir, 'tsbin');
    fs.mkdirSync(fake, { recursive: true });
    fs.writeFileSync(path.join(fake, 'tailscale'),
      '#!/bin/sh\n[ "$1 $2" = "status --json" ] || exit 3\necho \'{"BackendState":"Running","Self":{"DNSName":"box.tail1234.ts.net.","HostName":"box"}}\'\n', { mode: 0o755 });
    const { out, child } = await serve(['--port', '0', '--data', dataDir()], /docs\/reaching\.md/, { PATH: `${fake}:${env.PATH}` });
    const port = /listening: http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1]!;
    expect(out).toContain('Tailscale is running here (box.tail1234.ts.net)');
    expect(out).toContain(`      tailscale serve --bg http://127.0.0.1:${port}\n`);
    expect(out).toContain(`commandr serve --port ${port} --public-origin https://box.tail1234.ts.net\n`);
    await stop(child);
  });

  it('REACH-3: --public-origin prints the https link and its QR, is remembered in relay-config.json, and `commandr pair` prints links for it with no relay running', async () => {
    const data = dataDir();
    const origin = 'https://box.tail1234.ts.net';
    const first = await serve(['--port', '0', '--data', data, '--public-origin', `${origin}/ignored/path`], /▄/);
    expect(first.out).toMatch(/Pair a phone: open this link on it/);
    expect(codeIn(first.out, origin)).toBeDefined();
    expect(first.out).not.toContain('A phone cannot open this address');
    const config = path.join(data, 'relay-config.json');
    expect(JSON.parse(fs.readFileSync(config, 'utf8'))).toEqual({ publicOrigin: origin });
    expect(fs.statSync(config).mode & 0o777).toBe(0o600);
    await stop(first.child);

    const pair = spawnSync(bin(), ['pair', '--data', data], { env, encoding: 'utf8' });
    expect(pair.status).toBe(0);
    expect(codeIn(pair.stdout, origin)).toBeDefined();
    expect(pair.stdout).toContain('▄');
    // A later serve without the flag keeps the origin.
    const again = await serve(['--port', '0', '--data', data], /▄/);
    expect(codeIn(again.out, origin)).toBeDefined();
    await stop(again.child);
    // A public origin that is not http(s) is refused with a sentence, exit 2.
    const bad = spawnSync(bin(), ['serve', '--port', '0', '--data', data, '--public-origin', 'ftp://x'], { env, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/public origin must be http\(s\)/);
  });

  it('REACH-4: own certificate: --tls-cert/--tls-key with --public-origin serve https+wss; the printed link pairs a phone that then subscribes', async () => {
    const certDir = path.join(dir, 'cert');
    fs.mkdirSync(certDir, { recursive: true });
    // The docs/reaching.md example, for the names this test uses.
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-keyout', path.join(certDir, 'key.pem'), '-out', path.join(certDir, 'cert.pem'),
      '-subj', '/CN=relay.test', '-addext', 'subjectAltName=DNS:relay.test,IP:127.0.0.1'], { stdio: 'ignore' });
    const port = await freePort();
    const origin = `https://relay.test:${port}`; // the name phones use; this test reaches the same port at 127.0.0.1
    const data = dataDir();
    const { out, child } = await serve(['--port', String(port), '--data', data, '--tls-cert', path.join(certDir, 'cert.pem'),
      '--tls-key', path.join(certDir, 'key.pem'), '--public-origin', origin], /▄/);
    expect(out).toContain(`listening: https://127.0.0.1:${port}`);
    const code = codeIn(out, origin)!;
    expect(code).toBeDefined();
    const relay: RelayAddress = { url: `https://127.0.0.1:${port}`, origin, dataDir: data, ca: fs.readFileSync(path.join(certDir, 'cert.pem')) };
    const paired = await postJson(relay, '/api/pair', { code, name: 'phone', publicKey: newKeyPair().publicJwk }, { origin });
    expect(paired.status).toBe(201);
    const phone = await connectDevice(relay);
    expect((await phone.request({ type: 'subscribe' })).type).toBe('ack');
    await phone.close();
    await stop(child);
  });

  it('REACH-5: a reverse proxy forwarding to loopback works with --public-origin set to its https name; without it the browser Origin is refused', async () => {
    const publicOrigin = 'https://relay.example';
    const start = async (withOrigin: boolean): Promise<{ relay: Relay; proxy: RelayAddress }> => {
      const relay = await createRelay({ port: 0, host: '127.0.0.1', dataDir: dataDir(), repos: [], registryFile: path.join(dir, 'none'), demo: false, ...(withOrigin ? { publicOrigin } : {}) });
      const proxy = await reverseProxy(relay.port);
      cleanups.push(async () => { proxy.server.close(); proxy.server.closeAllConnections(); await relay.close(); });
      return { relay, proxy: { url: proxy.url, origin: publicOrigin, dataDir: relay.dataDir } };
    };
    const good = await start(true);
    const phone = await connectDevice(good.proxy); // pairs and authenticates through the proxy, Origin https://relay.example
    expect((await phone.request({ type: 'subscribe' })).type).toBe('ack');
    await phone.close();
    const bare = await start(false);
    await expect(openSocket(bare.proxy, undefined)).rejects.toThrow(/upgrade refused: 403/);
  });
});

describe('CLI traps', () => {
  it('CLIUX-2: serve on a busy port prints one line naming the port and exits 1', async () => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    cleanups.push(() => void busy.close());
    const port = (busy.address() as net.AddressInfo).port;
    const run = spawnSync(bin(), ['serve', '--port', String(port), '--data', dataDir(), '--no-demo'], { env, encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([`commandr serve: port ${port} on 127.0.0.1 is already in use (another relay? \`commandr pair\` finds a running one); choose another with --port`]);
  });

  it('CLIUX-3: `commandr devices` with no action lists the devices', () => {
    const data = dataDir();
    const run = spawnSync(bin(), ['devices', '--data', data], { env, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('no paired devices; pair one with `commandr pair`\n');
  });
});

/** A tiny real reverse proxy: HTTP requests and WebSocket upgrades forwarded to loopback, headers (Origin, Host) untouched. */
async function reverseProxy(targetPort: number): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer((req, res) => {
    const upstream = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('upgrade', (req, socket, head) => {
    const upstream = net.connect(targetPort, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}` };
}
