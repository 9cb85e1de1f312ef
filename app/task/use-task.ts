// The task screen's data (REVIEW-1, -3, -8): the summary from the store, the
// detail and the diff read over the socket once the connection is live, and the
// timeline = the task's bus events (read, then live ones from the store) plus
// live session events for the task.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DiffSource, FileStat } from '../../protocol/bus/diff';
import type { LiveEvent } from '../../protocol/live-events';
import type { ServerFrame } from '../../protocol/wire/frames';
import type { TaskDetail, TaskSummary } from '../../protocol/wire/views';
import { read } from '../lib/actions';
import { toClientError, type ClientError } from '../lib/errors';
import { useRelay, type AppState } from '../lib/store';
import { assembleDiff, emptyAssembly, type DiffAssembly } from './diff-stream';
import { busItems, mergeTimeline, type BusEntryLike, type TimelineItem } from './timeline';

export type { TimelineItem };

export type Loadable<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: ClientError };

function useLive(): boolean {
  return useRelay((s) => s.connection.state === 'live');
}

export function useSummary(repo: string, task: string): TaskSummary | null {
  return useRelay((s) => s.tasks[repo]?.[task] ?? null);
}

/** Re-read whenever the summary changes (new annotation, verdict…). */
export function useTaskDetail(repo: string, task: string, version: string | null): Loadable<TaskDetail> {
  const live = useLive();
  const [state, setState] = useState<Loadable<TaskDetail>>({ status: 'loading' });
  useEffect(() => {
    if (!live) return;
    let cancelled = false;
    read('task.detail', { repo, task })
      .then((value) => !cancelled && setState({ status: 'ready', value: value as TaskDetail }))
      .catch((e: unknown) => !cancelled && setState({ status: 'error', error: toClientError(e) }));
    return () => { cancelled = true; };
  }, [live, repo, task, version]);
  return state;
}

export interface DiffResult {
  patch: string;
  files: FileStat[];
  /** The digest shown on screen: the one an approval carries. */
  digest: string | null;
  source: DiffSource;
  /** source commit: the committed change shown — the branch's tip and the merge base it is compared with (TSTATE-3). */
  commit: { tip: string; base: string; branch: string; into?: string } | null;
  /** performance.now() when the last chunk arrived (for the benchmark). */
  arrivedAt: number;
}

/**
 * Requests `task.diff` and assembles the streamed chunks; `reload()` asks again, and so does a new
 * `lifeKey` (the task's stage changed, TSTATE-3): the change shown follows the state. A re-read keeps
 * the change on screen until the new one is in, so the screen never flashes back to loading.
 */
export function useTaskDiff(repo: string, task: string, lifeKey = ''): [Loadable<DiffResult>, () => void] {
  const live = useLive();
  const [generation, setGeneration] = useState(0);
  const [state, setState] = useState<Loadable<DiffResult>>({ status: 'loading' });
  useEffect(() => {
    if (!live) return;
    let cancelled = false;
    let assembly: DiffAssembly = emptyAssembly();
    setState((s) => (s.status === 'ready' ? s : { status: 'loading' }));
    read('task.diff', { repo, task }, {
      onFrame: (frame: ServerFrame) => { assembly = assembleDiff(assembly, frame); },
      timeoutMs: 60_000,
    })
      .then(() => {
        if (cancelled) return;
        if (!assembly.done) throw new Error('the diff stream ended early');
        setState({ status: 'ready', value: { patch: assembly.chunks.join(''), files: assembly.files, digest: assembly.digest, source: assembly.source, commit: assembly.commit, arrivedAt: performance.now() } });
      })
      .catch((e: unknown) => !cancelled && setState({ status: 'error', error: toClientError(e) }));
    return () => { cancelled = true; };
  }, [live, repo, task, generation, lifeKey]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return [state, reload];
}

/** Bus events read once, then new ones from the store, then live events; newest last. */
export function useTimeline(repo: string, task: string): { items: TimelineItem[]; running: LiveEvent | null } {
  const live = useLive();
  const [initial, setInitial] = useState<TimelineItem[]>([]);
  useEffect(() => {
    if (!live) return;
    let cancelled = false;
    read('task.timeline', { repo, task })
      .then((value) => !cancelled && setInitial(busItems((value as { events?: BusEntryLike[] }).events ?? [])))
      .catch(() => undefined); // the live part still shows; the header says when offline
    return () => { cancelled = true; };
  }, [live, repo, task]);
  const recent = useRelay(useCallback((s: AppState) => s.recentEvents[repo], [repo]));
  const liveEvents = useRelay(useCallback((s: AppState) => s.live, []));
  return useMemo(() => mergeTimeline(initial, recent ?? [], liveEvents, task), [initial, recent, liveEvents, task]);
}
