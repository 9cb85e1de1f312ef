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
/**
 * What a command of ours is: the last shim it names with the plain words after it
 * (`spool PreToolUse`, `stop` for `spool Stop <stop>`, `user-prompt-submit 3`); one event may hold several of ours.
 */
const shimOf = (command: unknown): string | undefined => {
  if (typeof command !== 'string') return undefined;
  const m = /\/adapters\/claude\/hooks\/([A-Za-z0-9_-]+)'?((?:\s+[A-Za-z0-9_-]+)*)\s*$/.exec(command);
  return m ? `${m[1]}${m[2]!.replace(/\s+/g, ' ')}` : undefined;
};
/** Entries of the runner that hooks/spool replaced (ORDER-1): dropped wherever they are. */
const isRetired = (hook: Record<string, unknown>): boolean => isOurs(hook) && (hook.command as string).includes(`${HOOK_MARKER}detach`);
const isOursFor = (spec: HookSpec) => (hook: Record<string, unknown>): boolean =>
  isRetired(hook) || (isOurs(hook) && shimOf(hook.command) === shimOf(spec.command));

function desiredEntry(spec: HookSpec): HookEntry {
  return { ...(spec.matcher !== undefined ? { matcher: spec.matcher } : {}), hooks: [{ type: 'command', command: spec.command, timeout: spec.timeout }] };
}

function isDesired(entries: HookEntry[], spec: HookSpec): boolean {
  const ours = entries.flatMap((e) => (e.hooks ?? []).filter(isOursFor(spec)).map((h) => ({ e, h })));
  if (ours.length !== 1) return false;
  const { e, h } = ours[0]!;
  return e.matcher === spec.matcher && e.hooks!.length === 1 && h.type === 'command' && h.command === spec.command && h.timeout === spec.timeout;
}

/** Entries without our hooks; entries left empty by that are dropped. */
function withoutOurs(entries: HookEntry[], spec: HookSpec): HookEntry[] {
  const out: HookEntry[] = [];
  for (const entry of entries) {
    if (!Array.isArray(entry.hooks)) { out.push(entry); continue; }
    const kept = entry.hooks.filter((h) => !isOursFor(spec)(h));
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
    hooks[spec.event] = [...withoutOurs(current, spec), desiredEntry(spec)];
    changed.push(spec.event);
  }
  return { settings: changed.length > 0 ? { ...settings, hooks } : settings, changed };
}
