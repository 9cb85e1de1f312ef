// The hooks `wire` installs: event → the committed shim under adapters/claude/hooks/,
// addressed by absolute path so any session in the project reaches this install.
import * as path from 'node:path';
import { installRoot } from '../../lib/env';
import { shQuote } from '../../lib/wire-report';
import type { HookSpec } from './settings-merge';

/** Seconds Claude Code allows a hook; ours return in well under one. */
export const HOOK_TIMEOUT_S = 10;

const EVENTS: Array<{ event: string; shim: string; matcher?: string }> = [
  { event: 'UserPromptSubmit', shim: 'user-prompt-submit' },
  { event: 'PreToolUse', shim: 'pre-tool-use', matcher: '*' },
  { event: 'PostToolUse', shim: 'post-tool-use', matcher: '*' },
  { event: 'PostToolUseFailure', shim: 'post-tool-use', matcher: '*' },
  { event: 'Stop', shim: 'stop' },
  { event: 'SessionEnd', shim: 'session-end' },
];

export function hookShim(shim: string, root = installRoot()): string {
  return path.join(root, 'adapters', 'claude', 'hooks', shim);
}

export function hookSpecs(root = installRoot()): HookSpec[] {
  return EVENTS.map(({ event, shim, matcher }) => ({ event, matcher, command: shQuote(hookShim(shim, root)), timeout: HOOK_TIMEOUT_S }));
}
