// The Claude Code permission hook as a process, without a model: what it prints
// for policy allow / deny (answered locally, the relay never sees them) and in a
// headless job, where the launch intent keeps the say over what runs unasked.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, runProcess, type Home } from '../adapters/harness';
import { hookWorld, pairPhone } from '../adapters/world';
import type { DeviceClient } from '../helpers/device';

const HOOK = path.resolve(__dirname, '..', '..', 'adapters', 'claude', 'hooks', 'permission');
let h: Home;
let repo: string;
let phone: DeviceClient;

beforeAll(async () => {
  const world = await hookWorld();
  ({ h, repo } = world);
  phone = await pairPhone(world.relay);
});
afterAll(cleanup);

async function hook(toolName: string, toolInput: Record<string, unknown>, env: Record<string, string> = {}) {
  const payload = JSON.stringify({ session_id: 'local-1', cwd: repo, hook_event_name: 'PreToolUse', tool_name: toolName, tool_input: toolInput, tool_use_id: `toolu_${Math.random()}` });
  const ran = await runProcess(HOOK, [], { cwd: repo, input: payload, env: { PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: h.commandrHome, ...env } });
  expect(ran.code).toBe(0);
  return ran.stdout.trim() ? (JSON.parse(ran.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput : undefined;
}

describe('the permission hook answering locally', () => {
  it('PERM-HOOK-6: policy allow and deny are printed by the hook itself and never reach the relay; in a headless job an allow is left to the intent', async () => {
    expect(await hook('Read', { file_path: path.join(repo, 'README.md') })).toMatchObject({ permissionDecision: 'allow' });
    expect(await hook('Bash', { command: 'git status' })).toMatchObject({ permissionDecision: 'allow' });
    const denied = await hook('Bash', { command: 'git push --force origin main' });
    expect(denied).toMatchObject({ permissionDecision: 'deny' });
    expect(denied!.permissionDecisionReason).toMatch(/deny\.commands/);
    expect(await hook('Bash', { command: 'git status' }, { AGENT_MODE: 'work' })).toBeUndefined();
    expect(await hook('Bash', { command: 'git push --force' }, { AGENT_MODE: 'work' })).toMatchObject({ permissionDecision: 'deny' });
    expect(phone.received.filter((f) => f.type === 'permission.request')).toEqual([]);
    expect(fs.existsSync(path.join(h.commandrHome, 'permissions')) ? fs.readdirSync(path.join(h.commandrHome, 'permissions')) : []).toEqual([]);
  });

  it('PERM-HOOK-1: an edit that needs a person reaches the phone as a small diff and the decision comes back', async () => {
    const file = path.join(repo, 'README.md');
    const answer = hook('Edit', { file_path: file, old_string: '# test', new_string: '# tested' });
    const { request } = await phone.next('permission.request', (f) => f.request.tool === 'Edit');
    expect(request.detail).toBe(`--- ${file}\n+++ ${file}\n@@\n-# test\n+# tested`);
    expect(request.summary).toContain('README.md');
    await phone.request({ type: 'permission.decide', request: request.id, decision: 'deny', reason: 'leave the README' });
    expect(await answer).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('leave the README') });
  });

  it('POLICY-5: a broken project policy fails closed: a person must decide, and the reason names the file', async () => {
    fs.mkdirSync(path.join(repo, '.commandr'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.commandr', 'policy.yaml'), 'allow: [oops\n');
    try {
      const answer = await hook('Bash', { command: 'git status' });
      expect(answer).toMatchObject({ permissionDecision: 'ask' });
      expect(answer!.permissionDecisionReason).toContain(path.join('.commandr', 'policy.yaml'));
    } finally {
      fs.rmSync(path.join(repo, '.commandr'), { recursive: true, force: true });
    }
  });
});
