'use client';
// The task screen (REVIEW-1..8): header, body, diff review, council verdict,
// annotations, timeline, and the sticky action bar bound to the diff on screen.
import { useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useState } from 'react';
import { DiffView } from '../components/diff/DiffView';
import { EmptyState } from '../components/EmptyState';
import { SandboxWarning } from '../components/SandboxWarning';
import { isClientErrorCode, sentence } from '../lib/errors';
import { NOTICE_PARAM } from '../../protocol/wire/push';
import { useRelay } from '../lib/store';
import { ActionBar, type SheetRequest } from './ActionBar';
import { Annotations } from './Annotations';
import { Artifacts } from './Artifacts';
import { AgentRun } from './AgentRun';
import { CouncilVerdict, isRealFail, tallyOf, tallySentence } from './CouncilVerdict';
import { renderMarkdown } from './markdown';
import { TaskHeader } from './TaskHeader';
import { Timeline } from './Timeline';
import { changesLine, lifeKey, stageOf } from './task-stage';
import { useSummary, useTaskDetail, useTaskDiff, useTimeline } from './use-task';
import './task.css';

export function TaskScreen() {
  const params = useSearchParams();
  const repo = params.get('repo') ?? '';
  const id = params.get('id') ?? '';
  // Set by the service worker when an action taken from a notification failed.
  const notice = params.get(NOTICE_PARAM);
  if (!repo || !id) return <EmptyState title="No task chosen">Open a task from the inbox.</EmptyState>;
  return (
    <>
      {notice && isClientErrorCode(notice) ? (
        <p className="card notice" data-tone="danger" role="alert" data-testid="task-push-notice">{sentence(notice)}</p>
      ) : null}
      <TaskReview key={`${repo}/${id}`} repo={repo} id={id} />
    </>
  );
}

