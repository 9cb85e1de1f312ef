// The store's side of snapshot paging (PAGE-3) and "last synced" (RESUME-3): pure reducer checks.
import { describe, expect, it } from 'vitest';
import { REPO, task } from './testing/fixtures';
import { initialState, persistable, reduce, type AppState, type StoreInput } from './store';

const repo = { id: REPO, name: 'demo', path: '/tmp/demo', demo: false };
const snapshot = (tasks: ReturnType<typeof task>[], extra: Record<string, unknown> = {}): StoreInput =>
  ({ type: 'repo.snapshot', repo, tasks, cursor: { offset: 10, epoch: '1:2' }, ...extra }) as StoreInput;

describe('store: paged snapshots', () => {
  it('PAGE-3: a snapshot replaces the repo\'s tasks, its repo.tasks pages add to them, and repo.done pages add older done tasks', () => {
    let s = reduce(initialState(), snapshot([task('old')]));
    s = reduce(s, snapshot([task('a')], { pages: 1, done: { total: 3, sent: 1 }, at: '2026-01-01T10:00:00.000Z' }));
    expect(Object.keys(s.tasks[REPO]!)).toEqual(['a']);
    expect(s.done[REPO]).toEqual({ total: 3, more: true });
    s = reduce(s, { type: 'repo.tasks', repo: REPO, tasks: [task('b'), task('d1', { state: 'done' })] });
    s = reduce(s, { type: 'repo.tasks', id: 'read-0001', repo: REPO, tasks: [task('d2', { state: 'done' })] });
    expect(Object.keys(s.tasks[REPO]!).sort()).toEqual(['a', 'b', 'd1', 'd2']);
    s = reduce(s, { type: 'local.doneMore', repo: REPO, more: false });
    expect(s.done[REPO]).toEqual({ total: 3, more: false });
    // A page for a repo the app does not hold (removed meanwhile) is ignored.
    expect(reduce(s, { type: 'repo.tasks', repo: 'other-00000000', tasks: [task('x')] })).toBe(s);
  });

  it('RESUME-3: syncedAt is the newest snapshot\'s relay time, then the moment the connection stopped being live; it is persisted', () => {
    let s: AppState = reduce(initialState(), snapshot([task('a')], { at: '2026-01-01T10:00:00.000Z' }));
    expect(s.syncedAt).toBe('2026-01-01T10:00:00.000Z');
    s = reduce(s, { type: 'local.connection', state: 'live', at: '2026-01-01T10:00:01.000Z' });
    expect(s.syncedAt).toBe('2026-01-01T10:00:00.000Z');
    s = reduce(s, { type: 'local.connection', state: 'reconnecting', at: '2026-01-01T11:30:00.000Z' });
    expect(s.syncedAt).toBe('2026-01-01T11:30:00.000Z');
    s = reduce(s, { type: 'local.connection', state: 'offline', at: '2026-01-01T12:00:00.000Z' });
    expect(s.syncedAt).toBe('2026-01-01T11:30:00.000Z'); // not live in between: nothing new was synced
    expect(persistable(s).syncedAt).toBe('2026-01-01T11:30:00.000Z');
  });
});
