// Permission prompts answered from a phone through the OpenCode plugin, with the
// REAL OpenCode CLI against the OpenAI-compatible stand-in and a real relay.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAiChat } from '../stand-ins/openai-chat';
import { cleanup, OPENCODE_BIN, opencodeEnv, runProcess, type Home } from '../adapters/harness';
import { chatText, planChat } from '../adapters/opencode-script';
import { openCodeWorld, pairPhone } from '../adapters/world';
import type { DeviceClient } from '../helpers/device';

let api: OpenAiChat;
let h: Home;
let repo: string;
let phone: DeviceClient;

beforeAll(async () => {
  const world = await openCodeWorld();
  ({ api, h, repo } = world);
  phone = await pairPhone(world.relay);
}, 60_000);

afterAll(cleanup);

function turn(file: string) {
  planChat(api, [{ name: 'bash', arguments: { command: `touch ${file}`, description: 'make a file' } }]);
  const from = api.chatRequests().length;
  const ran = runProcess(OPENCODE_BIN, ['run', 'make the file', '--format', 'json'], { cwd: repo, env: opencodeEnv(h, api.url), timeoutMs: 170_000 }); // hang bounds: a real OpenCode turn beside other files on a busy machine (SUITE-4)
  return { ran, modelSaw: () => chatText(api, from) };
}

describe('permission step in the OpenCode plugin with the real OpenCode', () => {
  it('PERM-HOOK-7: the phone allows: the request reaches the device and the file exists afterwards', async () => {
    const { ran } = turn('oc-allowed.txt');
    const { request } = await phone.next('permission.request', (f) => f.request.summary.includes('oc-allowed.txt'), 110_000);
    expect(request).toMatchObject({ tool: 'bash', detail: 'touch oc-allowed.txt', status: 'pending' });
    await phone.request({ type: 'permission.decide', request: request.id, decision: 'allow' });
    const done = await ran;
    expect(done.code, done.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, 'oc-allowed.txt'))).toBe(true);
  }, 180_000);

  it('PERM-HOOK-8: the phone denies: no file, and the reason reaches the model', async () => {
    const { ran, modelSaw } = turn('oc-denied.txt');
    const { request } = await phone.next('permission.request', (f) => f.request.summary.includes('oc-denied.txt'), 110_000);
    await phone.request({ type: 'permission.decide', request: request.id, decision: 'deny', reason: 'keep the tree clean' });
    const done = await ran;
    expect(done.code, done.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, 'oc-denied.txt'))).toBe(false);
    expect(modelSaw()).toContain('keep the tree clean');
  }, 180_000);
});
