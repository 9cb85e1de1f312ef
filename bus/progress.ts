// Progress notes (PROGRESS-n): one line of harness-neutral, human-readable status
// appended as task_progress. Anything else is refused before anything is written.
import { BusError } from './errors';
import { appendEvent } from './event-log';
import { assertBus, assertTaskId } from './layout';
import { stepLease } from './lease';
import * as path from 'node:path';

/** Harness internals a note must never carry: hook names, tool-call talk, transcripts, sessions, tokens. */
const HARNESS_WORDS =
  /\b(tool_use|tool_result|tool_call|tool_use_id|toolUse|PreToolUse|PostToolUse|UserPromptSubmit|SessionStart|SessionEnd|SubagentStop|PreCompact|transcript\w*|session_id|sessionId|input_tokens|output_tokens|cache_read_input_tokens|\d[\d,.]*\s*k?\s*tokens?)\b/i;

/** The reason a note is refused, or undefined when it is fine. */
export function noteProblem(note: string): string | undefined {
  if (/[\r\n]/.test(note)) return 'the note contains a line break; it must be one line';
  if (note.trim().length === 0) return 'the note is empty or all whitespace';
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.exec(note);
  if (control) return `the note contains the control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`;
  const internal = HARNESS_WORDS.exec(note);
  if (internal) return `the note carries harness internals ("${internal[0]}"); write human-readable status only`;
  return undefined;
}

export function appendProgress(bus: string, task: string, note: string, agent?: string): void {
  assertTaskId(task);
  const problem = noteProblem(note);
  if (problem) throw new BusError('E_BAD_NOTE', problem);
  assertBus(bus);
  appendEvent(bus, { event: 'task_progress', task, note, agent: agent || undefined });
}

/**
 * `progress` as the bin tool runs it (LEASE-3): when this machine holds a lease
 * on the task, the lease is renewed first; a lease taken over by another
 * claimant refuses the note (E_LEASE_LOST, nothing appended). A remote that
 * cannot be reached does not lose the note: it is appended and the returned
 * warning says the lease was not renewed.
 */
export async function appendProgressRenewing(bus: string, task: string, note: string, agent?: string): Promise<{ warning?: string; lease_until?: string }> {
  assertTaskId(task);
  const problem = noteProblem(note);
  if (problem) throw new BusError('E_BAD_NOTE', problem);
  assertBus(bus);
  let renewed: Awaited<ReturnType<typeof stepLease>>;
  let warning: string | undefined;
  try {
    renewed = await stepLease(path.dirname(bus), task, 'renew');
  } catch (error) {
    if (!(error instanceof BusError) || error.code !== 'E_GIT') throw error;
    warning = `warning: the lease on ${task} was not renewed: ${error.message}`;
  }
  appendEvent(bus, { event: 'task_progress', task, note, agent: agent || undefined });
  return { warning, lease_until: renewed?.lease_until };
}
