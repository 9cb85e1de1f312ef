'use client';
// The sticky action bar (REVIEW-4, -7): Approve sends the digest of the diff on
// screen, so the relay refuses it if the change moved since; Deny, Note and
// Run council open sheets or act directly. Every outcome is a sentence. The
// approval's own state (APPROVAL-9) — waiting for the commit, committed, stale — is
// shown above the buttons, and Approve/Deny are off while it waits.
// The bar is one slim row (ROOM-1, -2: bar-layout.ts): the state's main actions and "More".
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { TaskCommit, TaskLife, TaskStage } from '../../protocol/wire/views';
import { barActions, finishedText, type BarAction } from './task-stage';
import { useBlockers, useTaskJob } from './AgentRun';
import { barLayout, isCompact } from './bar-layout';
import { approvalState, type ApprovalState } from './approval-state';
import type { TimelineItem } from './timeline';
import { Button } from '../components/Button';
import { act, type ActResult } from '../lib/actions';
import { sentence } from '../lib/errors';
import { useQueued } from '../lib/use-queued';
import { ActionStatus, type ActionNotice } from './ActionStatus';
import { AnnotateSheet, ConfirmApproveSheet, DenySheet } from './sheets';
import { useRepoPlace } from '../components/MachineLabel';
import { Prose } from '../components/Prose';
import { AGENT_RUN_FAILURE, APPROVED_WAITING, mergeInto, NO_REMOTE, NOTE } from '../lib/words';
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
  if (result.status === 'queued') return { tone: 'warn', text: `You are offline: the ${what.replace('-', ' ')} is queued and will be sent when the connection is back.`, testId: `${what}-queued` };
  const stale = result.error.code === 'E_STALE_DIGEST';
  return { tone: 'danger', text: sentence(result.error), stale, testId: stale ? 'stale-digest' : `${what}-refused` };
}

/** A finish action queued offline, once the relay took it (its answer's details went to the outbox). */
const FINISHED_LATER: Record<'task.merge' | 'task.push' | 'task.pr', string> = {
  'task.merge': 'Sent when the connection came back: the relay merged the branch.',
  'task.push': 'Sent when the connection came back: the relay pushed the branch.',
  'task.pr': 'Sent when the connection came back: the relay opened the pull request.',
};

/** How long the confirmation of a commit stays (TSTATE-5). */
export const COMMITTED_NOTICE_MS = 8000;

/**
 * A stale approval, as a card with Reload diff. Waiting for the commit is the bar's line; that it was
 * committed is said once, as a success that goes by itself (CommittedNotice); the committed state itself
 * is in the header and the Changes section, so nothing about it comes back after a reload.
 */
function ApprovalCard({ state, reloadDiff }: { state: ApprovalState; reloadDiff(): void }) {
  // Waiting for the commit is a state, not news: it is the bar's own line (ROOM-3), not a banner.
  if (state.kind !== 'stale') return null;
  return (
    <div className="card notice row task-notice" data-tone="warn" role="status" data-testid="approval-state" data-state={state.kind}>
      <span>The agent staged a different change after your approval, so that approval is stale. Review the new change.</span>
      <Button onClick={reloadDiff} data-testid="approval-reload">Reload diff</Button>
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
    <div className="card notice row task-notice task-notice-dismissable" data-tone={commit.verified ? 'ok' : 'warn'} role="status"
      data-testid="approval-state" data-state={commit.verified ? 'committed' : 'uncarried'}>
      <span>{text}</span>
      <button type="button" className="action-status-close" onClick={() => setShown(false)} aria-label="Dismiss" data-testid="committed-dismiss">×</button>
    </div>
  );
}

/** Whether the bar is too narrow for its text to hold two buttons (ROOM-2), followed live. */
function useCompact(bar: RefObject<HTMLElement | null>, probe: RefObject<HTMLElement | null>): boolean {
  const [compact, setCompact] = useState(false);
  useLayoutEffect(() => {
    const el = bar.current;
    const em = probe.current;
    if (!el || !em) return;
    // The probe is 1em wide: it resizes when the text size changes, the bar when the screen does.
    const check = () => setCompact(isCompact(el.clientWidth, em.getBoundingClientRect().width));
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    observer.observe(em);
    return () => observer.disconnect();
  });
  return compact;
}

