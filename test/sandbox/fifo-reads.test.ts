// A job's worktree is the agent's to write, `.git` included, and so is the bus; the relay reads
// that `.git` (and the files of the git dir it names) and the task's notes outside the sandbox: to
// find the bus and task of a hook's or a question's directory, the base of a staged diff, a task's
// detail, an artifact's event. A FIFO there must never block the relay (GITREAD-1, GITREAD-2, ANNOT-7): opening one for
// reading waits for a writer, and the relay's reads are synchronous, so one FIFO froze every phone,
// prompt and job the relay serves.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobsWorld, packet } from '../jobs/fixture';
import { FAKE_ADAPTER_DIR } from '../commanders/relay-fixture';
import { scopedTokensOf } from '../../relay/live/scoped-tokens';

const probeDir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'fifo-probe-'));
const children: ChildProcess[] = [];

beforeAll(() => {
  const run = path.join(probeDir, 'run');
  // The hostile job: inside its sandbox, it replaces the named files with FIFOs.
  fs.writeFileSync(run, `#!/usr/bin/env bash
set -e
gitdir=$(sed -n 's/^gitdir: //p' .git)
for f in "$gitdir/HEAD" "$gitdir/commondir"; do mv "$f" "$f.real"; mkfifo "$f"; done
common=$(cd "$gitdir" && cd "$(cat commondir.real)" && pwd)
bus="$(dirname "$common")/.agents"
mkdir -p "$bus/annotations/T-1" && mkfifo "$bus/annotations/T-1/0001-0001.json"
rm -f "$bus/events.jsonl" && mkfifo "$bus/events.jsonl"
rm .git && mkfifo .git
echo "planted in $COMMANDR_SANDBOX"
exec ${JSON.stringify(path.join(FAKE_ADAPTER_DIR, 'run'))}
`, { mode: 0o755 });
  fs.copyFileSync(path.join(FAKE_ADAPTER_DIR, 'wire'), path.join(probeDir, 'wire'));
  fs.chmodSync(path.join(probeDir, 'wire'), 0o755);
});
afterAll(() => fs.rmSync(probeDir, { recursive: true, force: true }));
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const world = jobsWorld('fifo-git-', { 'T-1': packet('T-1'), 'T-2': packet('T-2') }, () => ({ adapterDir: probeDir, adapterName: 'probe' }));

/**
 * Once the job made it, opens each FIFO for writing, over and over: each open returns only when someone opens it to read,
 * so it counts the relay's opens and unblocks a relay that opened one (the test then fails, not hangs).
 */
function witness(fifos: string[]): { opened: () => Promise<string> } {
  let out = '';
  const mine: ChildProcess[] = [];
  for (const fifo of fifos) {
    const f = JSON.stringify(fifo);
    const child = spawn('bash', ['-c', `until [ -p ${f} ]; do sleep 0.01; done; while [ -p ${f} ]; do exec 3>>${f}; echo "opened ${fifo}"; exec 3>&-; done`], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    children.push(child);
    mine.push(child);
  }
  // Everything the witnesses printed is read once their output has ended.
  const opened = async (): Promise<string> => {
    await Promise.all(mine.map((child) => new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
      child.once('close', resolve);
      child.kill('SIGKILL');
    })));
    return out;
  };
  return { opened };
}

describe('FIFOs a job leaves where the relay reads (GITREAD-1, GITREAD-2, ANNOT-7)', () => {
  it('GITREAD-1 GITREAD-2 ANNOT-7: a .git, HEAD, commondir, note or event log made a FIFO by a job blocks nothing: permission checks, questions, the task\'s diff and detail are answered', async () => {
    const worktree = path.join(world.fx.dataDir, 'worktrees', world.repoId, 'T-1');
    const gitDir = path.join(world.repo, '.git', 'worktrees', 'T-1');
    const note = path.join(world.repo, '.agents', 'annotations', 'T-1', '0001-0001.json');
    const fifos = [path.join(worktree, '.git'), path.join(gitDir, 'HEAD'), path.join(gitDir, 'commondir'), note, path.join(world.repo, '.agents', 'events.jsonl')];
    const seen = witness(fifos);
    const { job } = (await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-1', mode: 'work' })).result as { job: string };
    const ended = await world.phone.next('job.state', (f) => f.job === job && f.status !== 'running', 30_000);
    expect(ended).toMatchObject({ status: 'done' });
    for (const f of fifos) expect(fs.lstatSync(f).isFIFO(), f).toBe(true);

    // What the job's hooks send next, with a credential like its own.
    const tokens = scopedTokensOf(world.fx.relay.services);
    const token = tokens.issue({ owner: 'j-0000000000aa', repoId: world.repoId, task: 'T-1', agent: 'probe-j-0000000000aa', roots: [worktree, world.repo] });
    try {
      const post = (route: string, body: Buffer | string) => fetch(`${world.fx.relay.url}${route}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: typeof body === 'string' ? body : new Uint8Array(body) });
      const tool = { hook_event_name: 'PreToolUse', session_id: 'fifo-0001', cwd: worktree, tool_name: 'Bash', tool_input: { command: 'ls' } };
      const check = await post('/api/permissions/check', Buffer.from(`PWD=${worktree}\0AGENTS_TASK_ID=T-1\0\0${JSON.stringify(tool)}`));
      expect(check.status).toBe(200);
      const report = await post('/api/hooks/report', Buffer.from(`HOOK=Stop\0AGENTS_TASK_ID=T-1\0PWD=${worktree}\0\0${JSON.stringify({ ...tool, hook_event_name: 'Stop' })}`));
      expect(report.status).toBeLessThan(500);
      const question = await post('/api/questions', JSON.stringify({ key: 'q-0000000000000000fifo', task: 'T-1', cwd: worktree, timeoutMs: 1, kind: 'question', question: 'ok?', choices: [] }));
      expect(question.status).toBeLessThan(500);
      // The phone asks for the task's diff (the relay reads the worktree's git files for the base)
      // and its detail and timeline (the relay reads the task's notes).
      await world.phone.request({ type: 'task.diff', repo: world.repoId, task: 'T-1' }).catch(() => undefined);
      await world.phone.request({ type: 'task.detail', repo: world.repoId, task: 'T-1' });
      await world.phone.request({ type: 'task.timeline', repo: world.repoId, task: 'T-1' });
      // Opening an artifact reads the bus's log for the event that emitted it.
      await world.phone.request({ type: 'artifact.open', repo: world.repoId, task: 'T-1', artifact: 'a-0123456789abcdef0123' }).catch(() => undefined);
    } finally {
      tokens.revoke(token);
    }
    // Another task's job needs `git worktree add`, which reads every worktree's files: it is
    // refused naming the FIFO (GITREAD-2) instead of waiting on it, and the relay's next
    // `git worktree` run (any repo) is not held behind it.
    const next = await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-2', mode: 'work' }).then((r) => JSON.stringify(r), (e: Error) => e.message);
    expect(await seen.opened()).toBe('');
    expect(next).toMatch(/HEAD is not a regular file/);
  });
});
