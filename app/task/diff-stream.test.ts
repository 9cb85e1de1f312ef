// Diff stream assembly (REVIEW-3).
import { describe, expect, it } from 'vitest';
import type { ServerFrame } from '../../protocol/wire/frames';
import { assembleDiff, emptyAssembly } from './diff-stream';

const id = 'abcdefgh12';
const begin: ServerFrame = { type: 'task.diff.begin', id, repo: 'r-0123abcd', task: 'T1', source: 'approval', digest: 'sha256:' + 'a'.repeat(64), worktree: '/w', files: [], bytes: 6 };

describe('assembleDiff', () => {
  it('REVIEW-3: chunks are joined in seq order, complete only when every chunk arrived', () => {
    let a = assembleDiff(emptyAssembly(), begin);
    a = assembleDiff(a, { type: 'task.diff.chunk', id, seq: 1, data: 'def' });
    a = assembleDiff(a, { type: 'task.diff.chunk', id, seq: 0, data: 'abc' });
    a = assembleDiff(a, { type: 'task.diff.end', id, chunks: 2 });
    expect(a.done).toBe(true);
    expect(a.chunks.join('')).toBe('abcdef');
    expect(a.digest).toBe(begin.type === 'task.diff.begin' ? begin.digest : null);
  });

  it('REVIEW-3: a missing chunk leaves the diff incomplete', () => {
    let a = assembleDiff(emptyAssembly(), begin);
    a = assembleDiff(a, { type: 'task.diff.chunk', id, seq: 1, data: 'def' });
    a = assembleDiff(a, { type: 'task.diff.end', id, chunks: 2 });
    expect(a.done).toBe(false);
  });
});
