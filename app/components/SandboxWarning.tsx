'use client';
// One plain line on a task whose agent runs without a sandbox (SBXDEF-8): what that allows, and a
// "How to fix" that opens in place. Never a banner: it is a line, under the header.
import { useCallback } from 'react';
import { type AppState, useRelay } from '../lib/store';
import { unsandboxedSessions } from '../lib/sandbox-state';
import './SandboxWarning.css';

export function SandboxWarning({ task }: { task: string }) {
  const off = useRelay(useCallback((s: AppState) => unsandboxedSessions(s.live, task).join('\n'), [task]));
  if (!off) return null;
  return (
    <details className="sandbox-off" data-testid="sandbox-off" data-sessions={off.split('\n').length}>
      <summary>
        <span aria-hidden="true">⚠</span> No sandbox — this agent can read your approval key. <span className="sandbox-off-how">How to fix</span>
      </summary>
      <p data-testid="sandbox-off-fix">
        Its commands run as you, so one of them could read the relay&apos;s key and approve its own change.
        On the computer, in the repo: <code>commandr init --wire</code> turns Claude Code&apos;s sandbox on.
        For OpenCode, start it with <code>commandr sandbox -- opencode</code>. <code>commandr doctor</code> says what is missing.
      </p>
    </details>
  );
}
