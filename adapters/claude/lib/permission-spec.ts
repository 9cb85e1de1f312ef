// The permission hook `wire` installs beside the reporting hooks: a foreground
// `PreToolUse` hook whose timeout is above the longest permission wait, so
// Claude Code never kills it while a person is still deciding (PERM-HOOK-4).
import { hookShim, hookSpecs } from './hook-specs';
import type { HookSpec } from './settings-merge';

/** Longest permission timeout the relay accepts (PermissionAsk.timeoutMs) plus a margin. */
export const PERMISSION_HOOK_TIMEOUT_S = 3600 + 30;

export function permissionHookSpec(root?: string): HookSpec {
  return { event: 'PreToolUse', matcher: '*', command: hookShim('permission', root), args: [], timeout: PERMISSION_HOOK_TIMEOUT_S };
}

/** Every hook `wire` installs and a job brings: the reporting hooks and the permission hook (DOCTOR-3 checks these). */
export function wiredHookSpecs(): HookSpec[] {
  return [...hookSpecs(), permissionHookSpec()];
}
