// What each trigger says (PUSH-3): bus events, a waiting commander and a
// permission request become a PushPayload. Pure: no I/O, tested as a table.
import type { AnyBusEvent } from '../../protocol/bus/events';
import type { Verdict } from '../../protocol/bus/verdict';
import type { PushPayload } from '../../protocol/wire/push';
import type { CommanderView, PermissionRequestView } from '../../protocol/wire/views';

export interface TaskContext {
  repoId: string;
  repoName: string;
  /** For approval requests: the staged change's size, names and counts only. */
  stats?: { files: number; additions: number; deletions: number };
  verdict?: Verdict | null;
}

export const taskUrl = (repo: string, task: string) => `/task?repo=${encodeURIComponent(repo)}&id=${encodeURIComponent(task)}`;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** An approval request's buttons; a member's push gets these from the home, never its own (FLEET-25). */
export const APPROVAL_ACTIONS: PushPayload['actions'] = [{ action: 'approve', title: 'Approve' }, { action: 'deny', title: 'Deny' }];

/** The notification for one bus event, or null when the event is not a trigger. */
export function busEventMessage(event: AnyBusEvent, ctx: TaskContext): PushPayload | null {
  const task = typeof event.task === 'string' ? event.task : null;
  if (!task) return null;
  const base = { v: 1 as const, tag: `task:${ctx.repoId}:${task}`, url: taskUrl(ctx.repoId, task), data: { repo: ctx.repoId, task } };
  switch (event.event) {
    case 'approval_requested': {
      const files = ctx.stats?.files ?? (typeof event.files === 'number' ? event.files : 0);
      const counts = ctx.stats ? ` · +${ctx.stats.additions} −${ctx.stats.deletions}` : '';
      return {
        ...base,
        kind: 'approval_requested',
        title: `Approve ${task} in ${ctx.repoName}?`,
        body: `${plural(files, 'file')} changed${counts}`,
        actions: APPROVAL_ACTIONS,
        data: { ...base.data, digest: String(event.digest) },
      };
    }
    case 'council_verdict': {
      const failing = (ctx.verdict?.votes ?? []).filter((v) => v.vote === 'FAIL').map((v) => v.dimension);
      const abstained = (ctx.verdict?.votes ?? []).filter((v) => v.vote === 'ABSTAIN').length;
      const body = event.verdict === 'PASS'
        ? `Council passed${failing.length ? ` (failed: ${failing.join(', ')})` : ''}`
        : failing.length ? `Failed: ${failing.join(', ')}` : `No majority (${plural(abstained, 'abstention')})`;
      return { ...base, kind: 'council_verdict', title: `Council ${String(event.verdict)} · ${task} in ${ctx.repoName}`, body, actions: [] };
    }
    case 'task_complete':
      return {
        ...base, kind: 'task_done', actions: [],
        title: `${task} finished in ${ctx.repoName}`,
        body: event.result === 'pass' ? 'Done: acceptance criteria met.' : 'Done, but the criteria were not met.',
      };
    case 'task_failed':
      return {
        ...base, kind: 'task_done', actions: [],
        title: `${task} failed in ${ctx.repoName}`,
        body: typeof event.reason === 'string' && event.reason ? event.reason.slice(0, 300) : 'The agent stopped abnormally.',
      };
    // Finishing from the phone (FINISH-8): each said once it is done.
    case 'task_merged':
      return {
        ...base, kind: 'task_done', actions: [],
        title: `${task} merged into ${String(event.base)} in ${ctx.repoName}`,
        body: `${event.mode === 'fast-forward' ? 'Fast-forwarded' : 'Merge commit'} ${String(event.commit).slice(0, 10)}.`,
      };
    case 'task_pushed':
      return {
        ...base, kind: 'task_done', actions: [],
        title: `${task} pushed to ${String(event.remote)}`,
        body: `${String(event.branch)} at ${String(event.commit).slice(0, 10)} in ${ctx.repoName}.`,
      };
    case 'pr_opened':
      return {
        ...base, kind: 'task_done', actions: [],
        title: `Pull request opened for ${task}`,
        body: `${String(event.url)} (${String(event.branch)} into ${String(event.base)}, ${ctx.repoName})`.slice(0, 300),
      };
    default:
      return null;
  }
}

export function commanderWaitingMessage(c: CommanderView): PushPayload {
  return {
    v: 1, kind: 'commander_waiting', tag: `commander:${c.id}`,
    title: `${c.name} is waiting for you`,
    body: (c.waitingFor ?? 'It has a question for you.').slice(0, 300),
    url: `/commander?id=${encodeURIComponent(c.id)}`, actions: [], data: { commander: c.id },
  };
}

export function permissionMessage(r: PermissionRequestView): PushPayload {
  return {
    v: 1, kind: 'permission_request', tag: `permission:${r.id}`,
    title: `${r.tool} needs your OK${r.task ? ` · ${r.task}` : ''}`,
    body: r.summary.slice(0, 300),
    url: `/?request=${encodeURIComponent(r.id)}`,
    actions: [{ action: 'allow', title: 'Allow' }, { action: 'deny', title: 'Deny' }],
    data: { request: r.id, ...(r.task ? { task: r.task } : {}) },
  };
}

/**
 * The push that replaces a permission request's notification once it is settled (PERM-UI-5, as
 * ASK-9 for questions): same tag, no buttons, quiet, saying how it ended.
 */
export function settledPermissionMessage(r: PermissionRequestView): PushPayload {
  const what = r.status === 'expired' ? 'Denied: no answer in time'
    : `${r.status === 'allowed' ? 'Allowed' : 'Denied'}${r.decidedBy ? ` by ${r.decidedBy}` : ''}`;
  return { ...permissionMessage(r), title: `${what} · ${r.tool}${r.task ? ` · ${r.task}` : ''}`.slice(0, 200), actions: [], quiet: true };
}
