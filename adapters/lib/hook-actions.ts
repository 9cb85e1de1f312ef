// What a hook does, in neutral terms, for every vendor: turn end, session end, prompt
// submit, tool start/end. Vendor entries only translate their payload into these calls.
import { appendEvent } from '../../bus/event-log';
import { assertBus } from '../../bus/layout';
import { locateGit } from '../../bus/locate';
import type { LiveEvent } from '../../protocol/live-events';
import { judgeCheck, loadChecks } from './checks';
import { checkpoint, workState } from './checkpoint';
import { classifyTool, type ToolCall } from './classify';
import type { Env } from './env';
import { injectAnnotations } from './inject';
import { passthrough, postLive } from './live-post';
import { taskContext, taskOf } from './task-context';
import { awaitStarted, markStarted, pruneMarkers, sweepUnfinished } from './tool-order';

export interface SessionRef {
  session: string;
  cwd: string;
}

const MAX_DETAIL = 2000;

function event(ref: SessionRef, env: Env, fields: Omit<LiveEvent, 'v' | 'session'>, task?: string): LiveEvent {
  return { v: 1, session: ref.session.slice(0, 256), ...passthrough(env, task ?? taskOf(ref.cwd, env)), ...fields };
}

/** Turn end: a checkpoint when the work state changed, then the `idle` live event. */
export async function onTurnEnd(ref: SessionRef, env: Env): Promise<void> {
  const ctx = taskContext(ref.cwd, env);
  if (ctx) {
    try {
      checkpoint(ctx, env);
    } catch {
      /* a bus that is not initialised or a git hiccup must not stop the live event */
    }
  }
  await postLive(event(ref, env, { kind: 'idle', summary: 'finished responding' }, ctx?.task), env);
  // Calls that never ended (denied, interrupted) get their completed event now, as failed.
  for (const unfinished of await sweepUnfinished(env, ref.session)) await postLive(unfinished, env);
  pruneMarkers(env);
}

/** Session end: `session_end` on the bus of the repo (when it has one), then the `end` live event. */
export async function onSessionEnd(ref: SessionRef, env: Env): Promise<void> {
  const ctx = taskContext(ref.cwd, env);
  try {
    const bus = ctx?.bus ?? locateGit(ref.cwd, env as NodeJS.ProcessEnv).bus;
    assertBus(bus);
    let filesChanged: number | undefined;
    try {
      filesChanged = workState(ctx?.worktree ?? ref.cwd).changed.length;
    } catch {
      filesChanged = undefined;
    }
    appendEvent(bus, { event: 'session_end', session: ref.session, task: ctx?.task, files_changed: filesChanged });
  } catch {
    /* no repo or no bus here: only the relay hears about it */
  }
  await postLive(event(ref, env, { kind: 'end', summary: 'session ended' }, ctx?.task), env);
}

/** Prompt submit: the unconsumed annotations handed to `deliver` as one block (marked consumed after). */
export function onPrompt(ref: SessionRef, env: Env, deliver: (block: string) => void): number {
  const ctx = taskContext(ref.cwd, env);
  return ctx ? injectAnnotations(ctx, deliver) : 0;
}

/** `callId` (the vendor's id of this tool call) keeps start and end in order; see tool-order.ts. */
export async function onToolStart(ref: SessionRef, call: ToolCall, env: Env, callId?: string): Promise<void> {
  const { label, ...what } = classifyTool(call, loadChecks(env).checks);
  const running = event(ref, env, { ...what, ...(label ? { label } : {}), running: true });
  await postLive(running, env);
  const { running: _, ...rest } = running;
  markStarted(env, ref.session, callId, { ...rest, ok: false, detail: 'did not complete (denied or interrupted)' });
}

export interface ToolOutcome {
  /** Combined output, when the vendor reports it. */
  output?: string;
  /** Exit status of a shell command, when known. */
  exit?: number;
  /** The vendor says the call failed (error, interrupted, denied). */
  failed?: boolean;
}

export async function onToolEnd(ref: SessionRef, call: ToolCall, outcome: ToolOutcome, env: Env, callId?: string): Promise<void> {
  const { label, ...what } = classifyTool(call, loadChecks(env).checks);
  await awaitStarted(env, ref.session, callId);
  const output = outcome.output ?? '';
  let ok: boolean | undefined = outcome.failed ? false : outcome.exit !== undefined ? outcome.exit === 0 : undefined;
  if (what.kind === 'check' || what.kind === 'test') ok = outcome.failed ? false : judgeCheck(outcome.exit, output);
  else if (ok === undefined) ok = true;
  const detail = output.length > 0 ? output.slice(-MAX_DETAIL) : undefined;
  await postLive(event(ref, env, { ...what, ...(label ? { label } : {}), ...(ok !== undefined ? { ok } : {}), ...(detail ? { detail } : {}) }), env);
}
