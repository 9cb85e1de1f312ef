// The hooks `wire` installs: event → the committed shim under adapters/claude/hooks/,
// addressed by absolute path so any session in the project reaches this install.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { installRoot, onPath, type Env } from '../../lib/env';
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

/** The events whose hook Claude Code runs in the background, `async: true` (REPORT-5). */
const BACKGROUND = new Set(['PostToolUse', 'PostToolUseFailure']);

export function hookShim(shim: string, root = installRoot()): string {
  return path.join(root, 'adapters', 'claude', 'hooks', shim);
}

const bashes = new Map<string, string | undefined>();

/**
 * The bash the bash hooks run under (HOOK-10): the first `bash` in an absolute directory of PATH —
 * the one their `#!/usr/bin/env bash` would find — by its absolute path, when it is bash 5 or later.
 * Named in the settings, it spares each hook the start of `env` (or of sh, for the permission hook)
 * before bash: about 0.7–0.9 ms a hook. Undefined when there is none: the scripts then start as before.
 */
export function hookBash(env: Env = process.env): string | undefined {
  const key = env.PATH ?? '';
  if (bashes.has(key)) return bashes.get(key);
  let found: string | undefined;
  // Never one in a directory relative to wherever a hook runs (onPath skips those).
  const candidate = onPath('bash', env);
  if (candidate) {
    try {
      const major = execFileSync(candidate, ['-c', 'echo "${BASH_VERSINFO[0]}"'], { env: {} as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] });
      if (Number(major.trim()) >= 5) found = candidate;
    } catch { /* not a bash that runs: as if there were none */ }
  }
  bashes.set(key, found);
  return found;
}

/** A bash hook's command: bash by its path with the script first (HOOK-10), else the script itself (HOOK-8). */
export function bashHookCommand(script: string, args: string[], bash: string | undefined): { command: string; args: string[] } {
  return bash ? { command: bash, args: [script, ...args] } : { command: script, args };
}

export function hookSpecs(root = installRoot(), bash = hookBash()): HookSpec[] {
  return EVENTS.map(({ event, shim, arg, matcher, runner }) => {
    // The exec form (HOOK-8): Claude Code starts the runner itself, without a shell in between.
    const hook = shim ? hookShim(shim, root) : undefined;
    const args = (runner === 'report' ? [event, hook] : [hook, arg]).filter((a): a is string => a !== undefined);
    // `report` is bash: started by bash's path when there is one (HOOK-10); the prompt gate is sh.
    const command = runner === 'report' ? bashHookCommand(hookShim(runner, root), args, bash) : { command: hookShim(runner, root), args };
    // A tool's end runs in the background (REPORT-5): Claude Code does not wait for it; the next
    // call's permission hook and the turn's end wait for it instead, while it still runs.
    return { event, matcher, ...command, timeout: HOOK_TIMEOUT_S, ...(BACKGROUND.has(event) ? { async: true } : {}) };
  });
}
