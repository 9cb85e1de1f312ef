// The hook credential goes to the relay only (issue 30, HOOKCRED-n). A real relay process is
// SIGKILLed — its relay.json stays behind — and a squatter takes its port; the real hooks (bash
// `report` and `permission`, the background poster, the OpenCode hook, the MCP ask) run and the
// squatter must never see the credential. A relay started later removes the stale file.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { askRelay } from '../../adapters/mcp/relay-ask';
import { processStarted } from '../../protocol/relay-info';
import { relayUrl } from '../../adapters/lib/env';
import { cleanup, eventually, makeHome, makeRepo, ROOT, runProcess, tempDir, type Home } from '../adapters/harness';

const BIN = path.join(ROOT, 'bin', 'commandr');
const CLAUDE_HOOKS = path.join(ROOT, 'adapters', 'claude', 'hooks');
const OPENCODE_HOOK = path.join(ROOT, 'adapters', 'opencode', 'hooks', 'hook');

let h: Home;
let repo: string;
let token: string;
let staleUrl: string;
let squatter: Squatter;

interface Squatter { port: number; received: () => string; forget: () => void; close: () => Promise<void> }

/** Listens where the relay did; answers every request 200 `{}` and keeps every byte it was sent. */
function squat(port: number): Promise<Squatter> {
  let bytes = '';
  const server = net.createServer((socket) => {
    socket.on('data', (chunk) => {
      bytes += chunk.toString('latin1');
      if (bytes.includes('\r\n\r\n')) socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve({
      port, received: () => bytes, forget: () => { bytes = ''; },
      close: () => new Promise((r) => server.close(() => r())),
    }));
  });
}

/** `commandr serve` on port `port` (0: any); resolves once it listens, or with its output when it exits first. */
function serve(port: number): Promise<{ relay: ChildProcess; listening: boolean; out: string }> {
  const relay = spawn(BIN, ['serve', '--port', String(port), '--data', h.commandrHome, '--no-demo', '--app-dir', path.join(h.commandrHome, 'no-app')], {
    env: { ...process.env, COMMANDR_HOME: h.commandrHome, HOME: h.home, AGENTS_INDEX_REPOS: path.join(h.commandrHome, 'registry') }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      if (/listening: /.test(out)) resolve({ relay, listening: true, out });
    };
    relay.stdout!.on('data', onData);
    relay.stderr!.on('data', onData);
    relay.once('exit', () => resolve({ relay, listening: false, out }));
  });
}

const hookEnv = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: h.commandrHome, ...extra });
const payload = (session: string, command: string) =>
  JSON.stringify({ session_id: session, cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: `tu-${session}`, tool_response: { stdout: '' } });
const spool = () => path.join(h.commandrHome, 'hook-state', 'spool');

/** The background poster has posted (or dropped) every record and left. */
async function posterDone(): Promise<void> {
  await eventually(() => {
    const left = fs.existsSync(spool()) ? fs.readdirSync(spool()).filter((n) => /^\d/.test(n) || n === 'poster.pid') : [];
    return left.length === 0;
  }, 30_000, 'the poster to drain the spool and leave');
}

function expectNoCredential(): void {
  expect(squatter.received()).not.toContain(token);
  expect(squatter.received().toLowerCase()).not.toContain('authorization');
}

beforeAll(async () => {
  h = makeHome();
  ({ repo } = makeRepo());
  const first = await serve(0);
  expect(first.listening, first.out).toBe(true);
  staleUrl = (JSON.parse(fs.readFileSync(path.join(h.commandrHome, 'relay.json'), 'utf8')) as { url: string }).url;
  token = fs.readFileSync(path.join(h.commandrHome, 'hook-token'), 'utf8').trim();
  const exited = new Promise((r) => first.relay.once('exit', r));
  first.relay.kill('SIGKILL');
  await exited;
  expect(fs.existsSync(path.join(h.commandrHome, 'relay.json')), 'a killed relay leaves relay.json behind').toBe(true);
  squatter = await squat(Number(new URL(staleUrl).port));
}, 60_000);

beforeEach(() => squatter.forget());

afterAll(async () => {
  await squatter?.close();
  await cleanup();
});

