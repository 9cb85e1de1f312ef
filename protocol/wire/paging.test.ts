// Accept/reject table for the snapshot paging frames (PAGE-n, WIRE-6): `repo.done`,
// `repo.tasks` and the paging fields of `repo.snapshot`.
import { describe, expect, it } from 'vitest';
import { ClientFrame, ServerFrame } from './frames';

const id = 'act_0123456789';
const repo = 'commandr-0123abcd';
const info = { id: repo, name: 'commandr', path: '/r', demo: false };
const cursor = { offset: 0, epoch: '1:2' };

const rows: [string, 'client' | 'server', unknown, boolean][] = [
  ['repo.done', 'client', { type: 'repo.done', id, repo }, true],
  ['repo.done with before and limit', 'client', { type: 'repo.done', id, repo, before: { ts: '2026-01-01T00:00:00.000Z', id: 'T-1' }, limit: 50 }, true],
  ['repo.done after a task with no event', 'client', { type: 'repo.done', id, repo, before: { ts: null, id: 'T-1' } }, true],
  ['repo.done with a traversing task key', 'client', { type: 'repo.done', id, repo, before: { ts: null, id: '../x' } }, false],
  ['repo.done over the page size', 'client', { type: 'repo.done', id, repo, limit: 501 }, false],
  ['repo.done with a zero limit', 'client', { type: 'repo.done', id, repo, limit: 0 }, false],
  ['repo.done without a repo', 'client', { type: 'repo.done', id }, false],
  ['repo.snapshot paged', 'server', { type: 'repo.snapshot', repo: info, tasks: [], cursor, pages: 3, done: { total: 9, sent: 5 }, at: '2026-01-01T00:00:00.000Z' }, true],
  ['repo.snapshot as older relays send it', 'server', { type: 'repo.snapshot', repo: info, tasks: [], cursor }, true],
  ['repo.snapshot with negative pages', 'server', { type: 'repo.snapshot', repo: info, tasks: [], cursor, pages: -1 }, false],
  ['repo.tasks', 'server', { type: 'repo.tasks', repo, tasks: [] }, true],
  ['repo.tasks answering a read', 'server', { type: 'repo.tasks', id, repo, tasks: [] }, true],
  ['repo.tasks with a bad repo', 'server', { type: 'repo.tasks', repo: 'x', tasks: [] }, false],
];

describe('paging frames', () => {
  it.each(rows)('PAGE-1 / PAGE-2: %s', (_name, side, frame, ok) => {
    expect((side === 'client' ? ClientFrame : ServerFrame).safeParse(frame).success).toBe(ok);
  });
});
