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

describe('store: the saved state stays bounded (FIRST-6)', () => {
  const ts = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();

  it('FIRST-6: the saved state keeps every task not done and the newest 50 done ones per repo, and says older ones can be read', () => {
    const active = Array.from({ length: 10 }, (_, i) => task(`a${i}`, { state: i % 2 ? 'claimed' : 'inbox', lastEventTs: ts(i) }));
    const finished = Array.from({ length: 120 }, (_, i) => task(`d${String(i).padStart(3, '0')}`, { state: 'done', lastEventTs: ts(i) }));
    let s = reduce(initialState(), snapshot([...active, ...finished.slice(70)], { done: { total: 120, sent: 50 } }));
    // The person read every older done task: the store holds all 130, and knows nothing more is left.
    s = reduce(s, { type: 'repo.tasks', id: 'read-0001', repo: REPO, tasks: finished.slice(0, 70) });
    s = reduce(s, { type: 'local.doneMore', repo: REPO, more: false });
    expect(Object.keys(s.tasks[REPO]!)).toHaveLength(130);

    const saved = structuredClone(persistable(s));
    const kept = Object.values(saved.tasks[REPO]!);
    expect(kept.filter((t) => t.state !== 'done').map((t) => t.id).sort()).toEqual(active.map((t) => t.id).sort());
    expect(kept.filter((t) => t.state === 'done').map((t) => t.id).sort()).toEqual(finished.slice(70).map((t) => t.id).sort());
    expect(saved.done![REPO]).toEqual({ total: 120, more: true });
    // Reopened from it: the Inbox offers "Show older done tasks" again.
    const reopened = reduce(initialState(), { type: 'local.hydrate', snapshot: saved });
    expect(Object.keys(reopened.tasks[REPO]!)).toHaveLength(60);
    expect(reopened.done[REPO]!.more).toBe(true);
  });

  it('FIRST-6: an unchanged state gives the same saved objects (nothing is written again); a small repo is saved as it is', () => {
    const s = reduce(initialState(), snapshot([task('a'), task('d', { state: 'done' })], { done: { total: 1, sent: 1 } }));
    expect(persistable(s).tasks).toBe(persistable(s).tasks);
    expect(persistable(s).tasks[REPO]).toBe(s.tasks[REPO]);
    expect(persistable(s).done).toBe(s.done);
  });
});
