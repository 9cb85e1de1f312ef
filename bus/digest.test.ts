import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countPatchFiles, digestOf, HeaderCounter, stagedDigest } from './digest';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'digest-'));
  dirs.push(dir);
  const git = (...a: string[]) => execFileSync('git', a, { cwd: dir });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 't');
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n');
  writeFileSync(join(dir, 'old.txt'), 'rename me\n'.repeat(20));
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  return dir;
}

describe('staged digest', () => {
  it('DIGEST-1 DIGEST-5: digest is sha256 of the exact bytes of git diff --cached --binary --no-color --no-ext-diff --no-textconv --ignore-submodules=none', async () => {
    const dir = repo();
    writeFileSync(join(dir, 'a.txt'), 'one\nTWO\n');
    writeFileSync(join(dir, 'bin.dat'), Buffer.from([0, 1, 2, 255, 0, 10, 13]));
    renameSync(join(dir, 'old.txt'), join(dir, 'new.txt'));
    execFileSync('git', ['add', '-A'], { cwd: dir });
    const expected = execFileSync('git', ['diff', '--cached', '--binary', '--no-color', '--no-ext-diff', '--no-textconv', '--ignore-submodules=none'], { cwd: dir });
    // With no submodule the option changes no byte: the contract's command gives the same digest.
    expect(execFileSync('git', ['diff', '--cached', '--binary', '--no-color', '--no-ext-diff'], { cwd: dir }).equals(expected)).toBe(true);
    const got = await stagedDigest(dir);
    expect(got.bytes).toBe(expected.length);
    expect(got.digest).toBe('sha256:' + createHash('sha256').update(expected).digest('hex'));
    expect(got.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(got.files).toBe(3);
  });

  it('DIGEST-2: an unstaged edit does not change the digest; a staged one does', async () => {
    const dir = repo();
    writeFileSync(join(dir, 'a.txt'), 'staged\n');
    execFileSync('git', ['add', 'a.txt'], { cwd: dir });
    const first = await stagedDigest(dir);
    writeFileSync(join(dir, 'a.txt'), 'worktree only\n');
    expect((await stagedDigest(dir)).digest).toBe(first.digest);
    execFileSync('git', ['add', 'a.txt'], { cwd: dir });
    expect((await stagedDigest(dir)).digest).not.toBe(first.digest);
  });

  it('DIGEST-5: a textconv command the repository configures is never run, and the digest covers the staged bytes, not its output', async () => {
    const dir = repo();
    const marker = join(dir, '..', `${dir.split('/').pop()}-PWNED`);
    dirs.push(marker);
    writeFileSync(join(dir, '.gitattributes'), 'a.txt diff=conv\n');
    execFileSync('git', ['config', 'diff.conv.textconv', `touch ${marker}; echo same for every content #`], { cwd: dir });
    writeFileSync(join(dir, 'a.txt'), 'one\nTWO\n');
    execFileSync('git', ['add', '-A'], { cwd: dir });
    const first = await stagedDigest(dir);
    expect(existsSync(marker), 'the textconv command ran').toBe(false);
    writeFileSync(join(dir, 'a.txt'), 'one\nTHREE\n');
    execFileSync('git', ['add', 'a.txt'], { cwd: dir });
    expect((await stagedDigest(dir)).digest).not.toBe(first.digest);
    expect(existsSync(marker)).toBe(false);
  });

  it('DIGEST-6: two people whose own git config writes patches differently (the relay as its own user, the agent as another) get the same digest of the same staged change', async () => {
    const dir = repo();
    writeFileSync(join(dir, 'a.txt'), 'one\nTWO\n');
    writeFileSync(join(dir, 'café.txt'), 'accents in the name\n');
    writeFileSync(join(dir, 'code.py'), 'def f():\n    pass\n\n\n');
    renameSync(join(dir, 'old.txt'), join(dir, 'new.txt'));
    execFileSync('git', ['add', '-A'], { cwd: dir });
    const homes = [mkdtempSync(join(tmpdir(), 'digest-home-')), mkdtempSync(join(tmpdir(), 'digest-home-'))];
    dirs.push(...homes);
    writeFileSync(join(homes[1]!, 'attributes'), '*.txt binary\n');
    writeFileSync(join(homes[1]!, 'order'), 'new.txt\n');
    writeFileSync(join(homes[1]!, '.gitconfig'), [
      '[core]', '\tabbrev = 12', '\tquotePath = false', `\tattributesFile = ${join(homes[1]!, 'attributes')}`,
      '[diff]', '\talgorithm = histogram', '\tnoprefix = true', '\tmnemonicPrefix = true', '\tcontext = 1', '\tinterHunkContext = 5',
      '\trenames = copies', `\torderFile = ${join(homes[1]!, 'order')}`, '\tsuppressBlankEmpty = true', '\tindentHeuristic = false', '\tsubmodule = log', '',
    ].join('\n'));
    const as = (home: string) => ({ ...process.env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1' });
    const plain = (home: string) => execFileSync('git', ['diff', '--cached', '--binary', '--no-color', '--no-ext-diff'], { cwd: dir, env: as(home) });
    expect(plain(homes[1]!).equals(plain(homes[0]!)), 'that config does change a plain git diff').toBe(false);
    const [person, relay] = [await stagedDigest(dir, as(homes[0]!)), await stagedDigest(dir, as(homes[1]!))];
    expect(relay.digest).toBe(person.digest);
    // With git's default config the digest is still the contract's command's.
    expect(person.digest).toBe(digestOf(plain(homes[0]!)));
  });

  it('DIGEST-3: nothing staged is the digest of zero bytes and zero files', async () => {
    const dir = repo();
    const got = await stagedDigest(dir);
    expect(got.files).toBe(0);
    expect(got.digest).toBe(digestOf(Buffer.alloc(0)));
  });

  it('DIGEST-1: a content line that looks like a header is not counted as a file', () => {
    const patch = Buffer.from('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-diff --git a/y b/y\n+z\n');
    expect(countPatchFiles(patch)).toBe(1);
  });

  it('DIGEST-1: headers split across stream chunks are counted once each', () => {
    const patch = Buffer.from('diff --git a/x b/x\n@@ -1 +1 @@\n+x\ndiff --git a/y b/y\n@@ -1 +1 @@\n+diff --git no\ndiff --git a/z b/z\n');
    for (let size = 1; size <= 13; size++) {
      const counter = new HeaderCounter();
      for (let at = 0; at < patch.length; at += size) counter.push(patch.subarray(at, at + size));
      expect(counter.count).toBe(3);
    }
  });

  it('DIGEST-4: a directory that is not a git work tree is an E_GIT error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'digest-nogit-'));
    dirs.push(dir);
    await expect(stagedDigest(dir)).rejects.toMatchObject({ code: 'E_GIT' });
  });
});
