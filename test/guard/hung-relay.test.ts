// A hung relay (SIGSTOP) must not leave an answerable zombie (issue 10 item 8): a real
// relay process, a paired device, the real permission hook; the relay is stopped while
// the hook asks, resumed after the hook gave up.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDevice, type DeviceClient } from '../helpers/device';
import { adapterBin, cleanup, makeHome, makeRepo, runProcess, type Home } from '../adapters/harness';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'commandr');
let relay: ChildProcess;
let url = '';
let h: Home;
let repo: string;
let phone: DeviceClient;

beforeAll(async () => {
  h = makeHome();
  ({ repo } = makeRepo());
  relay = spawn(BIN, ['serve', '--port', '0', '--data', h.commandrHome, '--no-demo', '--app-dir', path.join(h.commandrHome, 'no-app')], {
    env: { ...process.env, COMMANDR_HOME: h.commandrHome, HOME: h.home, AGENTS_INDEX_REPOS: path.join(h.commandrHome, 'registry') }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  relay.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise<void>((resolve, reject) => {
    relay.stdout!.on('data', () => { if (/listening: /.test(out)) resolve(); });
    relay.once('exit', (code) => reject(new Error(`relay exited ${code}: ${out}`)));
  });
  url = (JSON.parse(fs.readFileSync(path.join(h.commandrHome, 'relay.json'), 'utf8')) as { url: string }).url;
  phone = await connectDevice({ url, dataDir: h.commandrHome }, 'phone');
}, 60_000);

afterAll(async () => {
  await phone?.close();
  if (relay && relay.exitCode === null) {
    relay.kill('SIGCONT');
    relay.kill('SIGTERM');
    await new Promise((r) => relay.once('exit', r));
  }
  await cleanup();
});

describe('a hung relay', () => {
  it('GUARD-9: the hook gives up on a stopped relay and fails closed; resumed, the relay shows the request expired, never answerable', async () => {
    const hook = path.join(path.dirname(adapterBin('claude', 'wire')), 'hooks', 'permission');
    const payload = JSON.stringify({ session_id: 's-hung', cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'touch hung.txt' }, tool_use_id: 'toolu_hung' });
    phone.clear();
    relay.kill('SIGSTOP');
    let ran;
    try {
      ran = await runProcess(hook, [], { cwd: repo, input: payload, env: { PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: h.commandrHome, COMMANDR_URL: url } });
    } finally {
      relay.kill('SIGCONT');
    }
    expect(ran.code).toBe(0);
    const out = JSON.parse(ran.stdout).hookSpecificOutput;
    expect(out.permissionDecision).toBe('ask'); // fail closed: never an allow, never "no one answered"
    expect(out.permissionDecisionReason).not.toMatch(/No one answered/);
    const { request } = await phone.next('permission.request', (f) => f.request.summary.includes('hung.txt'), 30_000);
    expect(request.status).toBe('expired');
    expect(request.reason).toMatch(/stopped waiting/);
    expect(phone.received.filter((f) => f.type === 'permission.request' && (f as any).request.summary.includes('hung.txt') && (f as any).request.status === 'pending')).toEqual([]);
    const answer = await phone.request({ type: 'permission.decide', request: request.id, decision: 'allow' }).catch((error: unknown) => error);
    expect(JSON.stringify(answer)).toMatch(/E_EXPIRED/);
  }, 90_000);
});
