// The parser against patches made by real git in a temp repo (DIFFVIEW-1..3).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDiff, unquote } from './parse';

let repo: string;
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' });

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'diff-parse-'));
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 'T');
  git('config', 'core.quotePath', 'true');
  writeFileSync(join(repo, 'keep.txt'), 'one\ntwo\nthree\nfour\nfive\n');
  writeFileSync(join(repo, 'gone.txt'), 'bye\n');
  writeFileSync(join(repo, 'old name.txt'), Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n');
  writeFileSync(join(repo, 'tool.sh'), 'echo hi\n');
  writeFileSync(join(repo, 'pic.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  writeFileSync(join(repo, 'keep.txt'), 'one\nTWO\nthree\nfour\nfive and more');
  unlinkSync(join(repo, 'gone.txt'));
  renameSync(join(repo, 'old name.txt'), join(repo, 'new name.txt'));
  writeFileSync(join(repo, 'new name.txt'), Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\nextra\n');
  chmodSync(join(repo, 'tool.sh'), 0o755);
  writeFileSync(join(repo, 'pic.bin'), Buffer.from([0, 9, 9, 3, 0, 255, 7]));
  writeFileSync(join(repo, 'fresh.ts'), 'export const x = 1;\n');
  writeFileSync(join(repo, 'tab\tname.txt'), 'quoted\n');
  git('add', '-A');
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('parseDiff', () => {
  it('DIFFVIEW-1: modified, added, deleted and renamed files with their paths and line numbers', () => {
    const files = parseDiff(git('diff', '--cached', '-M'));
    const byPath = new Map(files.map((f) => [f.path, f]));
    const keep = byPath.get('keep.txt')!;
    expect(keep.status).toBe('modified');
    expect(keep.additions).toBe(2);
    expect(keep.deletions).toBe(2);
    const lines = keep.hunks[0].lines;
    expect(lines[0]).toMatchObject({ kind: 'context', text: 'one', oldNo: 1, newNo: 1 });
    expect(lines[1]).toMatchObject({ kind: 'del', text: 'two', oldNo: 2, newNo: null });
    expect(lines.find((l) => l.kind === 'add' && l.text === 'TWO')).toMatchObject({ newNo: 2, oldNo: null });
    expect(byPath.get('fresh.ts')).toMatchObject({ status: 'added', newMode: '100644', additions: 1 });
    expect(byPath.get('gone.txt')).toMatchObject({ status: 'deleted', oldMode: '100644', deletions: 1 });
    const renamed = byPath.get('new name.txt')!;
    expect(renamed).toMatchObject({ status: 'renamed', oldPath: 'old name.txt', additions: 1, deletions: 0 });
    expect(renamed.similarity).toBeGreaterThan(50);
    expect(byPath.get('tab\tname.txt')).toMatchObject({ status: 'added' });
  });

  it('DIFFVIEW-2: "\\ No newline at end of file" marks the line before it, and mode changes are kept', () => {
    const files = parseDiff(git('diff', '--cached', '-M'));
    const keep = files.find((f) => f.path === 'keep.txt')!;
    const last = keep.hunks[0].lines.filter((l) => l.kind === 'add').pop()!;
    expect(last).toMatchObject({ text: 'five and more', noNewline: true });
    expect(keep.hunks[0].lines.filter((l) => l.noNewline)).toHaveLength(1);
    const tool = files.find((f) => f.path === 'tool.sh')!;
    expect(tool).toMatchObject({ oldMode: '100644', newMode: '100755', hunks: [] });
  });

  it('DIFFVIEW-3: binary files, both as "Binary files … differ" and as a GIT binary patch', () => {
    const plain = parseDiff(git('diff', '--cached', '-M')).find((f) => f.path === 'pic.bin')!;
    expect(plain).toMatchObject({ binary: true, hunks: [] });
    const withPatch = git('diff', '--cached', '-M', '--binary');
    expect(withPatch).toContain('GIT binary patch');
    const files = parseDiff(withPatch);
    expect(files.find((f) => f.path === 'pic.bin')).toMatchObject({ binary: true, hunks: [] });
    // The binary literal lines must not leak into the next file.
    expect(files.map((f) => f.path).sort()).toEqual(parseDiff(git('diff', '--cached', '-M')).map((f) => f.path).sort());
  });

  it('DIFFVIEW-1: a trimmed hunk (fewer lines than its header says) still parses', () => {
    const files = parseDiff('diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1,50 +1,60 @@\n a\n-b\n+c\n');
    expect(files[0].hunks[0].lines).toHaveLength(3);
    expect(files[0]).toMatchObject({ path: 'x.ts', additions: 1, deletions: 1 });
  });

  it('DIFFVIEW-1: C-quoted paths are unquoted', () => {
    expect(unquote('"a\\tb\\303\\251"')).toBe('a\tbé');
    expect(unquote('plain')).toBe('plain');
  });
});
