// Claims across machines: three clones of one bare remote, each with its own bus,
// race real `claim --remote` processes for the same packets.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completePacket } from '../../bus/complete';
import { remoteRefOwner, winTask } from '../../bus/remote-claim';
import { bundleCli, cleanEnv, git, packetText, run, TempDirs } from '../council/fixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

const BUS_DIRS = ['inbox', 'claimed', 'done', 'approvals'];

/** A bare remote whose main branch carries `count` inbox packets, and `machines` clones of it. */
function cluster(count: number, machines: number) {
  const root = dirs.make('remote-claim-');
  const origin = join(root, 'origin.git');
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  const seed = join(root, 'seed');
  git(root, 'clone', '-q', origin, seed);
  git(seed, 'config', 'user.email', 's@example.com');
  git(seed, 'config', 'user.name', 'Seed');
  mkdirSync(join(seed, '.agents', 'inbox'), { recursive: true });
  const ids = Array.from({ length: count }, (_, i) => `R-${String(i).padStart(2, '0')}`);
  for (const id of ids) writeFileSync(join(seed, '.agents', 'inbox', `${id}.md`), packetText(id));
  git(seed, 'add', '.');
  git(seed, 'commit', '-q', '-m', 'packets');
  git(seed, 'push', '-q', 'origin', 'main');
  const clones = Array.from({ length: machines }, (_, k) => {
    const clone = join(root, `machine-${k}`);
    git(root, 'clone', '-q', origin, clone);
    for (const d of BUS_DIRS) mkdirSync(join(clone, '.agents', d), { recursive: true });
    return clone;
  });
  return { root, origin, ids, clones };
}

/** Runs claim until the inbox reports empty; waits for `go` so all machines start together. */
function worker(root: string, claimCli: string, clone: string, go: string, env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const script = join(root, 'worker.cjs');
  if (!existsSync(script)) {
    writeFileSync(script, `const { spawnSync } = require('child_process'); const fs = require('fs');
const [cli, go, ...args] = process.argv.slice(2);
const deadline = Date.now() + 20000;
(function wait() { if (!fs.existsSync(go) && Date.now() < deadline) return setTimeout(wait, 5); loop(); })();
function loop() {
  for (let i = 0; i < 100; i++) {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
    if (r.status !== 0) { process.stderr.write(r.stderr); process.exit(r.status || 1); }
    const first = r.stdout.split('\\n')[0];
    if (first === 'inbox:empty') process.exit(0);
    process.stdout.write(first + '\\n');
  }
  process.exit(3);
}`);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, claimCli, go, ...args], { cwd: clone, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

function claimedIds(clone: string): string[] {
  return readdirSync(join(clone, '.agents', 'claimed')).map((n) => /_(R-\d+)\.md$/.exec(n)![1]!);
}

describe('claim --remote', () => {
  it('REMOTE-CLAIM-1 REMOTE-CLAIM-2: three machines racing for the same packets each win distinct tasks; every packet is claimed exactly once', async () => {
    const { root, origin, ids, clones } = cluster(9, 3);
    const cli = await bundleCli('claim');
    const go = join(root, 'go');
    const runs = clones.map((clone, k) => (k === 2
      ? worker(root, cli, clone, go, cleanEnv({ AGENTS_CLAIM_REMOTE: 'origin' }), [])
      : worker(root, cli, clone, go, cleanEnv(), ['--remote', 'origin'])));
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

  it('REMOTE-CLAIM-3: complete on a remote-claimed task deletes nothing on the remote', async () => {
    const { origin, clones } = cluster(1, 1);
    const res = await run(await bundleCli('claim'), ['--remote', 'origin'], { cwd: clones[0], env: cleanEnv() });
    expect(res.stdout).toMatch(/^claimed:/);
    const claimedPath = res.stdout.split('\n')[0]!.slice('claimed:'.length);
    const before = git(origin, 'rev-parse', 'refs/tasks/R-00').trim();
    await completePacket(claimedPath, 'pass');
    expect(git(origin, 'rev-parse', 'refs/tasks/R-00').trim()).toBe(before);
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
