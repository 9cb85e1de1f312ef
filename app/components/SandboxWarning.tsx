'use client';
// One plain line where an agent runs without a sandbox: on a task (SBXDEF-8) and on a commander
// whose relay runs its turns unsandboxed (SANDBOX-WARN-1). What that allows, and a "How to fix"
// that opens in place. Never a banner: it is a line, under the header.
import { useCallback, type ReactNode } from 'react';
import { type AppState, useRelay } from '../lib/store';
import { unsandboxedSessions } from '../lib/sandbox-state';
import './SandboxWarning.css';

export function SandboxWarning({ task }: { task: string }) {
  const off = useRelay(useCallback((s: AppState) => unsandboxedSessions(s.live, task).join('\n'), [task]));
  if (!off) return null;
  return (
    <NoSandboxLine sessions={off.split('\n').length}>
      Its commands run as you, so one of them could read the relay&apos;s key and approve its own change.
      On the computer, in the repo: <code>commandr init --wire</code> turns Claude Code&apos;s sandbox on.
      For OpenCode, start it with <code>commandr sandbox -- opencode</code>. <code>commandr doctor</code> says what is missing.
    </NoSandboxLine>
  );
}

/** SANDBOX-WARN-1: a commander's turns run unsandboxed because its relay was started with `--no-sandbox`. */
export function CommanderSandboxWarning({ sandbox }: { sandbox: 'on' | 'off' | undefined }) {
  if (sandbox !== 'off') return null;
  return (
    <NoSandboxLine sessions={1}>
      The relay was started with <code>--no-sandbox</code>, so this commander&apos;s commands run as you: one of them could read
      the relay&apos;s key and approve a change itself. On the computer, restart the relay without <code>--no-sandbox</code>;
      <code>commandr doctor</code> says what the sandbox needs.
    </NoSandboxLine>
  );
}

function NoSandboxLine({ sessions, children }: { sessions: number; children: ReactNode }) {
  return (
    <details className="sandbox-off" data-testid="sandbox-off" data-sessions={sessions}>
      <summary>
        <span aria-hidden="true">⚠</span> No sandbox — this agent can read your approval key. <span className="sandbox-off-how">How to fix</span>
      </summary>
      <p data-testid="sandbox-off-fix">{children}</p>
    </details>
  );
}
