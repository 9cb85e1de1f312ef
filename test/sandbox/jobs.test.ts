// Jobs through the real relay run sandboxed by default, each with its own hook credential
// (SANDBOX-n, JOBTOKEN-n). The adapter is a probe (a real executable) that reports what it can
// see and then runs the fake adapter; the credential checks hit the relay's real HTTP routes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobsWorld, packet } from '../jobs/fixture';
import { loadOrCreateSigningKey } from '../../bus/approval/keys';
import { FAKE_ADAPTER_DIR } from '../commanders/relay-fixture';
import { scopedTokensOf } from '../../relay/live/scoped-tokens';
import { hookTokenFile } from '../../relay/live/hook-token';

const probeDir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'probe-adapter-'));

beforeAll(() => {
  const run = path.join(probeDir, 'run');
  fs.writeFileSync(run, `#!/usr/bin/env bash
key="$COMMANDR_PROBE_DATA/approval/private.pem"
echo "sandbox=\${COMMANDR_SANDBOX:-none}"
if cat "$key" >/dev/null 2>&1; then echo "key=readable"; else echo "key=hidden"; fi
if cat "$COMMANDR_PROBE_DATA/hook-token" >/dev/null 2>&1; then echo "hooktoken=readable"; else echo "hooktoken=hidden"; fi
echo "token=$COMMANDR_HOOK_TOKEN"
exec ${JSON.stringify(path.join(FAKE_ADAPTER_DIR, 'run'))}
`, { mode: 0o755 });
  fs.copyFileSync(path.join(FAKE_ADAPTER_DIR, 'wire'), path.join(probeDir, 'wire'));
  fs.chmodSync(path.join(probeDir, 'wire'), 0o755);
});
afterAll(() => fs.rmSync(probeDir, { recursive: true, force: true }));

const world = jobsWorld('sandbox-jobs-', { 'T-1': packet('T-1'), 'T-2': packet('T-2') }, () => ({ adapterDir: probeDir, adapterName: 'probe' }));
afterEach(() => {
  delete process.env.COMMANDR_PROBE_DATA;
});

const ended = (job: string) => world.phone.next('job.state', (f) => f.job === job && f.status !== 'running', 20_000);
const outputOf = (job: string) => world.phone.received.filter((f) => f.type === 'job.output' && f.job === job).map((f) => f.chunk as string).join('');

async function runJob(task: string): Promise<string> {
  process.env.COMMANDR_PROBE_DATA = world.fx.dataDir;
  loadOrCreateSigningKey(world.fx.dataDir);
  expect(fs.existsSync(path.join(world.fx.dataDir, 'approval', 'private.pem'))).toBe(true);
  const { job } = (await world.phone.request({ type: 'task.run', repo: world.repoId, task, mode: 'work' })).result as { job: string };
  expect(await ended(job)).toMatchObject({ status: 'done', exitCode: 0 });
  return outputOf(job);
}

function post(pathname: string, token: string, body: unknown): Promise<Response> {
  const raw = typeof body === 'string' ? body : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body);
  return fetch(`${world.fx.relay.url}${pathname}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: raw });
}

const liveEvent = (task: string) => ({ v: 1, session: 's-1', kind: 'other', summary: 'hello', task });
/** The hook record layout (NUL-terminated KEY=value fields, an empty one, then the JSON payload). */
const record = (fields: Record<string, string>, payload: unknown) => Buffer.from(`${Object.entries(fields).map(([k, v]) => `${k}=${v}\0`).join('')}\0${JSON.stringify(payload)}`);

describe('sandboxed jobs and their own credential', () => {
  it('SANDBOX-5: a job the relay starts runs in the sandbox by default: COMMANDR_SANDBOX is set and the approval key and hook-token cannot be read', async () => {
    const out = await runJob('T-1');
    expect(out).toContain('sandbox=bwrap');
    expect(out).toContain('key=hidden');
    expect(out).toContain('hooktoken=hidden');
    expect(out).toContain('echo: Work on task T-1'); // the agent itself ran
  });

  it('JOBTOKEN-1: a job gets its own credential in COMMANDR_HOOK_TOKEN, never the relay-wide hook-token, and it is revoked when the job ends', async () => {
    const out = await runJob('T-1');
    const token = /^token=(\S+)$/m.exec(out)?.[1];
    expect(token).toMatch(/^cj_/);
    expect(token).not.toBe(fs.readFileSync(hookTokenFile(world.fx.dataDir), 'utf8').trim());
    const res = await post('/api/events', token!, liveEvent('T-1'));
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/unknown or its run has ended/);
    expect(scopedTokensOf(world.fx.relay.services).size).toBe(0);
  });

  it('JOBTOKEN-2: a scoped credential reports and asks only for its own task and directories; another task, agent or path is refused 403', async () => {
    const worktree = path.join(world.fx.dataDir, 'worktrees', world.repoId, 'T-1');
    const tokens = scopedTokensOf(world.fx.relay.services);
    const token = tokens.issue({ owner: 'j-000000000001', repoId: world.repoId, task: 'T-1', agent: 'probe-j-000000000001', roots: [worktree, world.repo] });
    try {
      expect((await post('/api/events', token, liveEvent('T-1'))).status).toBe(202);
      const other = await post('/api/events', token, liveEvent('T-2'));
      expect(other.status).toBe(403);
      expect(await other.text()).toMatch(/credential of j-000000000001 is for task T-1 in .*, not task \\"T-2\\"/);
      expect((await post('/api/events', token, { ...liveEvent('T-1'), agent: 'someone-else' })).status).toBe(403);
      // The hook routes that read the record's fields: another task, or a directory in another repo.
      const tool = { hook_event_name: 'PreToolUse', session_id: 's-1', tool_name: 'Bash', tool_input: { command: 'ls' } };
      expect((await post('/api/permissions/check', token, record({ COMMANDR_TASK: 'T-2', PWD: worktree }, tool))).status).toBe(403);
      expect((await post('/api/permissions/check', token, record({ COMMANDR_TASK: 'T-1', PWD: '/etc' }, tool))).status).toBe(403);
      expect((await post('/api/hooks/report', token, record({ HOOK: 'PostToolUse', AGENTS_TASK_ID: 'T-2', PWD: worktree }, tool))).status).toBe(403);
      const ask = { key: 'q-00000000000000000001', task: 'T-2', cwd: worktree, timeoutMs: 1000, kind: 'question', question: 'ok?', choices: [] };
      expect((await post('/api/questions', token, ask)).status).toBe(403);
      expect((await post('/api/permissions', token, { session: 's-1', task: 'T-2', tool: 'Bash', summary: 'ls', cwd: worktree, key: 'k-0000000001' })).status).toBe(403);
      // Cancelling a question it did not ask, and any non-hook route, are refused.
      expect((await post('/api/questions/cancel', token, { key: 'q-00000000000000000002' })).status).toBe(403);
      expect((await fetch(`${world.fx.relay.url}/api/local/commanders`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
      // The relay-wide hook credential still speaks for any task (wired sessions).
      const hookToken = fs.readFileSync(hookTokenFile(world.fx.dataDir), 'utf8').trim();
      expect((await post('/api/events', hookToken, liveEvent('T-2'))).status).toBe(202);
    } finally {
      tokens.revoke(token);
    }
    expect((await post('/api/events', token, liveEvent('T-1'))).status).toBe(401);
  });
});
