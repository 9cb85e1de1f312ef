// The hooks `wire` installs: event → the committed shim under adapters/claude/hooks/,
// addressed by absolute path so any session in the project reaches this install.
import * as path from 'node:path';
import { installRoot } from '../../lib/env';
import { MAX_PARTS } from '../../lib/inject';
import { shQuote } from '../../lib/wire-report';
import type { HookSpec } from './settings-merge';

/** Seconds Claude Code allows a hook; ours return in well under one. */
export const HOOK_TIMEOUT_S = 10;

/**
 * `spool`: reporting hooks (ORDER-1) append the payload to the spool in a few milliseconds of
 * sh and return; one background poster posts the live events in the order the hooks ran. Stop
 * and SessionEnd first run their bus part (`stop`, `session-end`) in the foreground, so a turn's
 * checkpoint and session_end are on the bus, in order, when its hooks are done. Only the prompt
 * hook, whose output the agent needs, runs node in the foreground, and only when there are notes.
 */
type Runner = 'spool' | 'prompt-gate';

const EVENTS: Array<{ event: string; shim?: string; arg?: string; matcher?: string; runner: Runner }> = [
  // `prompt-gate`: a POSIX sh check that starts node only when there are notes to inject.
  // One hook per part of the notes block (NOTE-1); part 0 has no argument, like before parts.
  ...Array.from({ length: MAX_PARTS }, (_, k) => ({ event: 'UserPromptSubmit', shim: 'user-prompt-submit', arg: k === 0 ? undefined : String(k), runner: 'prompt-gate' as const })),
  { event: 'PreToolUse', matcher: '*', runner: 'spool' },
  { event: 'PostToolUse', matcher: '*', runner: 'spool' },
  { event: 'PostToolUseFailure', matcher: '*', runner: 'spool' },
  { event: 'Stop', shim: 'stop', runner: 'spool' },
  { event: 'SessionEnd', shim: 'session-end', runner: 'spool' },
];

export function hookShim(shim: string, root = installRoot()): string {
  return path.join(root, 'adapters', 'claude', 'hooks', shim);
}

export function hookSpecs(root = installRoot()): HookSpec[] {
  return EVENTS.map(({ event, shim, arg, matcher, runner }) => {
    const runnerPath = shQuote(hookShim(runner, root));
    const hook = shim ? shQuote(hookShim(shim, root)) : '';
    const command = runner === 'spool' ? [runnerPath, event, hook].filter(Boolean).join(' ') : [runnerPath, hook, arg].filter(Boolean).join(' ');
    return { event, matcher, command, timeout: HOOK_TIMEOUT_S };
  });
}
