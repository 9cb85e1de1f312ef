// What the task screen shows for each stage of a task's life (TSTATE-1..5): the stage's
// words, which actions the bar offers, and what the Changes section says about the change on
// screen. Pure, unit-tested; the stage itself is the relay's (TaskSummary.life).
import type { TaskLife, TaskStage, TaskSummary } from '../../protocol/wire/views';
import type { DiffResult } from './use-task';
import { APPROVED_WAITING, STAGE_WORD } from '../lib/words';

/** The stage's words: one per stage, from app/lib/words.ts (VOCAB-2). */
export const STAGE_LABEL: Record<TaskStage, string> = STAGE_WORD;

export const STAGE_TONE: Record<TaskStage, string | undefined> = {
  inbox: undefined, running: undefined, approval: 'warn', approved: undefined, committed: 'ok', merged: 'ok', done: 'ok', failed: 'danger',
};

export type BarAction = 'run-agent' | 'approve' | 'deny' | 'annotate' | 'run-council' | 'merge' | 'push' | 'pr';

/**
 * The actions the bar offers in a stage (TSTATE-4): only those the relay takes there. An inbox task
 * is run (a council has nothing to review, nothing is staged), and so is a failed one, again (TSTATE-8);
 * Approve and Deny exist only while a change can be staged and approved, and Run council once there is
 * a change (a running task with nothing staged has none); a committed task has nothing to approve and is finished with
 * Merge, Open pull request or Push (FINISH-n); a finished task offers nothing. A relay without stages keeps the old bar.
 * `jobs.running`: a job runs for this task now.
 */
export function barActions(stage: TaskStage | undefined, life?: TaskLife, jobs: { running?: boolean; blocked?: boolean } = {}): BarAction[] {
  // RUNREADY-5: a task has one job at a time (the relay refuses a second): no Run agent while one runs;
  // nor while the tasks it is blocked by are not done (JOB-7).
  const actions = stageActions(stage, life);
  return jobs.running || jobs.blocked ? actions.filter((a) => a !== 'run-agent') : actions;
}

/**
 * The tasks an inbox task still waits for (BLOCKED-BY-1, JOB-7): those of its `blocked-by` this app
 * holds and that are not done. One it does not hold (an old done task not loaded) is not counted: the
 * relay, which knows, refuses the run and says why.
 */
export function waitingOn(task: TaskSummary | null, tasks: Record<string, TaskSummary> | undefined): string[] {
  if (!task || task.state !== 'inbox') return [];
  return task.blockedBy.filter((id) => tasks?.[id] !== undefined && tasks[id]!.state !== 'done');
}

function stageActions(stage: TaskStage | undefined, life?: TaskLife): BarAction[] {
  switch (stage) {
    case 'inbox': return ['run-agent', 'annotate'];
    // Finish it (protocol/spec/finish.md): Merge is the main action; the rest sit under "More".
    case 'committed': return ['merge', ...remoteActions(life), 'annotate', 'run-council'];
    case 'merged': return [];
    // A done task whose commit is not merged can still be finished (TSTATE-6); nothing to approve.
    case 'done': return life?.commit && !life.merged ? ['merge', ...remoteActions(life)] : [];
    case 'failed': return ['run-agent', 'annotate'];
    // Nothing staged yet (a staged change makes it "approval"): Approve and Deny stay, off, with the bar's reason.
    case 'running': return ['approve', 'deny', 'annotate'];
    default: return ['approve', 'deny', 'annotate', 'run-council'];
  }
}

/** Push and Open pull request need a remote (FINISH-10); a pull request is opened once. */
function remoteActions(life: TaskLife | undefined): BarAction[] {
  if (life?.remote === false) return [];
  return life?.pr ? ['push'] : ['pr', 'push'];
}

/**
 * Whether starting an agent makes sense (TSTATE-8): never while one of its jobs runs (RUNREADY-5); on a
 * task nobody works on (inbox) or whose run failed; on a running task only once a run started from here
 * has ended (an agent outside the relay may still be working on it). Not while a change waits for
 * approval or its commit, nor once committed, merged or done; nor on a task still blocked (`blocked`, JOB-7).
 */
export function canRunAgent(stage: TaskStage | undefined, job: { status: string } | null, blocked = false): boolean {
  // As barActions: not while its job runs, nor while tasks it is blocked by are not done (JOB-7).
  if (job?.status === 'running' || blocked) return false;
  if (stage === 'inbox' || stage === 'failed') return true;
  return stage === 'running' && job !== null;
}

/** What a finish action did, in a sentence (the ack's result, FINISH-1, -5, -6). */
export function finishedText(type: 'task.merge' | 'task.push' | 'task.pr', result: unknown): string {
  const r = (result ?? {}) as { base?: string; mode?: string; commit?: string; remote?: string; branch?: string; url?: string };
  if (type === 'task.merge') return `Merged into ${r.base ?? 'the base'}${r.mode === 'fast-forward' ? ' (fast-forward)' : ' with a merge commit'}${r.commit ? ` · ${r.commit.slice(0, 10)}` : ''}.`;
  if (type === 'task.push') return `Pushed ${r.branch ?? 'the branch'} to ${r.remote ?? 'the remote'}.`;
  return `Pull request opened: ${r.url ?? ''}`;
}

/** The stage of a task: the relay's, or for an older relay the nearest one its summary says. */
export function stageOf(task: TaskSummary | null): TaskStage | undefined {
  if (!task) return undefined;
  if (task.life) return task.life.stage;
  if (task.state === 'inbox') return 'inbox';
  if (task.state === 'done') return task.result === 'fail' || task.result === 'failed' ? 'failed' : 'done';
  return task.pendingApproval ? 'approval' : 'running';
}

/** Changes the diff is read again on: the stage, the digest waiting or approved, the commit (TSTATE-3). */
export function lifeKey(life: TaskLife | undefined): string {
  return life ? `${life.stage}|${life.digest ?? ''}|${life.commit?.hash ?? ''}` : '';
}

export interface ChangesLine { testId: 'diff-digest' | 'diff-committed' | 'diff-nothing'; text: string }

/** The line above the diff: what this change is in the task's life (TSTATE-2, TSTATE-3). */
export function changesLine(diff: DiffResult, life: TaskLife | undefined): ChangesLine {
  if (diff.source === 'commit' && diff.commit) {
    const c = life?.commit && diff.commit.tip === life.commit.hash ? life.commit : null;
    const approval = c ? (c.verified ? ' · carries your approval' : ' · made without your approval') : '';
    return { testId: 'diff-committed', text: `Committed ${diff.commit.tip.slice(0, 10)} on ${diff.commit.branch}${c?.subject ? `: ${c.subject}` : ''}${approval}` };
  }
  if (diff.digest) {
    const short = diff.digest.slice(7, 19);
    if (life?.stage === 'approved' && life.digest === diff.digest) return { testId: 'diff-digest', text: APPROVED_WAITING.change(short) };
    return { testId: 'diff-digest', text: `Staged change to approve · ${short}` };
  }
  return { testId: 'diff-nothing', text: 'Nothing staged yet: the agent has not asked to commit, so there is nothing to approve.' };
}
