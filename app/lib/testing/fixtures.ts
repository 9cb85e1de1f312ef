// Task summaries for the client core's unit tests.
import type { TaskSummary } from '../../../protocol/wire/views';

export const REPO = 'demo-0123abcd';

export function task(id: string, patch: Partial<TaskSummary> = {}): TaskSummary {
  return {
    repo: REPO, id, file: `${id}.md`, type: 'implementation', scope: 'app', title: `Task ${id}`, state: 'inbox', owner: null,
    blockedBy: [], lastNote: null, lastEventTs: null, verdict: null, annotations: { total: 0, unconsumed: 0 },
    pendingApproval: null, result: null, ...patch,
  };
}
