import { describe, expect, it } from 'vitest';
import { REPO, task } from './testing/fixtures';
import { LIVE_PER_SESSION, createStore, initialState, persistable, reduce, type StoreInput } from './store';

const cursor = (offset: number) => ({ offset, epoch: '1:2' });

const snapshot: StoreInput = {
  type: 'repo.snapshot', repo: { id: REPO, name: 'demo', path: '/tmp/demo', demo: true }, tasks: [task('a'), task('b')], cursor: cursor(10),
};
const claimed: StoreInput = {
  type: 'bus.events', repo: REPO,
  events: [{ cursor: cursor(50), event: { ts: '2026-01-01T00:00:00Z', event: 'task_claimed', task: 'a', agent: 'x', machine: 'm' } }],
  tasks: [task('a', { state: 'claimed', owner: 'x' })],
};

describe('store reducer', () => {
  it('APP-6: a snapshot then bus events give tasks by repo and advance the cursor; a replayed batch changes nothing', () => {
    let s = reduce(reduce(initialState(), snapshot), claimed);
    expect(Object.keys(s.tasks[REPO])).toEqual(['a', 'b']);
    expect(s.tasks[REPO].a.state).toBe('claimed');
    expect(s.cursors[REPO]).toEqual(cursor(50));
    expect(s.recentEvents[REPO]).toHaveLength(1);
    const again = reduce(s, { ...claimed, tasks: [] } as StoreInput);
    expect(again).toBe(s);
    s = reduce(s, { type: 'repo.removed', repo: REPO });
    expect(s.tasks[REPO]).toBeUndefined();
    expect(s.cursors[REPO]).toBeUndefined();
  });

  it('FIRST-8: a snapshot, a task page or an event batch that repeats a task keeps the object held (its card does not render again); a changed task is the new one', () => {
    const saved = reduce(initialState(), snapshot);
    const fromRelay = reduce(saved, JSON.parse(JSON.stringify(snapshot)) as StoreInput); // equal data, new objects, as a frame parses
    expect(fromRelay.tasks[REPO].a).toBe(saved.tasks[REPO].a);
    expect(fromRelay.tasks[REPO].b).toBe(saved.tasks[REPO].b);
    expect(fromRelay.repos[REPO]).toBe(saved.repos[REPO]);
    const changed = reduce(saved, { ...snapshot, tasks: [task('a'), task('b', { title: 'Renamed' })] } as StoreInput);
    expect(changed.tasks[REPO].a).toBe(saved.tasks[REPO].a);
    expect(changed.tasks[REPO].b).not.toBe(saved.tasks[REPO].b);
    expect(changed.tasks[REPO].b.title).toBe('Renamed');
    const paged = reduce(saved, { type: 'repo.tasks', repo: REPO, tasks: [task('a'), task('c')] } as StoreInput);
    expect(paged.tasks[REPO].a).toBe(saved.tasks[REPO].a);
    expect(Object.keys(paged.tasks[REPO])).toEqual(['a', 'b', 'c']);
    const batch = reduce(saved, { ...claimed, tasks: [task('b'), task('a', { state: 'claimed', owner: 'x' })] } as StoreInput);
    expect(batch.tasks[REPO].b).toBe(saved.tasks[REPO].b);
    expect(batch.tasks[REPO].a.state).toBe('claimed');
  });

  it('APP-6: unknown, malformed and future frames leave the state untouched and never throw', () => {
    const s = reduce(initialState(), snapshot);
    for (const junk of [{ type: 'future.frame', x: 1 }, { type: 'toString' }, { type: '__proto__' }, {}, null]) {
      expect(reduce(s, junk as unknown as StoreInput)).toBe(s);
    }
  });

  it('APP-6: live events are bounded per session; commander output is appended once per seq', () => {
    let s = initialState();
    for (let i = 0; i < LIVE_PER_SESSION + 20; i++) {
      s = reduce(s, { type: 'live.event', at: 't', event: { v: 1, session: 's1', kind: 'edit', summary: `e${i}` } });
    }
    expect(s.live.s1).toHaveLength(LIVE_PER_SESSION);
    expect(s.live.s1.at(-1)?.event.summary).toBe(`e${LIVE_PER_SESSION + 19}`);
    const out = (seq: number, chunk: string): StoreInput => ({ type: 'commander.output', commander: 'c-abcdef', session: 'x', seq, chunk });
    s = reduce(reduce(reduce(s, out(0, 'he')), out(1, 'llo')), out(1, 'llo'));
    expect(s.commanderOutput['c-abcdef'].text).toBe('hello');
  });

  it('CHAT-9: a first turn\'s output before the CLI names its session and after it is one conversation; another session starts afresh', () => {
    const out = (session: string | null, seq: number, chunk: string): StoreInput => ({ type: 'commander.output', commander: 'c-abcdef', session, seq, chunk });
    let s = reduce(reduce(initialState(), out(null, 0, '› fix the build\n')), out('sess-1', 1, 'Looking at it.\n'));
    expect(s.commanderOutput['c-abcdef'].text).toBe('› fix the build\nLooking at it.\n');
    s = reduce(s, out('sess-2', 2, '› again\n'));
    expect(s.commanderOutput['c-abcdef'].text).toBe('› again\n');
  });

  it('APP-9: the persisted part of the state round-trips through hydrate (so the last data shows offline)', () => {
    const s = reduce(reduce(initialState(), snapshot), claimed);
    const fresh = reduce(initialState(), { type: 'local.hydrate', snapshot: structuredClone(persistable(s)) });
    expect(fresh.tasks).toEqual(s.tasks);
    expect(fresh.cursors).toEqual(s.cursors);
    expect(fresh.hydrated).toBe(true);
    // A hydrate arriving after live data must not overwrite it.
    expect(reduce(s, { type: 'local.hydrate', snapshot: persistable(initialState()) }).tasks).toEqual({ ...s.tasks });
  });

  it('APP-8: the store notifies only on change and records connection state with its error', () => {
    const store = createStore();
    let calls = 0;
    store.subscribe(() => calls++);
    store.dispatch({ type: 'nothing' } as unknown as StoreInput);
    expect(calls).toBe(0);
    store.dispatch({ type: 'local.connection', state: 'reconnecting' });
    expect(store.getState().connection).toEqual({ state: 'reconnecting', error: null });
    expect(calls).toBe(1);
  });
});
