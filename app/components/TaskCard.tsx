// One task in a list: title, id, repo, owner, last note and the badges that matter
// (its stage of life, TSTATE-7: Failed, Committed, Merged…; waiting for approval, council verdict, unread notes), and its machine once
// the home has members (FLEETUI-1, -2), and how long ago it last moved, kept current
// (ROOM-6). Links to the Task screen; the quick note sits in the card's ⋯ menu (ROOM-6),
// not on a row of its own.
import { useEffect, useId, useRef, useState } from 'react';
import Link from './Link';
import type { TaskSummary } from '../../protocol/wire/views';
import { ageText, useNow } from '../lib/age';
import { clockFull } from '../lib/clock';
import { plural } from '../lib/plural';
import { MachineLabel, useRepoPlace } from './MachineLabel';
import { AWAITING_APPROVAL, cardStageWord, claimant, NOTE, verdictWord } from '../lib/words';
import { STAGE_TONE, stageOf } from '../task/task-stage';

export function taskHref(task: Pick<TaskSummary, 'repo' | 'id'>): string {
  return `/task?repo=${encodeURIComponent(task.repo)}&id=${encodeURIComponent(task.id)}`;
}

export function TaskCard({ task, repoName, onNote }: { task: TaskSummary; repoName?: string; onNote?: (task: TaskSummary) => void }) {
  const council = task.verdict ? councilBadge(task.verdict) : null;
  const place = useRepoPlace(task.repo);
  // The task's last event, else when its packet was written (a task nobody has touched yet).
  const moved = task.lastEventTs ?? task.since ?? null;
  const age = ageText(moved, useNow());
  // The stage, but not where its group or another pill already says it: an inbox task, one awaiting approval.
  const stage = stageOf(task);
  const shownStage = stage && stage !== 'inbox' && !task.pendingApproval ? stage : null;
  return (
    <div className="card task-card-wrap" data-menu={onNote ? 'true' : undefined}>
      {/* No prefetch: the Task screen's code (diff, markdown, highlighting) must not load with the Inbox. */}
      <Link href={taskHref(task)} prefetch={false} className="task-card" data-testid="task-card" data-task={task.id} data-repo={task.repo}>
        <h3>{task.title ?? task.id}</h3>
        <div className="task-meta">
          <span className="mono">{task.id}</span>
          {age ? <time dateTime={moved!} title={clockFull(new Date(moved!))} data-testid="task-age">{age}</time> : null}
          {place ? <MachineLabel place={place} /> : repoName ? <span>{repoName}</span> : null}
          {task.owner ? <span className="wrap-anywhere" data-testid="task-card-owner">on {claimant(task.owner)}</span> : null}
          {task.pendingApproval ? <span className="pill" data-tone="warn">{AWAITING_APPROVAL} · {plural(task.pendingApproval.files, 'file')}</span> : null}
          {council ? <span className="pill" data-tone={council.tone}>{council.text}</span> : null}
          {shownStage ? (
            <span className="pill" data-tone={STAGE_TONE[shownStage]} data-testid="task-stage-pill">{cardStageWord(shownStage, Boolean(task.life?.commit && !task.life.merged))}</span>
          ) : null}
          {/* A result the stage pill does not already say: a task that completed PASS or FAIL (a failed run is "Failed"). */}
          {task.result && task.result !== 'failed' && stage !== 'failed' ? <span className="pill" data-tone={task.result === 'pass' ? 'ok' : 'danger'}>{verdictWord(task.result)}</span> : null}
          {task.annotations.unconsumed > 0 ? <span>{plural(task.annotations.unconsumed, 'unread note')}</span> : null}
        </div>
        {task.lastNote ? <p className="muted" style={{ margin: '6px 0 0' }} data-testid="task-last-note">{task.lastNote}</p> : null}
      </Link>
      {onNote ? <CardMenu task={task} onNote={onNote} /> : null}
    </div>
  );
}

/** The card's ⋯ menu: a 44 px button in its corner; the menu closes on a choice, Escape or a tap elsewhere. */
function CardMenu({ task, onNote }: { task: TaskSummary; onNote: (task: TaskSummary) => void }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  // Closing the menu (Escape, or a choice that opens the note sheet) gives the focus back to ⋯ (A11Y-1).
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') { setOpen(false); button.current?.focus(); } };
    const onDown = (e: PointerEvent) => !root.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onDown);
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onDown);
    };
  }, [open]);
  return (
    <div className="card-menu" ref={root}>
      <button ref={button} type="button" className="card-menu-button" aria-haspopup="menu" aria-expanded={open} aria-controls={open ? menuId : undefined}
        aria-label={`More for ${task.id}`} onClick={() => setOpen(!open)} data-testid="task-menu">
        <span aria-hidden="true">⋯</span>
      </button>
      {open ? (
        <div className="card-menu-list" id={menuId} role="menu" aria-label={`More for ${task.id}`}>
          <button type="button" role="menuitem" className="card-menu-item" onClick={() => { setOpen(false); button.current?.focus(); onNote(task); }}
            data-testid="task-note" aria-label={NOTE.addTo(task.id)}>{NOTE.add}</button>
        </div>
      ) : null}
    </div>
  );
}

function councilBadge(verdict: NonNullable<TaskSummary['verdict']>): { text: string; tone?: string } {
  const voted = verdict.votes.filter((v) => v.vote !== 'ABSTAIN').length;
  if (voted === 0) return { text: 'Council not configured' };
  const pass = verdict.votes.filter((v) => v.vote === 'PASS').length;
  return { text: `Council ${verdictWord(verdict.verdict)} · ${pass}/${verdict.votes.length}`, tone: verdict.verdict === 'PASS' ? 'ok' : 'danger' };
}
