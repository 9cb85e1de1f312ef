// What a permission card is told (CARD-n): the real permission hooks (Claude Code's
// PreToolUse hook and OpenCode's permission step, as processes) against a real relay
// put the policy's reason and the tool's own description on the request frame, bounded
// and cleaned; the relay refuses an ask that carries more than the bound.
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_DESCRIPTION_MAX } from '../../protocol/wire/views';
import { cleanup, runProcess, type Home, type TestRelay } from '../adapters/harness';
import { hookWorld, pairPhone } from '../adapters/world';
import type { DeviceClient } from '../helpers/device';
import { ask, askBody } from './helpers';

const CLAUDE_HOOK = path.resolve(__dirname, '..', '..', 'adapters', 'claude', 'hooks', 'permission');
const OPENCODE_HOOK = path.resolve(__dirname, '..', '..', 'adapters', 'opencode', 'hooks', 'permission');
let h: Home;
let relay: TestRelay;
let repo: string;
let phone: DeviceClient;
let calls = 0;

beforeAll(async () => {
  ({ h, relay, repo } = await hookWorld());
  phone = await pairPhone(relay);
});
afterAll(cleanup);

const env = () => ({ PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: h.commandrHome });

function claudeHook(toolInput: Record<string, unknown>) {
  const payload = JSON.stringify({ session_id: 'card-1', cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: toolInput, tool_use_id: `toolu_card_${calls++}` });
  return runProcess(CLAUDE_HOOK, [], { cwd: repo, input: payload, env: env() });
}

/** Takes the request whose command is `command` off the phone's stream and denies it, so the hook ends. */
async function shownThenDenied(command: string) {
  const { request } = await phone.next('permission.request', (f) => f.request.detail === command && f.request.status === 'pending', 30_000);
  await phone.request({ type: 'permission.decide', request: request.id, decision: 'deny' });
  return request;
}

describe('the permission card fields', () => {
  it('CARD-1: the Claude Code hook sends the policy reason (rule, why, part) and the Bash description; the phone gets both', async () => {
    const command = 'curl -fsSL https://example.com/card.sh';
    const ran = claudeHook({ command, description: 'Download the install script to read it' });
    const request = await shownThenDenied(command);
    expect(request.policy).toEqual({ rule: 'ask.commands', why: '`curl` reaches the network or another machine', part: command });
    expect(request.description).toBe('Download the install script to read it');
    expect((await ran).code).toBe(0);
  });

  it('CARD-1: the OpenCode permission step sends the same fields from its args', async () => {
    const command = 'wget https://example.com/oc-card.tgz';
    const data = { session: 'oc-card', cwd: repo, tool: 'bash', call: `call_${calls++}`, args: { command, description: 'Fetch the release tarball' } };
    const ran = runProcess(process.execPath, [OPENCODE_HOOK, JSON.stringify(data)], { cwd: repo, env: env() });
    const request = await shownThenDenied(command);
    expect(request.policy).toMatchObject({ rule: 'ask.commands', why: expect.stringContaining('wget') });
    expect(request.description).toBe('Fetch the release tarball');
    expect((await ran).code).toBe(0);
  });

  it('CARD-2: a hostile 100 KB description reaches the phone as one bounded line with invisible and reordering characters removed', async () => {
    const command = 'curl https://example.com/hostile';
    const hostile = `<script>alert(1)</script>\u202eevil\u200b\nline two\u0007 ${'<img src=x onerror=alert(2)>'.repeat(4000)}`;
    expect(hostile.length).toBeGreaterThan(100_000);
    const ran = claudeHook({ command, description: hostile });
    const request = await shownThenDenied(command);
    expect(request.description!.length).toBeLessThanOrEqual(PERMISSION_DESCRIPTION_MAX);
    expect(request.description!.length).toBeGreaterThan(PERMISSION_DESCRIPTION_MAX - 10);
    expect(request.description!.startsWith('<script>alert(1)</script> evil line two <img src=x onerror=alert(2)>')).toBe(true);
    expect(request.description!.endsWith('…')).toBe(true);
    expect(request.description).not.toMatch(/[\u0000-\u001f\u200b\u202e]/);
    expect((await ran).code).toBe(0);
  });

  it('CARD-2: the relay refuses an ask whose description is over the bound, naming the field, and cleans one within it', async () => {
    const target = { url: relay.relay.url, dataDir: h.commandrHome };
    const refused = await ask(target, askBody({ description: 'x'.repeat(PERMISSION_DESCRIPTION_MAX + 1) }));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'E_BAD_FRAME', message: expect.stringContaining('description') });
    const long = await ask(target, askBody({ policy: { rule: 'ask.commands', why: 'x'.repeat(501) } }));
    expect(long.body.error).toMatchObject({ code: 'E_BAD_FRAME', message: expect.stringContaining('policy.why') });

    const answered = ask(target, askBody({ summary: 'touch cleaned.txt', detail: 'touch cleaned.txt', description: 'make\u202e the file\u2066', policy: { rule: 'allow.commands', why: 'not\u0000 allowed' } }));
    const request = await shownThenDenied('touch cleaned.txt');
    expect(request.description).toBe('make the file');
    expect(request.policy).toEqual({ rule: 'allow.commands', why: 'not allowed' });
    expect((await answered).body.decision).toBe('deny');
  });
});
