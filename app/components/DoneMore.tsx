'use client';
// "Show older done tasks": a snapshot carries only the newest done tasks of each repo
// (PAGE-1); this reads the next page of each repo that has more with `repo.done` (PAGE-2).
import { useDeferredValue, useMemo, useState } from 'react';
import { read } from '../lib/actions';
import { sentence } from '../lib/errors';
import { heldDone } from '../lib/inbox';
import { appStore, useRelay, type AppState } from '../lib/store';
import { Button } from './Button';

const selectDone = (s: AppState) => s.done;
const selectTasks = (s: AppState) => s.tasks;

/**
 * `repo`: the Inbox's repository filter (null: every repo). What it counts and where each
 * page starts come from the store (PAGE-3): the Done group on screen is narrowed by the
 * search and, rendered deferred (FIRST-12), can lag a page just read.
 */
export function DoneMore({ repo }: { repo: string | null }) {
  const done = useRelay(selectDone);
  // The count is read in the deferred render the Inbox's groups get (FIRST-12), not at every
  // store change: it walks every done task held. The page's start is read fresh when pressed.
  const tasks = useDeferredValue(useRelay(selectTasks));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const repos = Object.entries(done).filter(([id, d]) => d.more && (!repo || id === repo)).map(([id]) => id);
  const reposKey = repos.join('\n');
  // `repos` is a new array each render; its ids (reposKey) are what the count depends on.
  const held = useMemo(() => repos.reduce((n, id) => n + heldDone(tasks[id]).count, 0), [tasks, reposKey]); // eslint-disable-line react-hooks/exhaustive-deps
  if (repos.length === 0) return null;
  const total = repos.reduce((n, id) => n + done[id]!.total, 0);

  const load = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      for (const id of repos) {
        // The store as it is now: the page before this one may have landed a moment ago.
        const last = heldDone(appStore.getState().tasks[id]).oldest;
        const result = (await read('repo.done', { repo: id, ...(last ? { before: { ts: last.lastEventTs, id: last.id } } : {}) }, {
          onFrame: (frame) => appStore.dispatch(frame),
        })) as { more?: boolean };
        appStore.dispatch({ type: 'local.doneMore', repo: id, more: result?.more === true });
      }
    } catch (e) {
      setError(sentence(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack" style={{ gap: 4 }}>
      <Button onClick={() => void load()} disabled={busy} data-testid="inbox-done-more">
        {busy ? 'Loading…' : `Show older done tasks (${held} of ${total} loaded)`}
      </Button>
      {error ? <p role="alert" className="muted">{error}</p> : null}
    </div>
  );
}
