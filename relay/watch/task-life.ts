// A task's stage in its life (TSTATE-1), from its packet's state and its event fold:
// a done packet is done (or failed, by its result); an inbox packet is inbox; a claimed
// one waits for approval while a staged change waits, is approved while the grant waits
// for the commit, is committed once the agent's commit is on the bus, else is running.
// merged once the relay merged that commit into its base (TSTATE-6).
import type { TaskState } from '../../protocol/bus/packet';
import type { TaskLife } from '../../protocol/wire/views';
import type { TaskFold } from './task-fold';

export function lifeOf(state: TaskState, fold: TaskFold): TaskLife {
  const commit = { ...(fold.commit ? { commit: fold.commit } : {}), ...(fold.merged ? { merged: fold.merged } : {}), ...(fold.pr ? { pr: fold.pr } : {}) };
  if (state === 'done') return { stage: fold.result === 'fail' || fold.result === 'failed' ? 'failed' : fold.merged ? 'merged' : 'done', ...commit };
  if (state === 'inbox') return { stage: fold.result === 'failed' ? 'failed' : 'inbox', ...commit };
  if (fold.pending) return { stage: 'approval', digest: fold.pending.digest, ...commit };
  if (fold.approved) return { stage: 'approved', digest: fold.approved.digest, ...commit };
  if (fold.result === 'failed') return { stage: 'failed', ...commit }; // its agent's run failed; it can run again
  if (fold.commit) return { stage: fold.merged ? 'merged' : 'committed', ...commit };
  return { stage: 'running' };
}
