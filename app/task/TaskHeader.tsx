// The task's identity and state at a glance (REVIEW-1), and where it lives (FLEETUI-1).
import type { TaskSummary } from '../../protocol/wire/views';
import { MachineLabel, useRepoPlace } from '../components/MachineLabel';
import { useRelay } from '../lib/store';
import { STAGE_TONE, stageOf } from './task-stage';
import { claimant, STAGE_WORD } from '../lib/words';

export function TaskHeader({ repo, id, task }: { repo: string; id: string; task: TaskSummary | null }) {
  const place = useRepoPlace(repo);
  // The repo by its name ("shop-api"), not its id ("shop-api-1a2b3c4d"); the id until the repo is known.
  const repoName = useRelay((s) => s.repos[repo]?.name) ?? repo;
  const stage = stageOf(task);
  return (
    <header className="task-header" data-testid="task-header">
      <h1 className="task-title">{task?.title ?? id}</h1>
      <div className="task-meta">
        <span className="mono" data-testid="task-id">{id}</span>
        {task?.type ? <span>{task.type}</span> : null}
        {task?.scope ? <span>scope {task.scope}</span> : null}
        {/* Where the task is in its life (TSTATE-1), in one word (VOCAB-2); the bus state ("claimed") is not shown, only kept for tests. */}
        {task && stage ? <span className="pill" data-tone={STAGE_TONE[stage]} data-testid="task-stage" data-stage={stage} data-state={task.state}>{STAGE_WORD[stage]}</span> : null}
        {task?.owner ? <span data-testid="task-owner">claimed on {claimant(task.owner)}</span> : null}
        {place ? <MachineLabel place={place} /> : <span className="muted" data-testid="task-repo" title={repo}>{repoName}</span>}
      </div>
      {task?.lastNote ? <p className="muted task-last-note" data-testid="task-last-note">Latest progress: {task.lastNote}</p> : null}
    </header>
  );
}
