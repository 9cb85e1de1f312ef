// Renders launch-intent grants as an OpenCode permission config (RUN-n): bash denied
// by default, each prefix allowed (`"<prefix> *"`, last match wins), edits by intent.
import type { Grants } from '../../lib/intent';

export interface OpencodePermission {
  bash: Record<string, 'allow' | 'deny'>;
  edit: 'allow' | 'deny';
}

export function opencodePermission(grants: Grants): OpencodePermission {
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
  return { bash, edit: grants.edits ? 'allow' : 'deny' };
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
