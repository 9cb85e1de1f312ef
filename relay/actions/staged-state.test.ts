// APPROVE-1: what an approval binds is read from one copy of the index — the same
// digest, base and tree git itself reports, from loose or packed refs, in the main
// checkout or a linked worktree — without rewriting the agent's own index.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stagedDigest } from '../../bus/digest';
import { NULL_OID } from '../../bus/diff';
import { git, makeRepo, packetText, TempDirs, writePacket } from '../../test/council/fixtures';
import { connectDevice } from '../../test/helpers/device';
import { repoIdFor, startRelay } from '../../test/relay-watch/fixture';
import { gitDirOf, headFromFiles, stagedState } from './staged-state';

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const inode = (file: string) => fs.statSync(file).ino;

async function expectGitAgrees(worktree: string): Promise<void> {
  const state = await stagedState(worktree);
  // What git says, one process after another (write-tree last: it rewrites the index it is given).
  const digest = (await stagedDigest(worktree)).digest;
  const base = git(worktree, 'rev-parse', '-q', '--verify', 'HEAD^{commit}').trim();
  expect(state).toEqual({ digest, base, tree: git(worktree, 'write-tree').trim() });
}

/** Puts a `git` first on PATH that records each run, for "no git process" checks. */
function countingGit(): { runs(): string[]; restore(): void } {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const dir = dirs.make('git-shim-');
  const log = path.join(dir, 'runs.log');
  fs.writeFileSync(path.join(dir, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  const saved = process.env.PATH;
  process.env.PATH = `${dir}:${saved}`;
  return {
    runs: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
    restore: () => void (process.env.PATH = saved),
  };
}

describe('staged state of one index copy', () => {
  it('APPROVE-1: digest, base and tree equal git\'s own, with loose and packed refs, in a linked worktree; the worktree index is not rewritten', async () => {
    const { repo } = makeRepo(dirs);
    const wt = path.join(dirs.make('staged-wt-'), 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'agent/T-1', wt);
    fs.writeFileSync(path.join(wt, 'app.ts'), 'export const answer = 42;\n');
    fs.writeFileSync(path.join(wt, 'new.bin'), Buffer.from([0, 1, 2, 255]));
    git(wt, 'add', 'app.ts', 'new.bin');
    const index = path.join(gitDirOf(wt)!, 'index');
    const before = inode(index);
    const state = await stagedState(wt);
    expect(inode(index)).toBe(before); // the relay's write-tree wrote its copy, not the agent's index
    expect(state.tree).toMatch(/^[0-9a-f]{40}$/);
    await expectGitAgrees(wt);
    git(repo, 'pack-refs', '--all');
    expect(fs.existsSync(path.join(repo, '.git', 'refs', 'heads', 'agent', 'T-1'))).toBe(false);
    await expectGitAgrees(wt);
    await expectGitAgrees(repo); // the main checkout: nothing staged, still one index
  });

  it('APPROVE-1: HEAD from the ref files: detached, unborn (the null oid, as headOf), and not guessed for anything else', () => {
    const { repo } = makeRepo(dirs);
    const gitDir = path.join(repo, '.git');
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    expect(headFromFiles(gitDir)).toBe(head);
    git(repo, 'checkout', '-q', '--detach');
    expect(headFromFiles(gitDir)).toBe(head);
    git(repo, 'checkout', '-q', '--orphan', 'fresh');
    expect(headFromFiles(gitDir)).toBe(NULL_OID);
    fs.writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/../../config\n');
    expect(headFromFiles(gitDir)).toBeUndefined();
    fs.writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/remotes/origin/main\n');
    expect(headFromFiles(gitDir)).toBeUndefined();
  });

  it('APPROVE-1: the agent/<task> worktree found before is not trusted once the branch is checked out elsewhere; the approval binds the new one', async () => {
    const { repo, bus } = makeRepo(dirs);
    writePacket(bus, 'claimed', 'T-1.md', packetText('T-1'));
    const first = path.join(dirs.make('staged-first-'), 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'agent/T-1', first);
    fs.writeFileSync(path.join(first, 'app.ts'), 'export const answer = 1;\n');
    git(first, 'add', 'app.ts');
    const relay = await startRelay([repo], { dataDir: dirs.make('staged-data-') });
    try {
      const device = await connectDevice(relay, 'phone');
      const repoId = repoIdFor(repo);
      const one = await device.request({ type: 'task.approve', repo: repoId, task: 'T-1', digest: (await stagedDigest(first)).digest });
      expect(one.result).toMatchObject({ worktree: first, token: 'written' });
      git(repo, 'worktree', 'remove', '--force', first);
      const second = path.join(dirs.make('staged-second-'), 'wt');
      git(repo, 'worktree', 'add', '-q', second, 'agent/T-1');
      fs.writeFileSync(path.join(second, 'app.ts'), 'export const answer = 2;\n');
      git(second, 'add', 'app.ts');
      const two = await device.request({ type: 'task.approve', repo: repoId, task: 'T-1', digest: (await stagedDigest(second)).digest });
      expect(two.result).toMatchObject({ worktree: second, token: 'written', base: git(second, 'rev-parse', 'HEAD').trim() });
      const token = JSON.parse(fs.readFileSync(path.join(bus, 'approvals', 'T-1.approved'), 'utf8')) as { tree?: string; approval?: { tree?: string } };
      expect(JSON.stringify(token)).toContain(git(second, 'write-tree').trim());
      await device.close();
    } finally {
      await relay.close();
    }
  });

  it('APPROVE-1 APPROVE-2: after the diff was read the approve runs no git process; a newer staged change, a moved HEAD or a changed git config is never answered from that read', async () => {
    const { repo, bus } = makeRepo(dirs);
    writePacket(bus, 'claimed', 'T-2.md', packetText('T-2'));
    const wt = path.join(dirs.make('staged-warm-'), 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'agent/T-2', wt);
    const stage = (text: string) => {
      fs.writeFileSync(path.join(wt, 'app.ts'), text);
      git(wt, 'add', 'app.ts');
    };
    stage('export const answer = 10;\n');
    const relay = await startRelay([repo], { dataDir: dirs.make('staged-warm-data-') });
    const shim = countingGit();
    try {
      const device = await connectDevice(relay, 'phone');
      const repoId = repoIdFor(repo);
      const read = async () => {
        await device.request({ type: 'task.diff', repo: repoId, task: 'T-2' });
        const begin = device.received.filter((f) => f.type === 'task.diff.begin').at(-1) as unknown as { digest: string };
        await stagedState(wt); // the read-ahead the diff started (same process): wait for it
        return begin.digest;
      };
      const approve = (digest: string) => device.request({ type: 'task.approve', repo: repoId, task: 'T-2', digest });
      const seen = await read();
      const before = shim.runs().length;
      expect(before).toBeGreaterThan(0);
      expect((await approve(seen)).result).toMatchObject({ token: 'written', worktree: wt });
      expect(shim.runs().slice(before)).toEqual([]);
      // A newer staged change: the digest the phone saw is stale, and the new one binds the new tree.
      stage('export const answer = 11;\n');
      await expect(approve(seen)).rejects.toMatchObject({ code: 'E_STALE_DIGEST' });
      const newer = (await stagedDigest(wt)).digest;
      expect((await approve(newer)).result).toMatchObject({ token: 'written' });
      expect(fs.readFileSync(path.join(bus, 'approvals', 'T-2.approved'), 'utf8')).toContain(git(wt, 'write-tree').trim());
      // A config that changes the patch bytes (same index, same HEAD) is a different digest, not the remembered one:
      // the patch format is pinned (DIGEST-6), but a diff driver the repo's attributes name is still read from config.
      fs.mkdirSync(path.join(repo, '.git', 'info'), { recursive: true });
      fs.writeFileSync(path.join(repo, '.git', 'info', 'attributes'), '*.ts diff=conv\n');
      await read();
      git(repo, 'config', 'diff.conv.binary', 'true');
      await expect(approve(newer)).rejects.toMatchObject({ code: 'E_STALE_DIGEST' });
      git(repo, 'config', '--unset', 'diff.conv.binary');
      // HEAD moved to another commit of the same tree, index untouched: same patch, but the base is the new HEAD, not the remembered one.
      const same = await read();
      const old = git(wt, 'rev-parse', 'HEAD').trim();
      const next = git(wt, 'commit-tree', `${old}^{tree}`, '-p', old, '-m', 'other').trim();
      git(wt, 'update-ref', 'refs/heads/agent/T-2', next);
      expect((await approve(same)).result).toMatchObject({ base: next });
      await device.close();
    } finally {
      shim.restore();
      await relay.close();
    }
  });
});
