// A request whose hook went away (issue 10 item 8, GUARD-11): the agent was stopped while
// a person had not answered yet. A real relay, a paired device and the real permission hook,
// killed with its whole process group; and a raw long-poll dropped then retried by key.
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDevice, type DeviceClient } from '../helpers/device';
import { adapterBin, cleanup, makeHome, makeRepo, type Home } from '../adapters/harness';
import { ask, askBody, hookTokenOf, startTestRelay } from '../permissions/helpers';
import type { Relay } from '../../relay/server';

let h: Home;
let repo: string;
let relay: Relay;
let phone: DeviceClient;

beforeAll(async () => {
  h = makeHome();
  ({ repo } = makeRepo());
  relay = await startTestRelay(h.commandrHome);
  phone = await connectDevice(relay, 'phone');
  await phone.request({ type: 'subscribe' });
});

afterAll(async () => {
  await phone?.close();
  await relay?.close();
  await cleanup();
});

describe('an abandoned permission request', () => {
  it('GUARD-11: the hook is killed while the phone shows its request: the request turns expired, says why, and cannot be answered', async () => {
    const hook = path.join(path.dirname(adapterBin('claude', 'wire')), 'hooks', 'permission');
    const payload = JSON.stringify({ session_id: 's-gone', cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'touch gone.txt' }, tool_use_id: 'toolu_gone' });
    const child = spawn(hook, [], {
      cwd: repo, detached: true, stdio: ['pipe', 'ignore', 'ignore'],
      env: { PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: h.commandrHome, COMMANDR_URL: relay.url } as unknown as NodeJS.ProcessEnv,
    });
    child.stdin!.end(payload);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const { request } = await phone.next('permission.request', (f) => f.request.summary.includes('gone.txt') && f.request.status === 'pending', 30_000);
    process.kill(-child.pid!, 'SIGKILL'); // the agent and its hook are gone
    await exited;
    const { request: after } = await phone.next('permission.request', (f) => f.request.id === request.id && f.request.status !== 'pending', 30_000);
    expect(after.status).toBe('expired');
    expect(after.reason).toMatch(/stopped waiting for this request/);
    const answer = await phone.request({ type: 'permission.decide', request: request.id, decision: 'allow' }).catch((error: unknown) => error);
    expect(JSON.stringify(answer)).toMatch(/E_EXPIRED/);
  }, 60_000);

  it('GUARD-11: a hook that drops its long-poll and asks again with the same key keeps the request, and gets the decision', async () => {
    const body = askBody({ summary: 'touch kept.txt', cwd: repo });
    const text = JSON.stringify(body);
    const first = http.request(`${relay.url}/api/permissions`, {
      method: 'POST', agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), authorization: `Bearer ${hookTokenOf(h.commandrHome)}` },
    });
    first.on('error', () => {});
    first.end(text);
    const { request } = await phone.next('permission.request', (f) => f.request.summary === 'touch kept.txt', 30_000);
    first.destroy(); // the connection drops ...
    const retried = ask({ url: relay.url, dataDir: h.commandrHome }, body); // ... and the hook asks again at once
    await phone.request({ type: 'permission.decide', request: request.id, decision: 'allow', reason: 'fine' });
    expect((await retried).body).toMatchObject({ id: request.id, decision: 'allow', by: 'phone' });
    expect(phone.received.some((f) => f.type === 'permission.request' && (f as { request: { id: string; status: string } }).request.id === request.id
      && (f as { request: { status: string } }).request.status === 'expired')).toBe(false);
  }, 60_000);
});