describe('the hook credential goes to the relay only', () => {
  it('HOOKCRED-1: after the relay is SIGKILLed and a squatter holds its port, no hook sends it the credential (bash report and permission, the poster, the OpenCode hook, the MCP ask)', async () => {
    const report = await runProcess(path.join(CLAUDE_HOOKS, 'report'), ['PostToolUse'], { cwd: repo, env: hookEnv(), input: payload('s-sq-1', 'echo one') });
    expect(report.code).toBe(0);
    const permission = await runProcess(path.join(CLAUDE_HOOKS, 'permission'), [], { cwd: repo, env: hookEnv(), input: payload('s-sq-2', 'touch squatted.txt') });
    expect(permission.code).toBe(0);
    const opencode = await runProcess(OPENCODE_HOOK, ['tool-start'], {
      cwd: repo, env: hookEnv(), input: JSON.stringify({ session: 's-sq-3', cwd: repo, call: 'c-1', tool: 'bash', args: { command: 'echo three' }, at: 1 }),
    });
    expect(opencode.code).toBe(0);
    const asked = await askRelay({ kind: 'question', key: 'q-squatter-000000001', task: 'T-1', cwd: repo, question: 'Which?', choices: ['a'], timeoutMs: 5000 }, hookEnv());
    await posterDone(); // what the hooks spooled was handed to the poster, which must not post it there either
    expectNoCredential();
    expect(asked).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/not running/) });
  }, 90_000);

  it('HOOKCRED-2: a COMMANDR_URL naming the dead relay’s port (a job that outlived its relay) is refused too, and plain http to another machine never gets the credential', async () => {
    const env = hookEnv({ COMMANDR_URL: staleUrl });
    const report = await runProcess(path.join(CLAUDE_HOOKS, 'report'), ['PostToolUse'], { cwd: repo, env, input: payload('s-sq-4', 'echo four') });
    expect(report.code).toBe(0);
    const opencode = await runProcess(OPENCODE_HOOK, ['tool-start'], {
      cwd: repo, env, input: JSON.stringify({ session: 's-sq-5', cwd: repo, call: 'c-2', tool: 'bash', args: { command: 'echo five' }, at: 1 }),
    });
    expect(opencode.code).toBe(0);
    await posterDone();
    expectNoCredential();
    expect(relayUrl(env)).toBeUndefined();
    // With no relay.json in the way, an explicit URL is taken when the credential stays safe on it.
    const empty = tempDir('commandr-hookcred-empty-');
    expect(relayUrl({ COMMANDR_HOME: empty, COMMANDR_URL: 'http://192.0.2.7:8787' })).toBeUndefined();
    expect(relayUrl({ COMMANDR_HOME: empty, COMMANDR_URL: 'https://relay.example:8787' })).toBe('https://relay.example:8787');
    expect(relayUrl({ COMMANDR_HOME: empty, COMMANDR_URL: 'http://127.0.0.1:8787' })).toBe('http://127.0.0.1:8787');
    expect(relayUrl({ COMMANDR_HOME: empty, COMMANDR_URL: 'http://[::1]:8787' })).toBe('http://[::1]:8787');
  }, 90_000);

  it('HOOKCRED-5: relay.json is trusted only while its pid runs with the start time it records: a reused pid (another start time) is no relay, in bash and in node', async () => {
    const home = tempDir('commandr-hookcred-pid-');
    fs.writeFileSync(path.join(home, 'hook-token'), `${token}\n`);
    const started = processStarted('self');
    expect(started).toMatch(/^\d+$/);
    const target = (info: object) => {
      fs.writeFileSync(path.join(home, 'relay.json'), `${JSON.stringify(info)}\n`);
      const bash = runProcess('bash', ['-c', `. "${CLAUDE_HOOKS}/relay-client.bash" && relay_target && echo "$address:$port"`], { cwd: home, env: { PATH: process.env.PATH, COMMANDR_HOME: home } });
      return Promise.all([bash.then((r) => r.stdout.trim()), relayUrl({ COMMANDR_HOME: home })]);
    };
    const url = 'http://127.0.0.1:40123';
    expect(await target({ url, pid: process.pid, started })).toEqual(['127.0.0.1:40123', url]);
    expect(await target({ url, pid: process.pid, started: String(Number(started) + 1) })).toEqual(['', undefined]);
    expect(await target({ url, pid: process.pid })).toEqual(['', undefined]); // no start time: not provably this process
    expect(await target({ url, pid: 2 ** 22 + 1, started })).toEqual(['', undefined]); // no such process
  }, 30_000);

  it('HOOKCRED-3: a relay started after a killed one removes the stale relay.json, even when it cannot listen (the squatter holds the port); doctor does not trust it', async () => {
    const info = path.join(h.commandrHome, 'relay.json');
    expect(fs.existsSync(info)).toBe(true);
    const doctor = await runProcess(BIN, ['doctor'], { cwd: repo, env: hookEnv() });
    expect(doctor.stdout + doctor.stderr).toMatch(/no relay is running/);
    expect(doctor.stdout + doctor.stderr).not.toContain(`${staleUrl} answers`);
    const blocked = await serve(squatter.port);
    expect(blocked.listening, blocked.out).toBe(false);
    expect(fs.existsSync(info), 'the stale relay.json is gone though the new relay could not listen').toBe(false);
    const again = await serve(0);
    expect(again.listening, again.out).toBe(true);
    const fresh = JSON.parse(fs.readFileSync(info, 'utf8')) as { url: string; pid: number; started: string };
    expect(fresh.pid).toBe(again.relay.pid);
    expect(fresh.started).toBe(processStarted(again.relay.pid!));
    const exited = new Promise((r) => again.relay.once('exit', r));
    again.relay.kill('SIGTERM');
    await exited;
    expectNoCredential();
  }, 90_000);
});
