// What a hook does, in neutral terms, for every vendor: turn end, session end, prompt
// submit, tool start/end. Vendor entries only translate their payload into these calls.
import { appendEvent } from '../../bus/event-log';
import { assertBus } from '../../bus/layout';
import { locateGit } from '../../bus/locate';
import type { LiveEvent } from '../../protocol/live-events';
import { agentSandboxed } from '../../policy/sandboxed';
import { judgeCheck, loadChecks } from './checks';
import { checkpoint, checkpointAsync, type WorkState, workState, workStateAsync } from './checkpoint';
import { classifyTool, type ToolCall } from './classify';
import type { Env } from './env';
import { recordDelivery, settleDelivery } from './deliveries';
import { pendingBlock } from './inject';
import { passthrough } from './live-post';
import { type LiveOutbox, nowSeq } from './live-queue';

export { nowSeq };
import { type TaskContext, taskContext, taskOf } from './task-context';
import { awaitStarted, markStarted, pruneMarkers, sweepUnfinished } from './tool-order';

export interface SessionRef {
  session: string;
  cwd: string;
}

const MAX_DETAIL = 2000;

function event(ref: SessionRef, env: Env, fields: Omit<LiveEvent, 'v' | 'session'>, task?: string): LiveEvent {
  // SBXDEF-6: Claude Code's sandbox counts only for Claude Code (its hooks carry CLAUDE_PROJECT_DIR).
  const claudeDir = env.CLAUDE_PROJECT_DIR?.trim() || undefined;
  const sandbox = agentSandboxed(env, claudeDir, { claude: claudeDir !== undefined }) ? 'on' : 'off';
  return { v: 1, session: ref.session.slice(0, 256), ...passthrough(env, task ?? taskOf(ref.cwd, env)), sandbox, ...fields };
}

/** Turn end, bus part: a checkpoint when the work state changed (never throws). Synchronous (ORDER-1). */
export function turnEndBus(ref: SessionRef, env: Env): void {
  const ctx = settleTurn(ref, env);
  if (!ctx) return;
  try {
    checkpoint(ctx, env);
  } catch {
    /* a bus that is not initialised or a git hiccup must not stop the live event */
  }
}

/** The work state a turn end read, and where: what its session's end may count from (HOOK-2). */
export interface TurnEndState {
  worktree: string;
  state: WorkState;
}

/** turnEndBus for the relay (REPORT-2): the same writes, git run without blocking. */
export async function turnEndBusAsync(ref: SessionRef, env: Env): Promise<TurnEndState | undefined> {
  const ctx = settleTurn(ref, env);
  if (!ctx) return undefined;
  try {
    return { worktree: ctx.worktree, state: await checkpointAsync(ctx, env) };
  } catch {
    return undefined; /* as turnEndBus */
  }
}

function settleTurn(ref: SessionRef, env: Env): TaskContext | undefined {
  try {
    settleDelivery(env, ref.session); // the turn that carried the notes completed
  } catch { /* nothing recorded, or hook-state unwritable */ }
  return taskContext(ref.cwd, env);
}

/** Session end, bus part: `session_end` on the bus of the repo, when it has one (never throws). Synchronous (ORDER-1). */
export function sessionEndBus(ref: SessionRef, env: Env): void {
  const ctx = taskContext(ref.cwd, env);
  let filesChanged: number | undefined;
  try {
    filesChanged = workState(ctx?.worktree ?? ref.cwd).changed.length;
  } catch {
    filesChanged = undefined;
  }
  appendSessionEnd(ref, env, ctx, filesChanged);
}

/**
 * sessionEndBus for the relay (REPORT-2). `turnEnd` is the state the session's own turn end just
 * read, when the relay knows nothing happened in the session since (HOOK-2): for that worktree it
 * is counted instead of a second `git status`.
 */
export async function sessionEndBusAsync(ref: SessionRef, env: Env, turnEnd?: TurnEndState): Promise<void> {
  const ctx = taskContext(ref.cwd, env);
  const worktree = ctx?.worktree ?? ref.cwd;
  const filesChanged = turnEnd?.worktree === worktree
    ? turnEnd.state.changed.length
    : await workStateAsync(worktree).then((state) => state.changed.length, () => undefined);
  appendSessionEnd(ref, env, ctx, filesChanged);
}

function appendSessionEnd(ref: SessionRef, env: Env, ctx: TaskContext | undefined, filesChanged: number | undefined): void {
  try {
    const bus = ctx?.bus ?? locateGit(ref.cwd, env as NodeJS.ProcessEnv).bus;
    assertBus(bus);
    appendEvent(bus, { event: 'session_end', session: ref.session, task: ctx?.task, files_changed: filesChanged });
  } catch {
    /* no repo or no bus here: only the relay hears about it */
  }
}

export const idleEvent = (ref: SessionRef, env: Env, seq?: number): LiveEvent =>
  event(ref, env, { kind: 'idle', summary: 'finished responding', ...(seq !== undefined ? { seq } : {}) });
