// Permission prompts answered from a phone, end to end with the REAL Claude Code
// CLI: the Messages API stand-in asks for `touch` (outside the allowed prefixes),
// the wired PreToolUse hook asks the real relay, a paired `ws` device decides.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagesApi } from '../stand-ins/messages-api';
import { planTurn } from '../adapters/claude-script';
import { adapterBin, CLAUDE_BIN, claudeEnv, cleanup, hookLine, makeHome, runProcess, type Home } from '../adapters/harness';
import { claudeWorld, pairPhone } from '../adapters/world';
import type { DeviceClient } from '../helpers/device';
import { PERMISSION_HOOK_TIMEOUT_S } from '../../adapters/claude/lib/permission-spec';

let api: MessagesApi;
let h: Home;
let repo: string;
let phone: DeviceClient;

beforeAll(async () => {
  const world = await claudeWorld();
  ({ api, h, repo } = world);
  phone = await pairPhone(world.relay);
}, 60_000);

afterAll(cleanup);

const lines = (stdout: string) => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);

function claudeTurn(file: string, env: Record<string, string> = {}, home: Home = h) {
  planTurn(api, [{ name: 'Bash', input: { command: `touch ${file}`, description: 'make a file' } }]);
  return runProcess(CLAUDE_BIN, ['-p', 'make the file', '--output-format', 'stream-json', '--verbose'], { cwd: repo, env: claudeEnv(home, api.url, env) });
}

const toolResults = (stdout: string): string =>
  lines(stdout).filter((o) => o.type === 'user').map((o) => JSON.stringify(o.message?.content ?? '')).join('\n');

describe('permission hook with the real Claude Code', () => {
  it('PERM-HOOK-4: wire installs the permission hook on PreToolUse with a timeout above the longest permission wait', () => {
    const settings = JSON.parse(fs.readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8'));
    const hook = settings.hooks.PreToolUse.flatMap((e: any) => e.hooks).find((x: any) => hookLine(x).includes('/adapters/claude/hooks/permission'));
    expect(hook.timeout).toBe(PERMISSION_HOOK_TIMEOUT_S);
    expect(hook.timeout * 1000).toBeGreaterThan(3_600_000);
  });

  it('PERM-HOOK-1: the phone allows: the request reaches the device, the file exists and the turn completes', async () => {
    const running = claudeTurn('allowed.txt');
    const { request } = await phone.next('permission.request', (f) => f.request.summary.includes('allowed.txt'), 30_000);
    expect(request).toMatchObject({ tool: 'Bash', status: 'pending' });
    expect(request.detail).toBe('touch allowed.txt');
    await phone.request({ type: 'permission.decide', request: request.id, decision: 'allow' });
    const ran = await running;
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, 'allowed.txt'))).toBe(true);
    const result = lines(ran.stdout).find((o) => o.type === 'result')!;
    expect(result.subtype).toBe('success');
    expect(result.permission_denials).toEqual([]);
  }, 90_000);

  it('PERM-HOOK-2: the phone denies: no file, and the reason reaches the agent', async () => {
    const running = claudeTurn('denied.txt');
    const { request } = await phone.next('permission.request', (f) => f.request.summary.includes('denied.txt'), 30_000);
    await phone.request({ type: 'permission.decide', request: request.id, decision: 'deny', reason: 'not in this repo' });
    const ran = await running;
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, 'denied.txt'))).toBe(false);
    expect(toolResults(ran.stdout)).toContain('not in this repo');
  }, 90_000);

  it('PERM-HOOK-3: nobody answers: denied at the timeout with a reason the agent can read', async () => {
    const ran = await claudeTurn('late.txt', { COMMANDR_PERMISSION_TIMEOUT_MS: '1500' });
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, 'late.txt'))).toBe(false);
    expect(toolResults(ran.stdout)).toMatch(/No one answered on the phone within 2 s/);
    const expired = await phone.next('permission.request', (f) => f.request.summary.includes('late.txt') && f.request.status === 'expired');
    expect(expired.request.reason).toMatch(/No one answered/);
  }, 90_000);

  it('PERM-HOOK-5: relay down: the hook answers `ask` (fail closed) within 1 s and nothing is allowed', async () => {
    const down = makeHome();
    fs.writeFileSync(path.join(down.commandrHome, 'hook-token'), `${'x'.repeat(43)}\n`);
    const env = { COMMANDR_URL: 'http://127.0.0.1:9' }; // discard port: nothing listens
    const payload = JSON.stringify({ session_id: 's-down', cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'touch x' }, tool_use_id: 'toolu_1' });
    const hook = await runProcess(path.join(path.dirname(adapterBin('claude', 'wire')), 'hooks', 'permission'), [], {
      cwd: repo, input: payload, env: { PATH: process.env.PATH, HOME: down.home, COMMANDR_HOME: down.commandrHome, ...env },
    });
    expect(hook.code).toBe(0);
    const out = JSON.parse(hook.stdout).hookSpecificOutput;
    expect(out.permissionDecision).toBe('ask');
    expect(out.permissionDecisionReason).toMatch(/no one can be asked/);
    expect(hook.ms).toBeLessThan(10_000); // no wait for the relay (its ask would run minutes); the bound leaves room for a loaded machine
    const ran = await claudeTurn('unreached.txt', env, down);
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, 'unreached.txt'))).toBe(false);
    expect(lines(ran.stdout).find((o) => o.type === 'result')!.permission_denials.length).toBe(1);
  }, 90_000);

  it('PERM-HOOK-6: the policy allows a read-only command outright: nothing reaches the relay', async () => {
    phone.clear();
    planTurn(api, [{ name: 'Bash', input: { command: 'ls -la', description: 'list' } }]);
    const ran = await runProcess(CLAUDE_BIN, ['-p', 'list', '--output-format', 'stream-json', '--verbose'], { cwd: repo, env: claudeEnv(h, api.url) });
    expect(ran.code, ran.stderr).toBe(0);
    expect(toolResults(ran.stdout)).toContain('README.md');
    expect(phone.received.filter((f) => f.type === 'permission.request' && (f as any).request.summary.includes('ls -la'))).toEqual([]);
  }, 90_000);
});
