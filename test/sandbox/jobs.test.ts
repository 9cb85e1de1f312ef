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
import { SESSIONS_PER_RUN, WAITING_PER_RUN } from '../../relay/live/scoped-tokens';
import { busRepo } from '../helpers/bus-repo';

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
  it('JOBTOKEN-3: a scoped credential speaks only for sessions it named first, in the directories it really works in, and asks only as itself', async () => {
    const worktree = path.join(world.fx.dataDir, 'worktrees', world.repoId, 'T-1');
    fs.mkdirSync(worktree, { recursive: true });
    const services = world.fx.relay.services;
    const tokens = scopedTokensOf(services);
    const token = tokens.issue({ owner: 'j-000000000001', repoId: world.repoId, task: 'T-1', agent: 'probe-j-000000000001', roots: [worktree, world.repo] });
    const other = tokens.issue({ owner: 'j-000000000002', repoId: world.repoId, task: 'T-1', agent: 'probe-j-000000000002', roots: [worktree, world.repo] });
    const hookToken = fs.readFileSync(hookTokenFile(world.fx.dataDir), 'utf8').trim();
    // Another repository with a bus, outside the run's roots, and a link to it inside them.
    const elsewhere = busRepo('sandbox-jobs-elsewhere-', { commit: true, inbox: { 'T-9': packet('T-9') } });
    fs.symlinkSync(elsewhere.repo, path.join(worktree, 'link'));
    const eventsOf = () => (fs.existsSync(path.join(elsewhere.bus, 'events.jsonl')) ? fs.readFileSync(path.join(elsewhere.bus, 'events.jsonl'), 'utf8') : '');
    const before = eventsOf();
    const refused = async (res: Response, why: RegExp) => {
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(why);
    };
    try {
      // The person's own session, wired: it reported with the relay-wide credential.
      expect((await post('/api/events', hookToken, { v: 1, session: 'victim-0001', kind: 'command', summary: 'npm run deploy', running: true })).status).toBe(202);
      await refused(await post('/api/events', token, { v: 1, session: 'victim-0001', kind: 'idle', summary: 'finished responding' }), /may not speak for session "victim-0001"/);
      const tool = (session: string, cwd: string) => ({ hook_event_name: 'PostToolUse', session_id: session, cwd, tool_name: 'Bash', tool_input: { command: 'git push --force' }, tool_response: { stdout: '' } });
      await refused(await post('/api/hooks/report', token, record({ HOOK: 'PostToolUse', PWD: worktree }, tool('victim-0001', worktree))), /may not speak for session/);
      await refused(await post('/api/permissions/check', token, record({ PWD: worktree }, { ...tool('victim-0001', worktree), hook_event_name: 'PreToolUse' })), /may not speak for session/);
      await refused(await post('/api/permissions', token, { session: 'victim-0001', tool: 'Bash', summary: 'rm -rf build', cwd: worktree, key: 'kspoof000001' }), /may not speak for session/);
      // A session the relay holds events of from before (a fleet member's, say) is not a run's to name.
      services.live.record({ v: 1, session: 'member-0001', kind: 'other', summary: 'from a member' });
      await refused(await post('/api/events', token, { v: 1, session: 'member-0001', kind: 'idle', summary: 'x' }), /may not speak for session/);
      expect(services.live.recent('victim-0001').map((e) => e.event.kind)).toEqual(['command']);

      // Its own new session it may name, and keeps; no other run may then.
      expect((await post('/api/events', token, { v: 1, session: 'own-0001', kind: 'other', summary: 'hello' })).status).toBe(202);
      expect((await post('/api/events', token, { v: 1, session: 'own-0001', kind: 'other', summary: 'again' })).status).toBe(202);
      await refused(await post('/api/events', other, { v: 1, session: 'own-0001', kind: 'idle', summary: 'x' }), /credential of j-000000000002 may not speak for session "own-0001"/);
      // What it left unsaid is its own: the event is stamped with its task and agent.
      expect(services.live.recent('own-0001').at(-1)!.event).toMatchObject({ task: 'T-1', agent: 'probe-j-000000000001' });

      // The payload's cwd is where the relay acts: another repository, directly or through a link, is refused, and nothing is written there.
      const stop = (cwd: string) => ({ hook_event_name: 'Stop', session_id: 'own-0001', cwd });
      await refused(await post('/api/hooks/report', token, record({ HOOK: 'Stop', PWD: worktree }, stop(elsewhere.repo))), /may not speak for ".*": outside/);
      await refused(await post('/api/hooks/report', token, record({ HOOK: 'Stop', PWD: worktree }, stop(path.join(worktree, 'link')))), /may not speak for ".*link": outside/);
      await refused(await post('/api/permissions/check', token, record({ PWD: worktree }, { ...tool('own-0001', path.join(worktree, 'link', 'src')), hook_event_name: 'PreToolUse' })), /outside/);
      // A relative GIT_DIR is where git would read it, from the hook's directory.
      await refused(await post('/api/hooks/report', token, record({ HOOK: 'Stop', PWD: worktree, GIT_DIR: 'link/.git' }, stop(worktree))), /may not speak for "link\/\.git": outside/);
      await refused(await post('/api/hooks/report', token, record({ HOOK: 'Stop' }, { hook_event_name: 'Stop', session_id: 'own-0001' })), /must name its directory/);
      const question = { kind: 'question', key: 'q-00000000000000000009', task: 'T-1', cwd: path.join(worktree, 'link'), timeoutMs: 1000, question: 'ok?', choices: [] };
      await refused(await post('/api/questions', token, question), /outside/);
      expect(eventsOf()).toBe(before);

      // A question another asker holds is not its to join (it would read the answer), nor to cancel.
      const questions = world.fx.relay.services.questions as { get(id: string): unknown };
      const asking = post('/api/questions', other, { ...question, cwd: worktree, key: 'q-00000000000000000010' });
      await expect.poll(() => questions.get('q-00000000000000000010')).toBeTruthy();
      await refused(await post('/api/questions', token, { ...question, cwd: worktree, key: 'q-00000000000000000010' }), /may not join q-00000000000000000010: another asker's/);
      await refused(await post('/api/questions/cancel', token, { key: 'q-00000000000000000010' }), /did not ask/);
      expect((await post('/api/questions/cancel', other, { key: 'q-00000000000000000010' })).status).toBe(200);
      expect((await asking).status).toBe(200);

      // The relay-wide credential takes over a session a run named first: the run had named one of the person's.
      expect((await post('/api/events', token, { v: 1, session: 'taken-0001', kind: 'other', summary: 'x' })).status).toBe(202);
      expect((await post('/api/events', hookToken, { v: 1, session: 'taken-0001', kind: 'other', summary: 'the real one' })).status).toBe(202);
      await refused(await post('/api/events', token, { v: 1, session: 'taken-0001', kind: 'idle', summary: 'x' }), /may not speak for session/);

      // A run names a bounded number of sessions: it cannot crowd the phone's view out with made-up ones.
      let accepted = 0;
      let last: Response;
      do {
        last = await post('/api/events', other, { v: 1, session: `made-up-${accepted}`, kind: 'other', summary: 'x' });
        if (last.status === 202) accepted++;
      } while (last.status === 202 && accepted <= SESSIONS_PER_RUN);
      expect(accepted).toBe(SESSIONS_PER_RUN);
      await refused(last, new RegExp(`has named ${SESSIONS_PER_RUN} sessions`));
    } finally {
      tokens.revoke(token);
      tokens.revoke(other);
      fs.rmSync(elsewhere.dir, { recursive: true, force: true });
    }
  });
  it('JOBTOKEN-4: a run has at most 8 requests waiting for the person at once: a 9th new one is refused 429, a retry of its own is not, and one settled makes room', async () => {
    const worktree = path.join(world.fx.dataDir, 'worktrees', world.repoId, 'T-1');
    fs.mkdirSync(worktree, { recursive: true });
    const tokens = scopedTokensOf(world.fx.relay.services);
    const token = tokens.issue({ owner: 'j-000000000003', repoId: world.repoId, task: 'T-1', agent: 'probe-j-000000000003', roots: [worktree, world.repo] });
    const questions = world.fx.relay.services.questions as { get(id: string): { status: string } | undefined };
    const key = (k: number) => `q-${String(k).padStart(20, '0')}`;
    const ask = (k: number) => post('/api/questions', token, { kind: 'question', key: key(k), task: 'T-1', cwd: worktree, timeoutMs: 60_000, question: `question ${k}?`, choices: [] });
    const waiting: Array<Promise<Response>> = [];
    try {
      for (let k = 0; k < WAITING_PER_RUN; k++) {
        waiting.push(ask(k));
        await expect.poll(() => questions.get(key(k))?.status).toBe('pending');
      }
      const ninth = await ask(WAITING_PER_RUN);
      expect(ninth.status).toBe(429);
      expect(((await ninth.json()) as { error: { message: string } }).error.message).toMatch(/has 8 requests waiting for the person already/);
      expect(questions.get(key(WAITING_PER_RUN))).toBeUndefined();
      // The relay-wide credential (the person's own sessions) is not counted.
      const hookToken = fs.readFileSync(hookTokenFile(world.fx.dataDir), 'utf8').trim();
      const wide = post('/api/questions', hookToken, { kind: 'question', key: key(99), task: 'T-1', cwd: worktree, timeoutMs: 60_000, question: 'mine?', choices: [] });
      await expect.poll(() => questions.get(key(99))?.status).toBe('pending');
      // A retry of one of its own joins it; one withdrawn makes room for a new one.
      const again = ask(0);
      expect((await post('/api/questions/cancel', token, { key: key(1) })).status).toBe(200);
      expect((await ask(WAITING_PER_RUN + 1)).status).toBe(200); // its long-poll opened: the question was taken
      await expect.poll(() => questions.get(key(WAITING_PER_RUN + 1))?.status).toBe('pending');
      for (const k of [0, 2, 3, 4, 5, 6, 7, WAITING_PER_RUN + 1, 99]) await post('/api/questions/cancel', hookToken, { key: key(k) });
      await Promise.all([...waiting, again, wide]);
    } finally {
      tokens.revoke(token);
    }
  });
});
