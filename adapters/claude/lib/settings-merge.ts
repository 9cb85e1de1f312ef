// Merges commandr's hooks into a Claude Code settings object without touching anything
// else: our entries are recognised by their command path, replaced when stale, never doubled.
export const HOOK_MARKER = '/adapters/claude/hooks/';

export interface HookSpec {
  event: string;
  /** Tool-name matcher for tool events; undefined for the others. */
  matcher?: string;
  command: string;
  timeout: number;
}

interface HookEntry {
  matcher?: string;
  hooks?: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

const isOurs = (hook: Record<string, unknown>): boolean => typeof hook.command === 'string' && hook.command.includes(HOOK_MARKER);

function desiredEntry(spec: HookSpec): HookEntry {
  return { ...(spec.matcher !== undefined ? { matcher: spec.matcher } : {}), hooks: [{ type: 'command', command: spec.command, timeout: spec.timeout }] };
}

function isDesired(entries: HookEntry[], spec: HookSpec): boolean {
  const ours = entries.flatMap((e) => (e.hooks ?? []).filter(isOurs).map((h) => ({ e, h })));
  if (ours.length !== 1) return false;
  const { e, h } = ours[0]!;
  return e.matcher === spec.matcher && e.hooks!.length === 1 && h.type === 'command' && h.command === spec.command && h.timeout === spec.timeout;
}

/** Entries without our hooks; entries left empty by that are dropped. */
function withoutOurs(entries: HookEntry[]): HookEntry[] {
  const out: HookEntry[] = [];
  for (const entry of entries) {
    if (!Array.isArray(entry.hooks)) { out.push(entry); continue; }
    const kept = entry.hooks.filter((h) => !isOurs(h));
    if (kept.length === entry.hooks.length) out.push(entry);
    else if (kept.length > 0) out.push({ ...entry, hooks: kept });
  }
  return out;
}

export interface MergeResult {
  settings: Record<string, unknown>;
  /** Hook events whose entry was added or replaced. */
  changed: string[];
}

export function mergeHooks(settings: Record<string, unknown>, specs: HookSpec[]): MergeResult {
  const hooksValue = settings.hooks;
  const hooks: Record<string, unknown> = typeof hooksValue === 'object' && hooksValue !== null && !Array.isArray(hooksValue) ? { ...hooksValue } : {};
  const changed: string[] = [];
  for (const spec of specs) {
    const current = Array.isArray(hooks[spec.event]) ? (hooks[spec.event] as HookEntry[]) : [];
    if (isDesired(current, spec)) continue;
    hooks[spec.event] = [...withoutOurs(current), desiredEntry(spec)];
    changed.push(spec.event);
  }
  return { settings: changed.length > 0 ? { ...settings, hooks } : settings, changed };
}
