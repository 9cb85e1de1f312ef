// One task in a list: title, id, repo, owner, last note and the badges that matter
// (waiting for approval, council verdict, unread notes), and its machine once
// the home has members (FLEETUI-1, -2). Links to the Task screen;
// the quick Note lives inside the card (UX-10), not as a loose button below it.
import Link from './Link';
import type { TaskSummary } from '../../protocol/wire/views';
import { plural } from '../lib/plural';
import { MachineLabel, useRepoPlace } from './MachineLabel';
import { AWAITING_APPROVAL, NOTE, verdictWord } from '../lib/words';

export function taskHref(task: Pick<TaskSummary, 'repo' | 'id'>): string {
  return `/task?repo=${encodeURIComponent(task.repo)}&id=${encodeURIComponent(task.id)}`;
}

export function TaskCard({ task, repoName, onNote }: { task: TaskSummary; repoName?: string; onNote?: (task: TaskSummary) => void }) {
  const council = task.verdict ? councilBadge(task.verdict) : null;
  const place = useRepoPlace(task.repo);
  return (
    <div className="card task-card-wrap">
      {/* No prefetch: the Task screen's code (diff, markdown, highlighting) must not load with the Inbox. */}
      <Link href={taskHref(task)} prefetch={false} className="task-card" data-testid="task-card" data-task={task.id} data-repo={task.repo}>
        <h3>{task.title ?? task.id}</h3>
        <div className="task-meta">
          <span className="mono">{task.id}</span>
          {place ? <MachineLabel place={place} /> : repoName ? <span>{repoName}</span> : null}
          {task.owner ? <span className="wrap-anywhere">by {task.owner}</span> : null}
          {task.pendingApproval ? <span className="pill" data-tone="warn">{AWAITING_APPROVAL} · {plural(task.pendingApproval.files, 'file')}</span> : null}
          {council ? <span className="pill" data-tone={council.tone}>{council.text}</span> : null}
          {task.result ? <span className="pill" data-tone={task.result === 'pass' ? 'ok' : 'danger'}>{verdictWord(task.result)}</span> : null}
          {task.annotations.unconsumed > 0 ? <span>{plural(task.annotations.unconsumed, 'unread note')}</span> : null}
        </div>
        {task.lastNote ? <p className="muted" style={{ margin: '6px 0 0' }} data-testid="task-last-note">{task.lastNote}</p> : null}
      </Link>
      {onNote ? (
        <div className="task-card-actions">
          <button type="button" className="link-button" onClick={() => onNote(task)} data-testid="task-note" aria-label={NOTE.addTo(task.id)}>{NOTE.add}</button>
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
