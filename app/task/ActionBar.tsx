'use client';
// The sticky action bar (REVIEW-4, -7): Approve sends the digest of the diff on
// screen, so the relay refuses it if the change moved since; Deny, Annotate and
// Run council open sheets or act directly. Every outcome is a sentence. The
// approval's own state (APPROVAL-9) — waiting for the commit, committed, stale — is
// shown above the buttons, and Approve/Deny are off while it waits.
import { useEffect, useState } from 'react';
import type { TaskCommit, TaskLife, TaskStage } from '../../protocol/wire/views';
import { barActions, finishedText } from './task-stage';
import { approvalState, type ApprovalState } from './approval-state';
import type { TimelineItem } from './timeline';
import { Button } from '../components/Button';
import { act, type ActResult } from '../lib/actions';
import { sentence } from '../lib/errors';
import { ActionStatus, type ActionNotice } from './ActionStatus';
import { AnnotateSheet, ConfirmApproveSheet, DenySheet } from './sheets';
import { useRepoPlace } from '../components/MachineLabel';
import type { DiffResult, Loadable } from './use-task';

export type SheetRequest = { kind: 'deny' } | { kind: 'annotate'; anchor: string } | { kind: 'confirm-approve' };

interface Props {
  repo: string;
  id: string;
  /** The task's stage (TSTATE-1): the bar offers only what makes sense in it (TSTATE-4). */
  stage: TaskStage | undefined;
  life: TaskLife | undefined;
  /** A commit that landed while this screen was open: confirmed once, then gone (TSTATE-5). */
  freshCommit: TaskCommit | null;
  onRunAgent(): void;
  diff: Loadable<DiffResult>;
  reloadDiff(): void;
  /** The task's timeline: its bus events say whether an approval is waiting, committed or stale. */
  timeline: TimelineItem[];
  sheet: SheetRequest | null;
  setSheet(sheet: SheetRequest | null): void;
  /** When set, Approve first asks this question (e.g. approving over a council FAIL). */
  confirmApprove?: string | null;
}

type Notice = ActionNotice;

function noticeFor(result: ActResult, done: string, what: string): Notice {
  if (result.status === 'applied') return { tone: 'ok', text: done, testId: `${what}-done` };
  if (result.status === 'queued') return { tone: 'warn', text: `You are offline: the ${what} is queued and will be sent when the connection is back.`, testId: `${what}-queued` };
  const stale = result.error.code === 'E_STALE_DIGEST';
  return { tone: 'danger', text: sentence(result.error), stale, testId: stale ? 'stale-digest' : `${what}-refused` };
}

/** How long the confirmation of a commit stays (TSTATE-5). */
export const COMMITTED_NOTICE_MS = 8000;

/**
 * The approval's state while it is one (waiting for the commit, or stale). That it was committed is
 * said once, as a success that goes by itself (CommittedNotice); the committed state itself is in the
 * header and the Changes section, so nothing about it comes back after a reload.
 */
function ApprovalCard({ state, reloadDiff }: { state: ApprovalState; reloadDiff(): void }) {
  if (state.kind === 'none' || state.kind === 'committed' || state.kind === 'uncarried') return null;
  const text = state.kind === 'waiting' ? 'Approved — waiting for the agent’s commit.'
    : 'The agent staged a different change after your approval, so that approval is stale. Review the new change.';
  const warn = state.kind === 'stale';
  return (
    <div className="card notice row task-notice" data-tone={warn ? 'warn' : 'info'} role="status"
      data-testid="approval-state" data-state={state.kind}>
      <span>{text}</span>
      {state.kind === 'stale' ? <Button onClick={reloadDiff} data-testid="approval-reload">Reload diff</Button> : null}
    </div>
  );
}

/**
 * Why Approve and Deny are off when what is missing is the change itself, as a line in the dock:
 * a phone shows no tooltip, and a greyed-out Approve with no reason reads as a broken app.
 */
function missingChange(diff: Loadable<DiffResult>): string | null {
  if (diff.status === 'loading') return 'Loading the change to approve…';
  if (diff.status === 'error') return 'There is no change to approve: it could not be loaded (see Changes).';
  return diff.value.digest ? null : 'Nothing staged to approve yet: the agent has not asked to commit.';
}

