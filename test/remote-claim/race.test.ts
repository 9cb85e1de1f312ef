// Claims across machines: three clones of one bare remote, each with its own bus,
// race real `claim --remote` processes for the same packets.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completePacket } from '../../bus/complete';
import { remoteRefOwner, winTask } from '../../bus/remote-claim';
import { bundleCli, cleanEnv, git, run, TempDirs } from '../council/fixtures';
import { claimWorker, cluster as makeCluster } from './cluster';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());
const cluster = (count: number, machines: number) => makeCluster(dirs, count, machines);

function claimedIds(clone: string): string[] {
  return readdirSync(join(clone, '.agents', 'claimed')).map((n) => /_(R-\d+)\.md$/.exec(n)![1]!);
}

describe('claim --remote', () => {
  it('REMOTE-CLAIM-1 REMOTE-CLAIM-2: three machines racing for the same packets each win distinct tasks; every packet is claimed exactly once', async () => {
    const { root, origin, ids, clones } = cluster(9, 3);
    const cli = await bundleCli('claim');
    const go = join(root, 'go');
    const runs = clones.map((clone, k) => (k === 2
      ? claimWorker(root, cli, clone, go, { AGENTS_CLAIM_REMOTE: 'origin' }, [])
      : claimWorker(root, cli, clone, go, {}, ['--remote', 'origin'])));
    writeFileSync(go, '');
    const results = await Promise.all(runs);
    for (const r of results) expect(r.err).toBe('');
    expect(results.map((r) => r.code)).toEqual([0, 0, 0]);

    const perMachine = clones.map(claimedIds);
    const all = perMachine.flat().sort();
    expect(all).toEqual(ids);
    clones.forEach((clone, k) => {
      const inbox = readdirSync(join(clone, '.agents', 'inbox')).map((n) => n.replace(/\.md$/, ''));
      expect([...inbox, ...perMachine[k]!].sort()).toEqual(ids);
      const claimedEvents = readFileSync(join(clone, '.agents', 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      expect(claimedEvents.map((e) => e.task).sort()).toEqual([...perMachine[k]!].sort());
    });

    const refs = git(origin, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/tasks/').trim().split('\n');
    expect(refs.map((r) => r.split(' ')[0]).sort()).toEqual(ids.map((id) => `refs/tasks/${id}`));
    for (const clone of clones) {
      for (const name of readdirSync(join(clone, '.agents', 'claimed'))) {
        const [host, pid] = name.split('_');
        const id = /_(R-\d+)\.md$/.exec(name)![1]!;
        const message = git(origin, 'log', '-1', '--format=%B', `refs/tasks/${id}`);
        expect(message).toContain(`host: ${host}`);
        expect(message).toContain(`pid: ${pid}`);
        expect(message).toMatch(/time: \d{4}-\d\d-\d\dT/);
        expect(git(origin, 'rev-list', '--count', `refs/tasks/${id}`).trim()).toBe('1');
      }
    }
  });

  it('REMOTE-CLAIM-2: a second machine cannot take an existing task ref, and the ref keeps the first commit (never forced)', async () => {
    const { origin, clones } = cluster(1, 2);
    expect(await winTask(clones[0]!, 'origin', 'R-00', { host: 'a', pid: 1 })).toBe('won');
    const first = await remoteRefOwner(clones[0]!, 'origin', 'refs/tasks/R-00');
    expect(await winTask(clones[1]!, 'origin', 'R-00', { host: 'b', pid: 2 })).toBe('lost');
    expect(await winTask(clones[0]!, 'origin', 'R-00', { host: 'a', pid: 1 })).toBe('lost');
    expect(git(origin, 'rev-parse', 'refs/tasks/R-00').trim()).toBe(first);
  });

  it('REMOTE-CLAIM-3: complete on a remote-claimed task deletes nothing on the remote: the ref gains a done commit on top of the claim', async () => {
    const { origin, clones } = cluster(1, 1);
    const res = await run(await bundleCli('claim'), ['--remote', 'origin'], { cwd: clones[0], env: cleanEnv() });
    expect(res.stdout).toMatch(/^claimed:/);
    const claimedPath = res.stdout.split('\n')[0]!.slice('claimed:'.length);
    const before = git(origin, 'rev-parse', 'refs/tasks/R-00').trim();
    await completePacket(claimedPath, 'pass');
    expect(git(origin, 'rev-parse', 'refs/tasks/R-00^').trim()).toBe(before);
    expect(git(origin, 'log', '-1', '--format=%s', 'refs/tasks/R-00').trim()).toBe('done R-00');
    expect(git(origin, 'rev-list', '--max-parents=0', 'refs/tasks/R-00').trim()).toBe(before);
  });

  it('REMOTE-CLAIM-4: an unreachable remote fails the claim (exit 1): nothing moved, no event, not reported as an empty inbox', async () => {
    const { root, clones } = cluster(2, 1);
    const res = await run(await bundleCli('claim'), ['--remote', join(root, 'no-such-remote.git')], { cwd: clones[0], env: cleanEnv() });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/E_GIT/);
    expect(readdirSync(join(clones[0]!, '.agents', 'inbox'))).toHaveLength(2);
    expect(readdirSync(join(clones[0]!, '.agents', 'claimed'))).toEqual([]);
    expect(existsSync(join(clones[0]!, '.agents', 'events.jsonl'))).toBe(false);
  });

  it('REMOTE-CLAIM-5: a remote spelled like an option, or --remote without a value, is a usage error (exit 2)', async () => {
    const { clones } = cluster(1, 1);
    const cli = await bundleCli('claim');
    for (const args of [['--remote', '--force'], ['--remote'], ['--remote', 'origin', 'extra']]) {
      const res = await run(cli, args, { cwd: clones[0], env: cleanEnv() });
      expect(res.code, JSON.stringify(args)).toBe(2);
      expect(res.stdout).toBe('');
    }
    expect(readdirSync(join(clones[0]!, '.agents', 'claimed'))).toEqual([]);
  });
});