function TaskReview({ repo, id }: { repo: string; id: string }) {
  const summary = useSummary(repo, id);
  const live = useRelay((s) => s.connection.state === 'live');
  const version = summary ? `${summary.lastEventTs}|${summary.annotations.total}|${summary.verdict?.ts ?? ''}` : null;
  const detail = useTaskDetail(repo, id, version);
  const task = summary ?? (detail.status === 'ready' ? detail.value.summary : null);
  const life = task?.life;
  const stage = stageOf(task);
  // The change shown follows the task's stage: staged while it waits, committed once committed (TSTATE-3).
  const [diff, reloadDiff] = useTaskDiff(repo, id, lifeKey(life));
  const timeline = useTimeline(repo, id);
  const [sheet, setSheet] = useState<SheetRequest | null>(null);
  const [choosingAgent, setChoosingAgent] = useState(false);
  const annotate = useCallback((anchor: string) => setSheet({ kind: 'annotate', anchor }), []);
  // The commit the task had when this screen first knew it: only a newer one is announced (TSTATE-5),
  // so a reload or a fresh device shows the committed state, never the confirmation again.
  const [commitAtOpen, setCommitAtOpen] = useState<string | null | undefined>(undefined);
  if (commitAtOpen === undefined && task) setCommitAtOpen(life?.commit?.hash ?? null);
  const freshCommit = life?.commit && commitAtOpen !== undefined && life.commit.hash !== commitAtOpen ? life.commit : null;
  const body = useMemo(() => (detail.status === 'ready' ? renderMarkdown(detail.value.body) : ''), [detail]);
  // Notes written on a line show under that line in the diff (UX-10).
  const lineNotes = useMemo(() => {
    const map = new Map<string, { author: string; body: string; consumed: boolean }[]>();
    if (detail.status !== 'ready') return map;
    for (const { annotation: a, fromRepository } of detail.value.annotations) {
      if (fromRepository || !a.anchor.startsWith('line:')) continue; // ANNOT-6: not the person's
      map.set(a.anchor, [...(map.get(a.anchor) ?? []), { author: a.author, body: a.body, consumed: a.consumed }]);
    }
    return map;
  }, [detail]);
  // Folded until the person opens it: it never expands by itself and never pushes the diff away (UX-2).
  const [briefOpen, setBriefOpen] = useState(false);
  // A task that waits for approval opens on what is to be approved: the council's verdict and
  // the diff come before the agent's card (REVIEW-9). Chosen once, when the task is first
  // known, so approving never moves the diff from under the person's thumb.
  const [reviewFirst, setReviewFirst] = useState<boolean | null>(null);
  if (reviewFirst === null && task) setReviewFirst(Boolean(task.pendingApproval));
  const agentRun = <AgentRun repo={repo} task={task} choosing={choosingAgent} setChoosing={setChoosingAgent} inBar={stage === 'inbox' || stage === 'failed'} />;
  const line = diff.status === 'ready' ? changesLine(diff.value, life) : null;
  const verdict = task?.verdict ?? null;
  const confirmApprove = verdict && isRealFail(verdict)
    ? `The council voted FAIL: ${tallySentence(tallyOf(verdict))}. Approve this change anyway?`
    : null;

  return (
    <div className="task-screen" data-testid="task-screen" data-stage={stage}>
      <TaskHeader repo={repo} id={id} task={task} />
      <SandboxWarning task={id} />
      {detail.status === 'error' ? <p className="card notice" data-tone="danger" role="alert">{sentence(detail.error)}</p> : null}
      {body ? (
        <details className="card task-brief" open={briefOpen} onToggle={(e) => setBriefOpen(e.currentTarget.open)} data-testid="task-brief">
          <summary aria-expanded={briefOpen}>Task brief <span className="muted">{briefOpen ? 'Hide' : 'Show'}</span></summary>
          <article className="task-body" data-testid="task-body" dangerouslySetInnerHTML={{ __html: body }} />
        </details>
      ) : null}
      {reviewFirst ? null : agentRun}
      {task?.verdict ? <CouncilVerdict verdict={task.verdict} /> : null}
      {reviewFirst ? null : <Artifacts repo={repo} task={id} items={timeline.items} />}
      <section aria-labelledby="diff-title" className="task-section" data-testid="changes"
        data-source={diff.status === 'ready' ? diff.value.source : undefined}>
        <h2 id="diff-title" className="group-title">Changes</h2>
        {diff.status === 'loading' ? (
          <p className="muted" data-testid="diff-loading">{live ? 'Loading the diff…' : 'You are offline: the diff loads when the connection is back.'}</p>
        ) : null}
        {diff.status === 'error' ? (
          <p className="card notice" data-tone={diff.error.code === 'E_NO_DIFF' ? undefined : 'danger'} data-testid="diff-error">{sentence(diff.error)}</p>
        ) : null}
        {diff.status === 'ready' && diff.value.source === 'none' ? <p className="muted">Nothing to review for this task yet.</p> : null}
        {diff.status === 'ready' && diff.value.source !== 'none' ? (
          <>
            <p className="muted task-digest" data-testid={line!.testId} data-digest={diff.value.digest ?? ''}
              data-commit={diff.value.commit?.tip} data-arrived-at={diff.value.arrivedAt}>
              {line!.text}
            </p>
            {stage === 'done' || stage === 'merged' ? null : <p className="muted diff-hint" data-testid="diff-hint">Tap a line number to leave the agent a note on that line.</p>}
            <DiffView patch={diff.value.patch} stats={diff.value.files} onAnnotate={annotate} notes={lineNotes} />
          </>
        ) : null}
      </section>
      {reviewFirst ? agentRun : null}
      {reviewFirst ? <Artifacts repo={repo} task={id} items={timeline.items} /> : null}
      {detail.status === 'ready' ? <Annotations annotations={detail.value.annotations} repo={repo} /> : null}
      <Timeline repo={repo} items={timeline.items} running={timeline.running} />
      <ActionBar repo={repo} id={id} stage={stage} life={life} freshCommit={freshCommit} onRunAgent={() => setChoosingAgent(true)} diff={diff} reloadDiff={reloadDiff} timeline={timeline.items} sheet={sheet} setSheet={setSheet} confirmApprove={confirmApprove} />
    </div>
  );
}
