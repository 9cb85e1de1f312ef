// GITRUN-3: every path on which the relay, the bus tools or the CLI run git in a repository an
// agent works in, against a repository where every command-bearing key is set (hostile.ts):
// through its .git/config, through a file its config includes from the work tree, and with the
// drivers named by .gitattributes or .git/info/attributes. Each path must still do its job and
// the marker file that any of those commands would write must not exist. Real relay on port 0,
// a real device over ws, real git repositories and a bare remote.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitDiffText } from '../../bus/council/council';
import { stagedDigest } from '../../bus/digest';
import { fetchTaskTip, pushTaskRef, writeLeaseCommit } from '../../bus/lease-git';
import { unsharedTrackedBusFiles } from '../../bus/tracked-bus';
import { workStateAsync } from '../../adapters/lib/checkpoint';
import { ensureTaskWorktree } from '../../relay/jobs/worktree';
import { makeRepo, packetText, TempDirs, writePacket } from '../council/fixtures';
import { connectDevice } from '../helpers/device';
import { repoIdFor, startRelay } from '../relay-watch/fixture';
import { git, makeHostile, type AttrSource, type Source } from './hostile';

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const VARIANTS: Array<[Source, AttrSource]> = [['config', '.gitattributes'], ['include', '.gitattributes'], ['config', 'info/attributes']];

/** A repo with task T-1 claimed, its worktree on agent/T-1 holding a staged and an unstaged change, then made hostile. */
function hostileTask(source: Source, attrs: AttrSource) {
  const { repo, bus } = makeRepo(dirs);
  writePacket(bus, 'claimed', 'T-1.md', packetText('T-1'));
  const wt = path.join(dirs.make('gitrun-wt-'), 'wt');
  git(repo, 'worktree', 'add', '-q', '-b', 'agent/T-1', wt);
  fs.writeFileSync(path.join(wt, 'app.ts'), 'export const answer = 42;\n');
  fs.writeFileSync(path.join(wt, 'new.p'), 'processed\n');
  git(wt, 'add', 'app.ts', 'new.p');
  fs.appendFileSync(path.join(wt, 'README.md'), 'more\n');
  const hostile = makeHostile(repo, wt, dirs.make('gitrun-marker-'), source, attrs);
  return { repo, bus, wt, hostile };
}

describe('every relay path that runs git, in a hostile repository', () => {
  it.each(VARIANTS)('GITRUN-3: the phone opens the task diff and approves it (repo %s, attributes in %s): diff and token are right, no command ran', async (source, attrs) => {
    const { repo, bus, wt, hostile } = hostileTask(source, attrs);
    const relay = await startRelay([repo], { dataDir: dirs.make('gitrun-data-') });
    try {
      const device = await connectDevice(relay, 'phone');
      const repoId = repoIdFor(repo);
      await device.request({ type: 'task.diff', repo: repoId, task: 'T-1' });
      const begin = device.received.filter((f) => f.type === 'task.diff.begin').at(-1) as unknown as { digest: string };
      const chunks = device.received.filter((f) => f.type === 'task.diff.chunk').map((f) => JSON.stringify(f)).join('');
      expect(chunks).toContain('answer = 42');
      const digest = (await stagedDigest(wt)).digest;
      expect(begin.digest).toBe(digest);
      const approved = await device.request({ type: 'task.approve', repo: repoId, task: 'T-1', digest });
      expect(approved.result).toMatchObject({ token: 'written', worktree: fs.realpathSync(wt) });
      expect(fs.existsSync(path.join(bus, 'approvals', 'T-1.approved'))).toBe(true);
      await device.close();
    } finally {
      await relay.close();
    }
    expect(hostile.fired()).toEqual([]);
  });

  it.each(VARIANTS)('GITRUN-3: checkpoint work state (a hook report), the council\'s diff, the bus tracking check (repo %s, attributes in %s): right answers, no command ran', async (source, attrs) => {
    const { repo, wt, hostile } = hostileTask(source, attrs);
    const state = await workStateAsync(wt);
    expect(state.changed.sort()).toEqual(expect.arrayContaining(['README.md', 'app.ts', 'new.p']));
    expect(await gitDiffText(['HEAD'], wt)).toContain('+more');
    expect(await gitDiffText(['--cached'], wt)).toContain('answer = 42');
    expect(unsharedTrackedBusFiles(repo)).toEqual([]);
    expect(hostile.fired()).toEqual([]);
  });

  it.each(VARIANTS)('GITRUN-3: a job\'s task worktree is checked out, and a remote claim is pushed and read back (repo %s, attributes in %s): both work, no command ran', async (source, attrs) => {
    const { repo, hostile } = hostileTask(source, attrs);
    const made = await ensureTaskWorktree(repo, 'T-2', dirs.make('gitrun-jobs-'));
    expect(fs.readFileSync(path.join(made, 'app.ts'), 'utf8')).toBe('export const answer = 41;\n');
    const bare = path.join(dirs.make('gitrun-remote-'), 'bare.git');
    git(repo, 'init', '-q', '--bare', bare);
    git(repo, 'config', 'remote.origin.url', bare); // the hostile config already names remote origin (its uploadpack)
    const now = new Date().toISOString();
    const lease = { kind: 'claim' as const, task: 'T-3', claimant: 'host_1', machine: 'host', lease_id: '0123456789abcdef', lease_seconds: 600, lease_until: now, time: now, since: now };
    const sha = await writeLeaseCommit(repo, lease);
    expect(await pushTaskRef(repo, 'origin', 'T-3', sha, { kind: 'create' })).toEqual({ ok: true });
    expect((await fetchTaskTip(repo, 'origin', 'T-3'))?.sha).toBe(sha);
    expect(hostile.fired()).toEqual([]);
  });
});
