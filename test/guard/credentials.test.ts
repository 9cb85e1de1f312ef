// The hook credential can only post live events and permission requests (issue 10
// item 9): every admin route of a real relay refuses it, and a check it reports is
// marked as the agent's word.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_COMMANDERS_PATH } from '../../relay/commanders/http';
import { routes } from '../../relay/http/routes';
import { hookTokenOf, startTestRelay, tempDir } from '../permissions/helpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()!(); });

async function relayWithTokens() {
  const dataDir = tempDir('commandr-cred-', cleanups);
  const relay = await startTestRelay(dataDir);
  cleanups.push(() => relay.close());
  const admin = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  return { relay, dataDir, hook: hookTokenOf(dataDir), admin };
}

const adminRoutes = routes.filter((r) => r.path.startsWith('/api/local/'));

describe('split credentials', () => {
  it('CRED-1: the admin credential is its own 0600 file, different from the hook credential, kept across restarts', async () => {
    const { dataDir, hook, admin, relay } = await relayWithTokens();
    expect(fs.statSync(path.join(dataDir, 'admin-token')).mode & 0o777).toBe(0o600);
    expect(admin.length).toBeGreaterThanOrEqual(32);
    expect(admin).not.toBe(hook);
    await relay.close();
    const again = await startTestRelay(dataDir);
    cleanups.push(() => again.close());
    expect(fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim()).toBe(admin);
  });

  it('CRED-2: every admin route refuses the hook credential (401) and answers the admin one', async () => {
    const { relay, hook, admin } = await relayWithTokens();
    expect(adminRoutes.length).toBeGreaterThanOrEqual(7);
    expect(adminRoutes.every((r) => r.path.startsWith(LOCAL_COMMANDERS_PATH))).toBe(true);
    for (const route of adminRoutes) {
      const send = (token: string) => fetch(`${relay.url}${route.path}`, {
        method: route.method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: route.method === 'GET' ? undefined : JSON.stringify({ commander: 'c-none0000000', name: 'x', referencePath: '/nowhere', text: 'hi', path: '/nowhere' }),
      });
      const withHook = await send(hook);
      expect(withHook.status, `${route.method} ${route.path}`).toBe(401);
      expect(((await withHook.json()) as { error: { code: string; message: string } }).error.message).toMatch(/admin credential/);
      const withAdmin = await send(admin);
      expect(withAdmin.status, `${route.method} ${route.path} with the admin credential`).not.toBe(401);
    }
  });

  it('CRED-2: the hook routes take the hook credential and refuse the admin one', async () => {
    const { relay, hook, admin } = await relayWithTokens();
    const event = { v: 1, session: 's-1', kind: 'check', summary: 'tests passed', label: 'tests', task: 'T-1', ok: true };
    const post = (token: string) => fetch(`${relay.url}/api/events`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(event) });
    expect((await post(admin)).status).toBe(401);
    expect((await post(hook)).status).toBe(202);
    // The permission fast path (FAST-4) too.
    const check = (token: string) => fetch(`${relay.url}/api/permissions/check`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: `\0${JSON.stringify({ session_id: 's', cwd: '/', tool_name: 'Read', tool_input: { file_path: '/x' } })}` });
    expect((await check(admin)).status).toBe(401);
    expect((await check(hook)).status).toBe(200);
    // And the reporting hooks' route (REPORT-3).
    const report = (token: string) => fetch(`${relay.url}/api/hooks/report`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: `HOOK=Stop\0\0${JSON.stringify({ session_id: 's', cwd: '/' })}` });
    expect((await report(admin)).status).toBe(401);
    expect((await report(hook)).status).toBe(200);
  });

  it('CRED-3: a check posted with the hook credential is marked as reported by the agent', async () => {
    const { relay, hook } = await relayWithTokens();
    const event = { v: 1, session: 's-1', kind: 'check', summary: 'tests passed', cmd: 'npm test', label: 'tests', task: 'T-1', ok: true };
    const res = await fetch(`${relay.url}/api/events`, { method: 'POST', headers: { authorization: `Bearer ${hook}`, 'content-type': 'application/json' }, body: JSON.stringify(event) });
    expect(res.status).toBe(202);
    const row = relay.services.checks!.latest('any', 'T-1').find((r) => r.label === 'tests');
    expect(row).toMatchObject({ ok: true, reportedBy: 'agent' });
  });
});