export function ActionBar({ repo, id, stage, life, freshCommit, onRunAgent, diff, reloadDiff, timeline, sheet, setSheet, confirmApprove }: Props) {
  const job = useTaskJob(repo, id);
  const blocked = useBlockers(repo, id).length > 0;
  const actions = barActions(stage, life, { running: job?.status === 'running', blocked });
  const offers = (a: BarAction) => actions.includes(a);
  const [notice, setNotice] = useState<Notice | null>(null);
  // A queued action's notice is replaced by what became of it once the connection is back (QUEUE-2).
  const [later, setLater] = useState<{ what: string; sent: string } | null>(null);
  const followQueued = useQueued((end) => {
    if (!later) return;
    setNotice(end.status === 'applied' ? { tone: 'ok', text: later.sent, testId: `${later.what}-done` }
      : { tone: 'danger', text: sentence(end.error), stale: end.error.code === 'E_STALE_DIGEST', testId: end.error.code === 'E_STALE_DIGEST' ? 'stale-digest' : `${later.what}-refused` });
    setLater(null);
  });
  const [busy, setBusy] = useState(false);
  const [approvedHere, setApprovedHere] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const barRef = useRef<HTMLDivElement>(null);
  const probeRef = useRef<HTMLSpanElement>(null);
  // A sheet opened from the More menu gives the focus back to More when it closes: the item is gone (A11Y-1).
  const moreRef = useRef<HTMLButtonElement>(null);
  const compact = useCompact(barRef, probeRef);
  const layout = barLayout(actions, compact);
  const digest = diff.status === 'ready' ? diff.value.digest : null;
  const approval = approvalState(timeline, digest, approvedHere);
  // Approved and waiting for the commit: by this screen, the bus, or the relay's stage (TSTATE-1).
  const waiting = (approval.kind === 'waiting' && approval.digest === digest) || (life?.stage === 'approved' && life.digest === digest);
  // Once the approval's commit is in, the card says how it ended: "Approved…" above it would contradict it.
  const settled = notice?.testId === 'approval-done' && (approval.kind === 'committed' || approval.kind === 'uncarried' || !!freshCommit);
  // A member machine that is offline: its actions are off, and the card says why (FLEETUI-2).
  const offline = useRepoPlace(repo)?.offline ?? null;
  const missing = offline || waiting || !offers('approve') ? null : missingChange(diff);
  useEffect(() => {
    if (!more) return;
    const close = (e: KeyboardEvent) => { if (e.key === 'Escape') { setMore(false); moreRef.current?.focus(); } };
    document.addEventListener('keydown', close);
    return () => document.removeEventListener('keydown', close);
  }, [more]);

  /** Shows the outcome; a queued action is followed until it is sent (`sent`) or refused. */
  function settle(result: ActResult, done: string, what: string, sent: string) {
    setNotice(noticeFor(result, done, what));
    setLater(result.status === 'queued' ? { what, sent } : null);
    followQueued(result.status === 'queued' ? result.id : null);
  }

  async function run(what: string, done: string, action: () => Promise<ActResult>) {
    setBusy(true);
    setNotice(null);
    try {
      settle(await action(), done, what, `Sent when the connection came back. ${done.replace(/^Sent: (.)/, (_, c: string) => c.toUpperCase())}`);
    } finally {
      setBusy(false);
    }
  }

  const approve = () => digest && run('approval', 'Sent: the agent’s commit of exactly this change will pass the gate.',
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
    setBusy(true);
    setNotice(null);
    try {
      const result = await act(type, { repo, task: id });
      settle(result, result.status === 'applied' ? finishedText(type, (result as { result?: unknown }).result) : '', what, FINISHED_LATER[type]);
    } finally {
      setBusy(false);
    }
  };
  const council = () => run('council', 'The council is reviewing the change; its verdict appears here when it is in.',
    () => act('task.council', { repo, task: id }));

  const off = busy || !!offline;
  // The same action tapped again while it waits in the outbox would only be refused once sent (QUEUE-2).
  const waits = (what: string) => later?.what === what;
  const decide = busy || !digest || waiting || !!offline;
  const described = missing ? 'task-missing' : undefined;
  /** Each action as a button: the same one on the row or, as a menu item, under More. */
  const BUTTONS: Record<BarAction, { label: string; variant?: 'primary' | 'danger'; testId: string; disabled: boolean; onPress(): void; extra?: Record<string, string | undefined> }> = {
    'run-agent': { label: stage === 'failed' ? AGENT_RUN_FAILURE.runAgain : 'Run agent', testId: 'run-agent', disabled: !!offline, onPress: onRunAgent },
    approve: {
      label: 'Approve', testId: 'approve', disabled: decide, onPress: () => (confirmApprove ? setSheet({ kind: 'confirm-approve' }) : void approve()),
      extra: { 'aria-describedby': described, title: offline ?? (waiting ? APPROVED_WAITING.stage : undefined) },
    },
    deny: { label: 'Deny', variant: 'danger', testId: 'deny', disabled: decide, onPress: () => setSheet({ kind: 'deny' }), extra: { 'aria-describedby': described } },
    annotate: { label: NOTE.add, testId: 'annotate', disabled: off, onPress: () => setSheet({ kind: 'annotate', anchor: 'general' }) },
    'run-council': { label: 'Run council', testId: 'run-council', disabled: off || waits('council'), onPress: () => void council() },
    merge: {
      label: mergeInto((diff.status === 'ready' ? diff.value.commit?.into : undefined) ?? life?.pr?.base), testId: 'finish-merge', disabled: off || waits('merge'), onPress: () => void finish('task.merge', 'merge'),
      extra: { title: offline ?? `Merge ${life?.commit?.branch ?? `agent/${id}`} into the repo's default branch` },
    },
    pr: { label: 'Open pull request', testId: 'finish-pr', disabled: off || waits('pull-request'), onPress: () => void finish('task.pr', 'pull-request') },
    push: { label: 'Push branch', testId: 'finish-push', disabled: off || waits('push'), onPress: () => void finish('task.push', 'push') },
  };
  const button = (a: BarAction, main: boolean, inMenu: boolean): ReactNode => {
    const b = BUTTONS[a];
    return (
      <Button key={a} variant={inMenu ? 'default' : main && b.variant !== 'danger' ? 'primary' : b.variant} role={inMenu ? 'menuitem' : undefined}
        disabled={b.disabled} title={offline ?? undefined} {...b.extra}
        onClick={() => { if (inMenu) { setMore(false); moreRef.current?.focus(); } b.onPress(); }} data-testid={b.testId}>{b.label}</Button>
    );
  };
  // One line on the bar says why the buttons are as they are: offline machine, approved and waiting, nothing staged.
  const line = offline ? <p className="muted task-missing" role="status" data-testid="machine-offline-notice">{offline}. Actions on its tasks are off until it is back.</p>
    : waiting && offers('approve') ? <p className="muted task-missing" role="status" data-testid="approval-state" data-state="waiting">{APPROVED_WAITING.line}</p>
      : missing ? <p className="muted task-missing" id="task-missing" data-testid="approve-missing">{missing}</p>
        : offers('merge') && life?.remote === false ? <p className="muted task-missing" data-testid="no-remote"><Prose text={NO_REMOTE} /></p> : null;

  return (
    <>
      <div className="task-dock" data-testid="task-dock">
        {offers('approve') ? <ApprovalCard state={approval} reloadDiff={() => { setApprovedHere(null); reloadDiff(); }} /> : null}
        {freshCommit ? <CommittedNotice commit={freshCommit} approval={approval} /> : null}
        <ActionStatus notice={settled ? null : notice} busy={busy} onDismiss={() => setNotice(null)} onReload={() => { setApprovedHere(null); reloadDiff(); }} />
        {actions.length > 0 ? (
          <div className="task-actions" ref={barRef} role="toolbar" aria-label="Decide on this task" data-testid="task-actions" data-stage={stage} data-compact={compact ? 'true' : 'false'}>
            <span className="bar-probe" ref={probeRef} aria-hidden="true" />
            {line}
            {more && layout.more.length > 0 ? (
              <div className="task-more" id="finish-more" role="menu" aria-label="More actions" data-testid="finish-more">
                {layout.more.map((a) => button(a, false, true))}
              </div>
            ) : null}
            <div className="task-row">
              {layout.row.map((a, i) => button(a, i === 0, false))}
              {layout.more.length > 0 ? (
                // Beside two actions it is a small "⋯" (its name is still More), so a phone's row reads as
                // two buttons (ROOM-1); beside one (ROOM-2) there is room for the word.
                <Button ref={moreRef} disabled={busy} aria-haspopup="menu" aria-expanded={more} aria-controls="finish-more" onClick={() => setMore(!more)} data-testid="finish-more-toggle"
                  {...(layout.row.length > 1 ? { 'aria-label': 'More', className: 'btn task-more-icon' } : {})}>{layout.row.length > 1 ? <span aria-hidden="true">⋯</span> : 'More'}</Button>
              ) : null}
            </div>
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
