// Renders launch-intent grants as an OpenCode permission config (RUN-n): bash denied
// by default, each prefix allowed (`"<prefix> *"`, last match wins), edits by intent,
// and nothing outside the job's directory (GUARD-8: `external_directory: deny`).
import type { Env } from '../../lib/env';
import type { Grants } from '../../lib/intent';

export interface OpencodePermission {
  bash: Record<string, 'allow' | 'deny'>;
  edit: 'allow' | 'deny';
  external_directory?: 'deny';
}

/**
 * A commander's reference paths (AGENT_EDIT_ROOTS) lie outside its directory, so for it
 * OpenCode's own external-directory rule stays as it is and the plugin's permission step
 * holds edits to its roots.
 */
export function opencodePermission(grants: Grants, env: Env = process.env): OpencodePermission {
  const bash: Record<string, 'allow' | 'deny'> = { '*': 'deny' };
  for (const prefix of grants.commands) {
    bash[prefix] = 'allow';
    bash[`${prefix} *`] = 'allow';
  }
  for (const prefix of grants.denied) {
    delete bash[prefix];
    delete bash[`${prefix} *`];
    bash[prefix] = 'deny';
    bash[`${prefix} *`] = 'deny';
  }
  return { bash, edit: grants.edits ? 'allow' : 'deny', ...(env.AGENT_EDIT_ROOTS?.trim() ? {} : { external_directory: 'deny' as const }) };
}

/** Our permission on top of any inline config the caller already passes (ours wins). */
export function inlineConfig(existing: string | undefined, grants: Grants): string {
  let base: Record<string, unknown> = {};
  try {
    const parsed: unknown = existing ? JSON.parse(existing) : {};
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) base = parsed as Record<string, unknown>;
  } catch {
    base = {};
  }
  return JSON.stringify({ ...base, permission: opencodePermission(grants) });
}
