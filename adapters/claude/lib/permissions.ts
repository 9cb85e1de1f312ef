// Renders launch-intent grants as Claude Code settings (RUN-n): `Bash(<prefix>:*)`
// allow rules, edit tools allowed or denied by intent. No bypass mode, no wildcard allow.
import type { Grants } from '../../lib/intent';

export const EDIT_TOOLS = ['Edit', 'Write', 'NotebookEdit'];

export function claudeSettings(grants: Grants): { permissions: { allow: string[]; deny: string[] } } {
  const allow = grants.commands.map((p) => `Bash(${p}:*)`);
  const deny = grants.denied.map((p) => `Bash(${p}:*)`);
  if (grants.edits) allow.push(...EDIT_TOOLS);
  else deny.push(...EDIT_TOOLS);
  return { permissions: { allow, deny } };
}