export const endEvent = (ref: SessionRef, env: Env, seq?: number): LiveEvent =>
  event(ref, env, { kind: 'end', summary: 'session ended', ...(seq !== undefined ? { seq } : {}) });

/** Turn end: a checkpoint when the work state changed, then the `idle` live event, queued in `out` (the caller drains it). */
export function onTurnEnd(ref: SessionRef, env: Env, out: LiveOutbox, seq = nowSeq()): void {
  turnEndBus(ref, env);
  out.queue(idleEvent(ref, env, seq));
}

/**
 * After a turn end: calls that never ended (denied, interrupted) get their completed event, as
 * failed, queued in `out`. `sweepGraceMs`: how long end hooks launched before the turn end get
 * to claim their calls (SWEEP_GRACE_MS; 0 when they ran before this one, as in an OpenCode batch).
 */
export async function closeUnfinished(ref: SessionRef, env: Env, out: LiveOutbox, sweepGraceMs?: number): Promise<void> {
  for (const unfinished of await sweepUnfinished(env, ref.session, sweepGraceMs)) out.queue(unfinished);
  pruneMarkers(env);
}

/** Session end: `session_end` on the bus of the repo (when it has one), then the `end` live event, queued in `out`. */
export function onSessionEnd(ref: SessionRef, env: Env, out: LiveOutbox, seq = nowSeq()): void {
  sessionEndBus(ref, env);
  out.queue(endEvent(ref, env, seq));
}


/**
 * Prompt submit: part `part` of the block of unconsumed annotations handed to `deliver` (NOTE-1).
 * Part 0 records what the session was given; its turn end consumes it (NOTE-2). Part 0 also
 * hands `warn` the one warning naming notes held back as not the person's (ANNOT-6).
 */
export function onPrompt(ref: SessionRef, env: Env, part: number, deliver: (text: string) => void, warn: (text: string) => void = () => {}): void {
  const ctx = taskContext(ref.cwd, env);
  const pending = ctx ? pendingBlock(ctx, undefined, part) : undefined;
  if (!ctx || !pending) return;
  if (part === 0 && pending.warning) warn(pending.warning);
  const text = pending.parts[part];
  if (text === undefined) return;
  deliver(text);
  if (part === 0) recordDelivery(env, ref.session, { bus: ctx.bus, task: ctx.task, files: pending.files });
}

/** The in-flight (`running:true`) event of a tool call. */
export function toolStartEvent(ref: SessionRef, call: ToolCall, env: Env, seq?: number): LiveEvent {
  const { label, ...what } = classifyTool(call, loadChecks(env).checks);
  return event(ref, env, { ...what, ...(label ? { label } : {}), running: true, ...(seq !== undefined ? { seq } : {}) });
}

/** What a call that never ended (denied, interrupted) is closed with at turn end. */
export function unfinishedEvent(running: LiveEvent): LiveEvent {
  const { running: _, seq: __, ...rest } = running;
  return { ...rest, ok: false, detail: 'did not complete (denied or interrupted)' };
}

/**
 * Queues the call's `running:true` event in `out`. `callId` (the vendor's id of this tool call)
 * keeps start and end in order: the start marker is left once the start has its place in the
 * outbox, not once the relay acknowledged it (see tool-order.ts).
 */
export function onToolStart(ref: SessionRef, call: ToolCall, env: Env, out: LiveOutbox, callId?: string, seq = nowSeq()): void {
  const running = toolStartEvent(ref, call, env, seq);
  out.queue(running);
  markStarted(env, ref.session, callId, unfinishedEvent(running));
}

export interface ToolOutcome {
  /** Combined output, when the vendor reports it. */
  output?: string;
  /** Exit status of a shell command, when known. */
  exit?: number;
  /** The vendor says the call failed (error, interrupted, denied). */
  failed?: boolean;
}

/** The completed event of a tool call, with its verdict when it is a check. */
export function toolEndEvent(ref: SessionRef, call: ToolCall, outcome: ToolOutcome, env: Env, seq?: number): LiveEvent {
  const { label, ...what } = classifyTool(call, loadChecks(env).checks);
  const output = outcome.output ?? '';
  let ok: boolean | undefined = outcome.failed ? false : outcome.exit !== undefined ? outcome.exit === 0 : undefined;
  if (what.kind === 'check' || what.kind === 'test') ok = outcome.failed ? false : judgeCheck(outcome.exit, output);
  else if (ok === undefined) ok = true;
  const detail = output.length > 0 ? output.slice(-MAX_DETAIL) : undefined;
  return event(ref, env, { ...what, ...(label ? { label } : {}), ...(ok !== undefined ? { ok } : {}), ...(detail ? { detail } : {}), ...(seq !== undefined ? { seq } : {}) });
}

/** Queues the call's completed event in `out`, after its start (waiting briefly for the start's marker). */
export async function onToolEnd(ref: SessionRef, call: ToolCall, outcome: ToolOutcome, env: Env, out: LiveOutbox, callId?: string, seq = nowSeq()): Promise<void> {
  await awaitStarted(env, ref.session, callId);
  out.queue(toolEndEvent(ref, call, outcome, env, seq));
}
