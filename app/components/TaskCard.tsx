// One task in a list: title, id, repo, owner, last note and the badges that matter
// (waiting for approval, council verdict, unread notes). Links to the Task screen.
import Link from 'next/link';
import type { TaskSummary } from '../../protocol/wire/views';

export function taskHref(task: Pick<TaskSummary, 'repo' | 'id'>): string {
  return `/task?repo=${encodeURIComponent(task.repo)}&id=${encodeURIComponent(task.id)}`;
}

export function TaskCard({ task, repoName }: { task: TaskSummary; repoName?: string }) {
  return (
    // No prefetch: the Task screen's code (diff, markdown, highlighting) must not load with the Inbox.
    <Link href={taskHref(task)} prefetch={false} className="card task-card" data-testid="task-card" data-task={task.id} data-repo={task.repo}>
      <h3>{task.title ?? task.id}</h3>
      <div className="task-meta">
        <span className="mono">{task.id}</span>
        {repoName ? <span>{repoName}</span> : null}
        {task.owner ? <span>by {task.owner}</span> : null}
        {task.pendingApproval ? <span className="pill" data-tone="warn">Needs approval · {task.pendingApproval.files} {task.pendingApproval.files === 1 ? 'file' : 'files'}</span> : null}
        {task.verdict ? (
          <span className="pill" data-tone={task.verdict.verdict === 'PASS' ? 'ok' : 'danger'}>Council {task.verdict.verdict}</span>
        ) : null}
        {task.result ? <span className="pill" data-tone={task.result === 'pass' ? 'ok' : 'danger'}>{task.result}</span> : null}
        {task.annotations.unconsumed > 0 ? <span>{task.annotations.unconsumed} unread notes</span> : null}
      </div>
      {task.lastNote ? <p className="muted" style={{ margin: '6px 0 0' }} data-testid="task-last-note">{task.lastNote}</p> : null}
    </Link>
  );
}
