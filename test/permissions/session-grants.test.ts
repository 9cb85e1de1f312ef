// "Allow for this session" remembers the exact call, never a prefix (POLPATH-7, POLPATH-8):
// the asks are built by the hook's own code (checkPermission) in a real git repo and sent to
// a real relay with a real paired device over `ws`.
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPermission } from '../../adapters/lib/permission-check';
import type { PermissionAsk } from '../../protocol/wire/http';
import { connectDevice, type DeviceClient } from '../helpers/device';
import { ask, askBody, startTestRelay, tempDir } from './helpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function relayAt(dataDir: string): Promise<{ relay: Awaited<ReturnType<typeof startTestRelay>>; phone: DeviceClient }> {
  const relay = await startTestRelay(dataDir);
  cleanups.push(() => relay.close());
  const phone = await connectDevice(relay, 'phone');
  cleanups.push(() => phone.close());
  return { relay, phone };
}

/** The ask the hook itself would send for `command` in a real repo. */
function hookAsk(repo: string, home: string, command: string, session = 'S1'): PermissionAsk {
  const env = { HOME: home, COMMANDR_HOME: path.join(home, '.commandr'), PATH: process.env.PATH };
  const { ask: built } = checkPermission({ session, cwd: repo, tool: 'Bash', input: { command }, vendor: 'claude' }, env);
  return { ...built, key: `k-${crypto.randomBytes(8).toString('hex')}`, timeoutMs: 30_000 };
}

function world(): { repo: string; home: string; dataDir: string } {
  const repo = tempDir('commandr-grant-repo-', cleanups);
  const home = tempDir('commandr-grant-home-', cleanups);
  execFileSync('git', ['init', '-q'], { cwd: repo });
  return { repo, home, dataDir: tempDir('commandr-grant-data-', cleanups) };
}

/** Asks, and returns the request as the phone sees it (pending) together with the waiting answer. */
async function pendingAsk(relay: { url: string; dataDir: string }, phone: DeviceClient, body: PermissionAsk) {
  const answer = ask(relay, body);
  const { request } = await phone.next('permission.request', (f) => f.request.status === 'pending');
  phone.clear();
  return { answer, id: request.id as string };
}

describe('allow for this session remembers the exact call', () => {
  it('POLPATH-7: a session grant for `git push origin agent/T-1` does not allow `git push --force origin main` or any other push', async () => {
    const { repo, home, dataDir } = world();
    const { relay, phone } = await relayAt(dataDir);
    const push = hookAsk(repo, home, 'git push origin agent/T-1');
    expect(push.exact).toBe('git push origin agent/T-1');
    const first = await pendingAsk(relay, phone, push);
    await phone.request({ type: 'permission.decide', request: first.id, decision: 'allow-session' });
    expect((await first.answer).body.decision).toBe('allow');

    const same = await ask(relay, hookAsk(repo, home, '  git push origin agent/T-1 '));
    expect(same.body.decision).toBe('allow');
    expect(same.body.reason).toMatch(/for this session/);

    for (const other of ['git push --force origin main', 'git push origin +main', 'git push --force-with-lease origin agent/T-1', 'git push origin agent/T-1 && rm -rf src']) {
      const asked = await pendingAsk(relay, phone, hookAsk(repo, home, other));
      await phone.request({ type: 'permission.decide', request: asked.id, decision: 'deny' });
      expect((await asked.answer).body.decision, other).toBe('deny');
    }
    const grants = JSON.parse(fs.readFileSync(path.join(dataDir, 'permissions', 'session-grants.json'), 'utf8')) as Array<Record<string, unknown>>;
    expect(grants).toEqual([expect.objectContaining({ session: 'S1', tool: 'bash', exact: 'git push origin agent/T-1' })]);
    expect(grants[0]).not.toHaveProperty('prefix');
  });

  it('POLPATH-8: a grant stored with only a prefix matches only its own exact text; a null prefix matches nothing', async () => {
    const { repo, home, dataDir } = world();
    fs.mkdirSync(path.join(dataDir, 'permissions'), { recursive: true });
    const at = new Date().toISOString();
    fs.writeFileSync(path.join(dataDir, 'permissions', 'session-grants.json'), JSON.stringify([
      { session: 'S1', tool: 'bash', prefix: 'git push', at, by: 'old phone' },
      { session: 'S1', tool: 'edit', prefix: null, at, by: 'old phone' },
    ]));
    const { relay, phone } = await relayAt(dataDir);
    expect((await ask(relay, hookAsk(repo, home, 'git push'))).body.decision).toBe('allow');
    const wider = await pendingAsk(relay, phone, hookAsk(repo, home, 'git push origin main'));
    const edit = await pendingAsk(relay, phone, askBody({ session: 'S1', tool: 'Edit', exact: path.join(repo, '.git', 'hooks', 'pre-commit') }));
    for (const p of [wider, edit]) await phone.request({ type: 'permission.decide', request: p.id, decision: 'deny' });
    expect((await wider.answer).body.decision).toBe('deny');
    expect((await edit.answer).body.decision).toBe('deny');
  });

  it('POLPATH-8: an ask from an older hook (a prefix, no exact call) is allowed once by "allow for this session" and nothing is remembered', async () => {
    const { dataDir } = world();
    const { relay, phone } = await relayAt(dataDir);
    const old = { ...askBody({ session: 'S1', prefix: 'git push' }), exact: undefined };
    const first = await pendingAsk(relay, phone, old);
    await phone.request({ type: 'permission.decide', request: first.id, decision: 'allow-session' });
    const answer = await first.answer;
    expect(answer.body.decision).toBe('allow');
    expect(answer.body.reason).toMatch(/once/);
    const again = await pendingAsk(relay, phone, { ...old, key: `k-${crypto.randomBytes(8).toString('hex')}` });
    await phone.request({ type: 'permission.decide', request: again.id, decision: 'deny' });
    expect((await again.answer).body.decision).toBe('deny');
  });
});
