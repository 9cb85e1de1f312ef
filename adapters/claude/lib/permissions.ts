// Renders launch-intent grants as Claude Code settings (RUN-n, GUARD-8): `Bash(<prefix>:*)`
// allow rules; edits allowed only under the job's roots (`Edit(//<root>/**)`, never a
// bare `Edit`/`Write`, which Claude Code applies to any path), denied by a review intent;
// and the permission hook, which refuses an edit whose real path leaves the roots and
// every way past the commit gate. No bypass mode, no wildcard allow.
import type { Grants } from '../../lib/intent';
import { permissionHookSpec } from './permission-spec';

export const EDIT_TOOLS = ['Edit', 'Write', 'NotebookEdit'];

export interface ClaudeJobSettings {
  permissions: { allow: string[]; deny: string[] };
  hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: 'command'; command: string; args?: string[]; timeout: number }> }>>;
}

/** `roots`: absolute real paths the job may edit (its worktree; a commander's directory and reference paths). */
export function claudeSettings(grants: Grants, roots: string[] = []): ClaudeJobSettings {
  const allow = grants.commands.map((p) => `Bash(${p}:*)`);
  const deny = grants.denied.map((p) => `Bash(${p}:*)`);
  // `//` starts an absolute path in Claude Code's rule syntax.
  if (grants.edits) for (const root of roots) allow.push(...EDIT_TOOLS.map((t) => `${t}(/${root}/**)`));
  else deny.push(...EDIT_TOOLS);
  const hook = permissionHookSpec();
  return {
    permissions: { allow, deny },
    hooks: { [hook.event]: [{ matcher: hook.matcher, hooks: [{ type: 'command', command: hook.command, args: hook.args, timeout: hook.timeout }] }] },
  };
}
