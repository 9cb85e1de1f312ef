'use client';
// The Inbox: every task across watched repos, grouped by what needs a person first,
// updated live; filter by repo, search by id; queued actions shown on top.
import { useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { TaskSummary } from '../protocol/wire/views';
import { DoneMore } from './components/DoneMore';
import { EmptyState } from './components/EmptyState';
import { Button } from './components/Button';
import { Sheet } from './components/Sheet';
import { QueuedActions } from './components/QueuedActions';
import { NeedsYou } from './components/permissions/NeedsYou';
import { FIRST_CARDS, InboxGroup } from './components/InboxGroup';
import { dropInboxCopy, prepaintScript, savePrepaint } from './lib/prepaint';
import { groupTasks } from './lib/inbox';
import { useChunk } from './lib/use-chunk';
import { NOT_SENT_YET, NOTE } from './lib/words';
import type { ActResult } from './lib/actions';
import { useRelay, type AppState } from './lib/store';

// The New task sheet checks its fields against the wire's schema (zod): it is not part of the
// Inbox's own scripts (FIRST-7). It is fetched once the page is idle, so it opens offline too.
// Loaded as the note sheet is (below): a sheet whose code cannot be fetched says so (QUEUE-7).
const loadNewTaskSheet = () => import('./components/NewTaskSheet');
// The note sheet too: its photo attachment checks a photo against the wire's limits (zod,
// protocol/photos.ts). Fetched once the page is idle, like the New task sheet, so it opens offline;
// if its code could not be fetched by then (offline, no service worker), the sheet says so (QUEUE-7).
const loadNoteSheet = () => import('./components/NoteSheet');

const selectTasks = (s: AppState) => s.tasks;
const selectRepos = (s: AppState) => s.repos;
const selectHydrated = (s: AppState) => s.hydrated;

export default function InboxPage() {
  // The store's changes reach the groups in a render React can pause for a tap (FIRST-12):
  // the store is read with useSyncExternalStore, whose changes render at once and in one
  // piece, and the first of them (the saved state, right after hydration) renders every
  // card on the screen. Deferred together, the three change in one commit, so the copy
  // of the last Inbox (FIRST-9) is replaced by its cards in one frame, as before.
  const tasks = useDeferredValue(useRelay(selectTasks));
  const repos = useDeferredValue(useRelay(selectRepos));
  const hydrated = useDeferredValue(useRelay(selectHydrated));
  const [repo, setRepo] = useState('');
  const [query, setQuery] = useState('');
  const [noteFor, setNoteFor] = useState<TaskSummary | null>(null);
  const [creating, setCreating] = useState(false);
  const noteSheet = useChunk(loadNoteSheet, noteFor !== null);
  const newTaskSheet = useChunk(loadNewTaskSheet, creating);
  // What became of a note sent from here, said as the task screen says it (QUEUE-6).
  const [toast, setToast] = useState<{ text: string; tone: 'ok' | 'warn' } | null>(null);
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  const noteSent = (task: TaskSummary, outcome: ActResult) => setToast(outcome.status === 'queued'
    ? { text: NOT_SENT_YET.noteQueued(task.id), tone: 'warn' } : { text: NOT_SENT_YET.noteSaved(task.id), tone: 'ok' });
  const groups = useMemo(() => groupTasks(tasks, { repo: repo || null, query }), [tasks, repo, query]);
  useEffect(() => whenIdle(() => {
    void loadNewTaskSheet().catch(() => undefined);
    void loadNoteSheet().catch(() => undefined);
  }, 1000), []);
  const total = groups.reduce((n, g) => n + g.tasks.length, 0);
  // What the next load shows before its scripts run (FIRST-9): the unfiltered groups, kept
  // when the page is idle after they change.
  const groupsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!hydrated || repo || query) return;
    return whenIdle(() => (total > 0 && groupsRef.current ? savePrepaint(groupsRef.current, FIRST_CARDS) : dropInboxCopy()), 200);
  }, [groups, hydrated, repo, query, total]);
  useLayoutEffect(() => {
    if (hydrated) document.documentElement.removeAttribute('data-prepaint');
  }, [hydrated]);
  const repoList = Object.values(repos).sort((a, b) => a.name.localeCompare(b.name));

  return (
    <section aria-labelledby="inbox-title">
      <div className="page-head">
        <h1 id="inbox-title" className="page-title">Inbox</h1>
        <Button variant="primary" onClick={() => setCreating(true)} data-testid="new-task">New task</Button>
      </div>
      <QueuedActions />
      <NeedsYou />
      <div className="row inbox-filters">
        {repoList.length > 1 ? (
          <div className="field">
            <label htmlFor="inbox-repo">Repository</label>
            <select id="inbox-repo" data-testid="inbox-repo" value={repo} onChange={(e) => setRepo(e.target.value)}>
              <option value="">All repositories</option>
              {repoList.map((r) => (
                <option key={r.id} value={r.id}>{r.name}{r.demo ? ' (demo)' : ''}</option>
              ))}
            </select>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="inbox-search">Search tasks</label>
          <input id="inbox-search" data-testid="inbox-search" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Id or title" />
        </div>
      </div>
      {total === 0 ? (
        hydrated ? (
          <EmptyState title={query || repo ? 'No task matches.' : 'No tasks yet.'} testId="inbox-empty">
            {query || repo ? 'Clear the search or pick another repository.' : 'Tasks appear here as soon as an agent or a person adds one to a watched repository.'}
          </EmptyState>
        ) : (
          <EmptyState title="Loading…" testId="inbox-loading">Waiting for the relay. If you are offline, the last tasks you saw show here once loaded.</EmptyState>
        )
      ) : null}
      {!hydrated ? (
        <>
          {/* Filled from the last Inbox's copy as the page is parsed; replaced by the first render (FIRST-9). */}
          <div data-testid="inbox-prepaint" dangerouslySetInnerHTML={{ __html: '' }} />
          <script dangerouslySetInnerHTML={{ __html: prepaintScript }} />
        </>
      ) : null}
      <div ref={groupsRef}>
        {groups.filter((g) => g.tasks.length > 0).map((group) => (
          <InboxGroup key={group.key} group={group} repos={repos} showRepo={repoList.length > 1} onNote={setNoteFor} />
        ))}
      </div>
      <DoneMore repo={repo || null} />
      {noteFor && noteSheet.status === 'ready' ? (
        <noteSheet.value.NoteSheet task={noteFor} onClose={() => setNoteFor(null)} onSent={(outcome) => noteSent(noteFor, outcome)} />
      ) : noteFor && noteSheet.status === 'failed' ? (
        <Sheet title={NOTE.addTo(noteFor.id)} onClose={() => setNoteFor(null)} testId="note-sheet">
          <p role="alert" data-testid="note-unavailable">{NOT_SENT_YET.noteUnavailable}</p>
          <div className="row"><Button onClick={() => setNoteFor(null)}>Close</Button></div>
        </Sheet>
      ) : null}
      {toast ? <p className="toast" role="status" data-tone={toast.tone} data-testid="inbox-toast">{toast.text}</p> : null}
      {creating && newTaskSheet.status === 'ready' ? (
        <newTaskSheet.value.NewTaskSheet repos={repoList} tasks={tasks} onClose={() => setCreating(false)} />
      ) : creating && newTaskSheet.status === 'failed' ? (
        <Sheet title="New task" onClose={() => setCreating(false)} testId="new-task-sheet">
          <p role="alert" data-testid="new-task-unavailable">{NOT_SENT_YET.newTaskUnavailable}</p>
          <div className="row"><Button onClick={() => setCreating(false)}>Close</Button></div>
        </Sheet>
      ) : null}
    </section>
  );
}

/** How long the Inbox's confirmation of a note stays on screen. */
const TOAST_MS = 6000;

/** Runs `run` when the page is idle (after `fallbackMs` where the browser has no idle callback); returns its cancel. */
function whenIdle(run: () => void, fallbackMs: number): () => void {
  if (window.requestIdleCallback) {
    const handle = window.requestIdleCallback(run);
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, fallbackMs);
  return () => clearTimeout(timer);
}
