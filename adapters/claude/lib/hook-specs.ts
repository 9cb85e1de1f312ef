// The hooks `wire` installs: event → the committed shim under adapters/claude/hooks/,
// addressed by absolute path so any session in the project reaches this install.
import * as path from 'node:path';
import { installRoot } from '../../lib/env';
import { MAX_PARTS } from '../../lib/inject';
import type { HookSpec } from './settings-merge';

/** Seconds Claude Code allows a hook; ours return in well under one. */
export const HOOK_TIMEOUT_S = 10;

/**
 * `report`: reporting hooks (REPORT-1) send the payload straight to the relay on this machine
 * (bash, no process started) and return when it has done the bus part of Stop / SessionEnd
 * (ORDER-1) and published the live events; with no relay they run `spool`, which appends the
 * payload to the spool (running the bus part, `stop` / `session-end`, in the foreground first)
 * for the background poster. Only the prompt hook, whose output the agent needs, runs node in
 * the foreground, and only when there are notes.
 */
type Runner = 'report' | 'prompt-gate';

const EVENTS: Array<{ event: string; shim?: string; arg?: string; matcher?: string; runner: Runner }> = [
  // `prompt-gate`: a POSIX sh check that starts node only when there are notes to inject.
  // One hook per part of the notes block (NOTE-1); part 0 has no argument, like before parts.
  ...Array.from({ length: MAX_PARTS }, (_, k) => ({ event: 'UserPromptSubmit', shim: 'user-prompt-submit', arg: k === 0 ? undefined : String(k), runner: 'prompt-gate' as const })),
  // PreToolUse has no reporting hook: the permission hook's request reports the call's start (REPORT-4).
  { event: 'PostToolUse', matcher: '*', runner: 'report' },
  { event: 'PostToolUseFailure', matcher: '*', runner: 'report' },
  { event: 'Stop', shim: 'stop', runner: 'report' },
  { event: 'SessionEnd', shim: 'session-end', runner: 'report' },
];

export function hookShim(shim: string, root = installRoot()): string {
  return path.join(root, 'adapters', 'claude', 'hooks', shim);
}

export function hookSpecs(root = installRoot()): HookSpec[] {
  return EVENTS.map(({ event, shim, arg, matcher, runner }) => {
    // The exec form (HOOK-8): Claude Code starts the runner itself, without a shell in between.
    const hook = shim ? hookShim(shim, root) : undefined;
    const args = runner === 'report' ? [event, hook] : [hook, arg];
    return { event, matcher, command: hookShim(runner, root), args: args.filter((a): a is string => a !== undefined), timeout: HOOK_TIMEOUT_S };
  });
}
