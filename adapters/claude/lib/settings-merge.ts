// Merges commandr's hooks into a Claude Code settings object without touching anything
// else: our entries are recognised by their command path, replaced when stale, never doubled.
export const HOOK_MARKER = '/adapters/claude/hooks/';

export interface HookSpec {
  event: string;
  /** Tool-name matcher for tool events; undefined for the others. */
  matcher?: string;
  /** An executable path: with `args` (even empty) Claude Code spawns it directly, no shell (HOOK-8). */
  command: string;
  args?: string[];
  timeout: number;
  /** Claude Code runs it in the background and does not wait for it (REPORT-5). */
  async?: boolean;
}

interface HookEntry {
  matcher?: string;
  hooks?: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/** Ours: the command is one of our scripts, or a bash (HOOK-10) whose first argument is. */
const isOurs = (hook: Record<string, unknown>): boolean =>
  typeof hook.command === 'string' && (hook.command.includes(HOOK_MARKER) || (Array.isArray(hook.args) && typeof hook.args[0] === 'string' && hook.args[0].includes(HOOK_MARKER)));
/** One hook under two names: the sh shim and the bash script it starts (HOOK-10). */
const SAME_HOOK: Record<string, string> = { 'permission-fast': 'permission' };
/**
 * What a command of ours is: the last shim it names with the plain words after it
 * (`report PreToolUse`, `stop` for `report Stop <stop>`, `user-prompt-submit 3`); one event may hold several of ours.
 */
const shimOf = (hook: { command?: unknown; args?: unknown }): string | undefined => {
  if (typeof hook.command !== 'string') return undefined;
  const args = Array.isArray(hook.args) ? hook.args.filter((a): a is string => typeof a === 'string') : [];
  const m = /\/adapters\/claude\/hooks\/([A-Za-z0-9_-]+)'?((?:\s+[A-Za-z0-9_-]+)*)\s*$/.exec([hook.command, ...args].join(' '));
  return m ? `${SAME_HOOK[m[1]!] ?? m[1]}${m[2]!.replace(/\s+/g, ' ')}` : undefined;
};
/** Entries of runners since replaced — `detach` by `spool` (ORDER-1), `spool` by `report` (REPORT-1): dropped wherever they are. */
const RETIRED = ['detach', 'spool'].map((runner) => new RegExp(`${HOOK_MARKER.replace(/[/]/g, '\\/')}${runner}'?\\s`));
const isRetired = (hook: Record<string, unknown>): boolean => isOurs(hook) && RETIRED.some((r) => r.test(`${hook.command as string} `));
const isOursFor = (spec: HookSpec) => (hook: Record<string, unknown>): boolean =>
  isRetired(hook) || (isOurs(hook) && shimOf(hook) === shimOf(spec));

function desiredEntry(spec: HookSpec): HookEntry {
  const hook = { type: 'command', command: spec.command, ...(spec.args ? { args: spec.args } : {}), timeout: spec.timeout, ...(spec.async ? { async: true } : {}) };
  return { ...(spec.matcher !== undefined ? { matcher: spec.matcher } : {}), hooks: [hook] };
}

function isDesired(entries: HookEntry[], spec: HookSpec): boolean {
  const ours = entries.flatMap((e) => (e.hooks ?? []).filter(isOursFor(spec)).map((h) => ({ e, h })));
  if (ours.length !== 1) return false;
  const { e, h } = ours[0]!;
  return e.matcher === spec.matcher && e.hooks!.length === 1 && h.type === 'command' && h.command === spec.command && JSON.stringify(h.args) === JSON.stringify(spec.args) && h.timeout === spec.timeout && (h.async === true) === (spec.async === true);
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

/**
 * Every hook of ours taken out (WIREPATH-2: they moved to the local settings file); entries and
 * events left empty by that are dropped, and so is `hooks` when nothing else was in it.
 */
export function withoutOurHooks(settings: Record<string, unknown>): MergeResult {
  const hooksValue = settings.hooks;
  if (typeof hooksValue !== 'object' || hooksValue === null || Array.isArray(hooksValue)) return { settings, changed: [] };
  const hooks: Record<string, unknown> = {};
  const changed: string[] = [];
  for (const [event, value] of Object.entries(hooksValue as Record<string, unknown>)) {
    if (!Array.isArray(value)) { hooks[event] = value; continue; }
    const kept: unknown[] = [];
    let removed = false;
    for (const entry of value as HookEntry[]) {
      if (typeof entry !== 'object' || entry === null || !Array.isArray(entry.hooks)) { kept.push(entry); continue; }
      const others = entry.hooks.filter((h) => !(typeof h === 'object' && h !== null && isOurs(h)));
      if (others.length !== entry.hooks.length) removed = true;
      if (others.length === entry.hooks.length) kept.push(entry);
      else if (others.length > 0) kept.push({ ...entry, hooks: others });
    }
    if (removed) changed.push(event);
    if (kept.length > 0 || !removed) hooks[event] = kept;
  }
  if (changed.length === 0) return { settings, changed };
  const { hooks: _, ...rest } = settings;
  return { settings: Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest, changed };
}