function CommittedNotice({ commit, approval }: { commit: TaskCommit; approval: ApprovalState }) {
  const [shown, setShown] = useState(true);
  useEffect(() => {
    setShown(true);
    const timer = setTimeout(() => setShown(false), COMMITTED_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [commit.hash]);
  if (!shown) return null;
  const head = `Committed ${commit.hash.slice(0, 10)}: ${commit.subject}`;
  // Committed without the approval the person gave: that is worth the warning colour; a commit that carries it is a success.
  const uncarried = approval.kind === 'uncarried' && approval.commit === commit.hash;
  const text = commit.verified ? `${head} — it carries your approval.`
    : uncarried ? `${head} — without your approval in it (its gate was skipped or a plain token was used), so that approval no longer applies.`
      : `${head} — made without an approval.`;
  return (
    <div className="card notice row task-notice" data-tone={commit.verified ? 'ok' : 'warn'} role="status"
      data-testid="approval-state" data-state={commit.verified ? 'committed' : 'uncarried'}>
      <span>{text}</span>
      <button type="button" className="action-status-close" onClick={() => setShown(false)} aria-label="Dismiss" data-testid="committed-dismiss">×</button>
    </div>
  );
}

export function ActionBar({ repo, id, stage, life, freshCommit, onRunAgent, diff, reloadDiff, timeline, sheet, setSheet, confirmApprove }: Props) {
  const actions = barActions(stage, life);
  const offers = (a: ReturnType<typeof barActions>[number]) => actions.includes(a);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const [approvedHere, setApprovedHere] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const digest = diff.status === 'ready' ? diff.value.digest : null;
  const approval = approvalState(timeline, digest, approvedHere);
  // Approved and waiting for the commit: by this screen, the bus, or the relay's stage (TSTATE-1).
  const waiting = (approval.kind === 'waiting' && approval.digest === digest) || (life?.stage === 'approved' && life.digest === digest);
  // Once the approval's commit is in, the card says how it ended: "Approved…" above it would contradict it.
  const settled = notice?.testId === 'approval-done' && (approval.kind === 'committed' || approval.kind === 'uncarried' || !!freshCommit);
  // A member machine that is offline: its actions are off, and the card says why (FLEETUI-2).
  const offline = useRepoPlace(repo)?.offline ?? null;
  const missing = offline || waiting || !offers('approve') ? null : missingChange(diff);

  async function run(what: string, done: string, action: () => Promise<ActResult>) {
    setBusy(true);
    setNotice(null);
    try {
      setNotice(noticeFor(await action(), done, what));
    } finally {
      setBusy(false);
    }
  }

  const approve = () => digest && run('approval', 'Approved. The agent’s commit of exactly this change will pass the gate.',
    async () => {
      const result = await act('task.approve', { repo, task: id, digest });
      if (result.status === 'applied') setApprovedHere(digest);
      return result;
    });
  const deny = (reason: string) => digest && run('denial', 'Denied. The agent is told not to commit this change.',
    () => act('task.deny', { repo, task: id, digest, ...(reason ? { reason } : {}) }));
  const annotate = (anchor: string, body: string) => run('note', 'Note saved. The agent sees it on its next turn.',
    () => act('task.annotate', { repo, task: id, turn: 0, anchor, body }));
  // Finishing a committed task (FINISH-n): each outcome, success or the relay's reason, is one sentence.
  const finish = async (type: 'task.merge' | 'task.push' | 'task.pr', what: string) => {
    setMore(false);
    setBusy(true);
    setNotice(null);
    try {
      const result = await act(type, { repo, task: id });
      setNotice(noticeFor(result, result.status === 'applied' ? finishedText(type, (result as { result?: unknown }).result) : '', what));
    } finally {
      setBusy(false);
    }
  };
  const council = () => run('council', 'The council is reviewing the change; its verdict appears here when it is in.',
    () => act('task.council', { repo, task: id }));

  return (
    <>
      <div className="task-dock">
        {offers('approve') ? <ApprovalCard state={approval} reloadDiff={() => { setApprovedHere(null); reloadDiff(); }} /> : null}
        {freshCommit ? <CommittedNotice commit={freshCommit} approval={approval} /> : null}
        <ActionStatus notice={settled ? null : notice} busy={busy} onDismiss={() => setNotice(null)} onReload={() => { setApprovedHere(null); reloadDiff(); }} />
        {offline ? <p className="card notice task-notice" role="status" data-testid="machine-offline-notice">{offline}. Actions on its tasks are off until it is back.</p> : null}
        {actions.length > 0 ? (
          <div className="task-actions" role="toolbar" aria-label="Decide on this task" data-testid="task-actions" data-stage={stage}>
            {missing ? <p className="muted task-missing" id="task-missing" data-testid="approve-missing">{missing}</p> : null}
            {offers('run-agent') ? (
              <Button variant="primary" disabled={!!offline} title={offline ?? undefined} onClick={onRunAgent} data-testid="run-agent">Run agent</Button>
            ) : null}
            {offers('approve') ? (
              <Button variant="primary" disabled={busy || !digest || waiting || !!offline} onClick={() => (confirmApprove ? setSheet({ kind: 'confirm-approve' }) : approve())} data-testid="approve"
                aria-describedby={missing ? 'task-missing' : undefined} title={offline ?? (waiting ? 'Approved; waiting for the agent’s commit' : undefined)}>Approve</Button>
            ) : null}
            {offers('deny') ? (
              <Button variant="danger" disabled={busy || !digest || waiting || !!offline} title={offline ?? undefined} onClick={() => setSheet({ kind: 'deny' })} data-testid="deny"
                aria-describedby={missing ? 'task-missing' : undefined}>Deny</Button>
            ) : null}
            {offers('annotate') && !offers('merge') ? (
              <Button disabled={busy || !!offline} title={offline ?? undefined} onClick={() => setSheet({ kind: 'annotate', anchor: 'general' })} data-testid="annotate">Annotate</Button>
            ) : null}
            {offers('run-council') && !offers('merge') ? (
              <Button disabled={busy || !!offline} title={offline ?? undefined} onClick={council} data-testid="run-council">Run council</Button>
            ) : null}
            {offers('merge') ? (
              <Button variant="primary" disabled={busy || !!offline} title={offline ?? `Merge ${life?.commit?.branch ?? `agent/${id}`} into the repo's default branch`}
                onClick={() => void finish('task.merge', 'merge')} data-testid="finish-merge">Merge</Button>
            ) : null}
            {offers('merge') ? (
              <Button disabled={busy || !!offline} aria-expanded={more} aria-controls="finish-more" onClick={() => setMore(!more)} data-testid="finish-more-toggle">More</Button>
            ) : null}
            {offers('merge') && more ? (
              <div className="task-more" id="finish-more" role="menu" data-testid="finish-more">
                {offers('pr') ? <Button role="menuitem" disabled={busy} onClick={() => void finish('task.pr', 'pull-request')} data-testid="finish-pr">Open pull request</Button> : null}
                {offers('push') ? <Button role="menuitem" disabled={busy} onClick={() => void finish('task.push', 'push')} data-testid="finish-push">Push branch</Button> : null}
                {offers('annotate') ? <Button role="menuitem" disabled={busy} onClick={() => { setMore(false); setSheet({ kind: 'annotate', anchor: 'general' }); }} data-testid="annotate">Annotate</Button> : null}
                {offers('run-council') ? <Button role="menuitem" disabled={busy} onClick={() => { setMore(false); void council(); }} data-testid="run-council">Run council</Button> : null}
              </div>
            ) : null}
          </div>
        ) : (
          // On the bar's own card, so the line never sits over the text scrolling behind the dock.
          <div className="task-actions" role="status" data-testid="task-finished">
            <p className="muted task-missing">{stage === 'failed' ? 'This task failed: there is nothing to approve.' : stage === 'merged' && life?.merged ? `Merged into ${life.merged.base} · ${life.merged.commit.slice(0, 10)}: there is nothing left to do.` : 'This task is done: there is nothing to approve.'}</p>
          </div>
        )}
      </div>
      {sheet?.kind === 'confirm-approve' && confirmApprove ? (
        <ConfirmApproveSheet question={confirmApprove} onClose={() => setSheet(null)} onApprove={() => { setSheet(null); void approve(); }} />
      ) : null}
      {sheet?.kind === 'deny' ? (
        <DenySheet onClose={() => setSheet(null)} onDeny={(reason) => { setSheet(null); void deny(reason); }} />
      ) : null}
      {sheet?.kind === 'annotate' ? (
        <AnnotateSheet anchor={sheet.anchor} onClose={() => setSheet(null)} onSend={(anchor, body) => { setSheet(null); void annotate(anchor, body); }} />
      ) : null}
    </>
  );
}
