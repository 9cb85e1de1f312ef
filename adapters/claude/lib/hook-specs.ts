// The hooks `wire` installs: event → the committed shim under adapters/claude/hooks/,
// addressed by absolute path so any session in the project reaches this install.
import * as path from 'node:path';
import { installRoot } from '../../lib/env';
import { shQuote } from '../../lib/wire-report';
import type { HookSpec } from './settings-merge';

/** Seconds Claude Code allows a hook; ours return in well under one. */
export const HOOK_TIMEOUT_S = 10;

/**
 * `detach`: the hook only reports (live events, checkpoints), so it runs in the background
 * through `hooks/detach` and the agent never waits for node to start. Only the prompt hook,
 * whose output the agent needs, runs in the foreground. (Claude Code's own `async` hook
 * option did not run hooks to completion in `-p` mode when tried with 2.1.332.)
 */
type Runner = 'detach' | 'prompt-gate' | 'direct';

const EVENTS: Array<{ event: string; shim: string; matcher?: string; runner: Runner }> = [
  // `prompt-gate`: a POSIX sh check that starts node only when there are notes to inject.
  { event: 'UserPromptSubmit', shim: 'user-prompt-submit', runner: 'prompt-gate' },
  { event: 'PreToolUse', shim: 'pre-tool-use', matcher: '*', runner: 'detach' },
  { event: 'PostToolUse', shim: 'post-tool-use', matcher: '*', runner: 'detach' },
  { event: 'PostToolUseFailure', shim: 'post-tool-use', matcher: '*', runner: 'detach' },
  { event: 'Stop', shim: 'stop', runner: 'detach' },
  { event: 'SessionEnd', shim: 'session-end', runner: 'detach' },
];

export function hookShim(shim: string, root = installRoot()): string {
  return path.join(root, 'adapters', 'claude', 'hooks', shim);
}

export function hookSpecs(root = installRoot()): HookSpec[] {
  return EVENTS.map(({ event, shim, matcher, runner }) => {
    const hook = shQuote(hookShim(shim, root));
    const command = runner === 'direct' ? hook : `${shQuote(hookShim(runner, root))} ${hook}`;
    return { event, matcher, command, timeout: HOOK_TIMEOUT_S };
  });
}
