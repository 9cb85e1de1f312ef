// The permission hook `wire` installs beside the reporting hooks: a foreground
// `PreToolUse` hook whose timeout is above the longest permission wait, so
// Claude Code never kills it while a person is still deciding (PERM-HOOK-4).
import { bashHookCommand, hookBash, hookShim, hookSpecs } from './hook-specs';
import type { HookSpec } from './settings-merge';

/** Longest permission timeout the relay accepts (PermissionAsk.timeoutMs) plus a margin. */
export const PERMISSION_HOOK_TIMEOUT_S = 3600 + 30;

/**
 * With a bash 5 (HOOK-10) the hook is `permission-fast` started by bash's path; else the sh shim
 * `permission`, which starts it through PATH (or the node hook where there is no bash).
 */
export function permissionHookSpec(root?: string, bash = hookBash()): HookSpec {
  const command = bash ? bashHookCommand(hookShim('permission-fast', root), [], bash) : { command: hookShim('permission', root), args: [] };
  return { event: 'PreToolUse', matcher: '*', ...command, timeout: PERMISSION_HOOK_TIMEOUT_S };
}

/** Every hook `wire` installs and a job brings: the reporting hooks and the permission hook (DOCTOR-3 checks these). */
export function wiredHookSpecs(bash = hookBash()): HookSpec[] {
  return [...hookSpecs(undefined, bash), permissionHookSpec(undefined, bash)];
}
