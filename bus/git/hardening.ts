// What a git run in a repository we did not write must never do (GITRUN-n): run a command its
// config (local, worktree, or any file they include), its `.gitattributes` or `.git/info/attributes`
// name. Fixed settings cover the keys with a known name; the named drivers are read from the
// effective config and overridden one by one, because command-line config wins over every file.
import * as path from 'node:path';

/** Scopes an agent can write: `.git/config`, `config.worktree`, and whatever they include. */
const REPO_SCOPES = new Set(['local', 'worktree']);

/**
 * Always set, whatever the repository says. `diff.external` empty makes git fail rather than run
 * anything if a diff-like command without `--no-ext-diff` ever consulted it.
 */
export const FIXED_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  ['diff.external', ''],
  ['protocol.ext.allow', 'never'],
];

/** Variables that would point git at another repository, index or object store. */
export const LOCATION_VARS = [
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_PREFIX',
];

/**
 * The environment of one run. `explicit` is the caller's own (kept whole: a hook's GIT_INDEX_FILE
 * is how the gate digests the index being committed); otherwise this process's without location
 * variables. `top` stops discovery above the work tree.
 */
export function runEnv(explicit: NodeJS.ProcessEnv | undefined, top: string | undefined, config: ReadonlyArray<readonly [string, string]>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...(explicit ?? process.env) };
  if (!explicit) for (const name of LOCATION_VARS) delete env[name];
  if (top) env.GIT_CEILING_DIRECTORIES = path.dirname(top);
  // GIT_EXTERNAL_DIFF="" would not switch the config's off; only its absence does.
  delete env.GIT_EXTERNAL_DIFF;
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_EDITOR = ':';
  env.GIT_SEQUENCE_EDITOR = ':';
  env.GIT_PAGER = 'cat';
  // Config through GIT_CONFIG_KEY_n, not `-c`: a driver's name may hold `=`; after any the caller set.
  let n = Number(env.GIT_CONFIG_COUNT) || 0;
  for (const [key, value] of config) {
    env[`GIT_CONFIG_KEY_${n}`] = key;
    env[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  env.GIT_CONFIG_COUNT = String(n);
  return env;
}

export interface ConfigEntry { scope: string; key: string; value: string; origin?: string }

/**
 * `git config --list -z --show-scope [--show-origin]` output: `scope NUL [origin NUL] key LF value NUL`
 * (no LF for a bare key). The origin is `file:<path>`, `command line:` or `blob:<id>`.
 */
export function parseConfigList(out: Buffer | string, withOrigin = false): ConfigEntry[] {
  const parts = out.toString('utf8').split('\0');
  const width = withOrigin ? 3 : 2;
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + width - 1 < parts.length; i += width) {
    const scope = parts[i]!;
    const item = parts[i + width - 1]!;
    const nl = item.indexOf('\n');
    const entry: ConfigEntry = { scope, key: nl === -1 ? item : item.slice(0, nl), value: nl === -1 ? '' : item.slice(nl + 1) };
    if (withOrigin) entry.origin = parts[i + 1]!;
    entries.push(entry);
  }
  return entries;
}

/** A merge driver that is git's own text merge (conflicts: markers and a non-zero exit); git fills in the quoted temp paths. */
export const TEXT_MERGE = 'git merge-file --marker-size=%L %A %O %B';

/** The safe value of a command-bearing key, or undefined for a key that names no command. */
export function neutralValue(key: string): string | undefined {
  const dot = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (dot === -1) return undefined;
  const section = key.slice(0, dot).toLowerCase();
  const name = key.slice(last + 1).toLowerCase();
  const sub = dot === last ? undefined : key.slice(dot + 1, last);
  if (sub !== undefined) {
    if (section === 'filter' && (name === 'clean' || name === 'smudge' || name === 'process')) return '';
    if (section === 'diff' && (name === 'textconv' || name === 'command')) return '';
    // Empty would make git fail to run "" (a phone merge then errs); git's own three-way text merge instead.
    if (section === 'merge' && name === 'driver') return TEXT_MERGE;
    if (section === 'credential' && name === 'helper') return '';
    if (section === 'remote' && name === 'vcs') return '';
    if (section === 'gpg' && name === 'program') return ({ openpgp: 'gpg', x509: 'gpgsm', ssh: 'ssh-keygen' } as Record<string, string>)[sub.toLowerCase()] ?? '';
    if (section === 'gpg' && sub.toLowerCase() === 'ssh' && name === 'defaultkeycommand') return '';
    return undefined;
  }
  const whole = `${section}.${name}`;
  // commit.gpgSign names no command itself, but set by the repository it makes our commits run gpg.program.
  return ({ 'core.sshcommand': 'ssh', 'core.askpass': '', 'credential.helper': '', 'gpg.program': 'gpg', 'core.alternaterefscommand': '', 'commit.gpgsign': 'false', 'tag.gpgsign': 'false' } as Record<string, string>)[whole];
}

/** Multi-valued keys: an empty value resets the list, then the person's own values are given again. */
const isList = (key: string): boolean => /^credential\..*helper$/i.test(key);

export interface Overrides { config: Array<[string, string]>; env: Record<string, string> }

/**
 * Overrides for every command-bearing key the repository's own scopes define: the person's own
 * value (global, system, or this process's command line) where there is one, else a safe one.
 * `core.gitProxy` is first-match-wins in git, so it is switched off through GIT_PROXY_COMMAND.
 */
export function repoOverrides(entries: readonly ConfigEntry[]): Overrides {
  const config: Array<[string, string]> = [];
  const env: Record<string, string> = {};
  const byKey = new Map<string, ConfigEntry[]>();
  for (const e of entries) byKey.set(e.key, [...(byKey.get(e.key) ?? []), e]);
  const blankedFilters = new Set<string>();
  for (const [key, list] of byKey) {
    if (!list.some((e) => REPO_SCOPES.has(e.scope))) continue;
    if (key.toLowerCase() === 'core.gitproxy') { env.GIT_PROXY_COMMAND = ''; continue; }
    const safe = neutralValue(key);
    if (safe === undefined) continue;
    const own = list.filter((e) => !REPO_SCOPES.has(e.scope)).map((e) => e.value);
    if (isList(key)) config.push([key, ''], ...own.map((v): [string, string] => [key, v]));
    else config.push([key, own.length > 0 ? own[own.length - 1]! : safe]);
    if (own.length === 0 && /^filter\./i.test(key)) blankedFilters.add(key.slice(key.indexOf('.') + 1, key.lastIndexOf('.')));
  }
  // An emptied filter with `required = true` would fail the run; one the person defines stays as it is.
  for (const driver of blankedFilters) {
    const personal = entries.some((e) => !REPO_SCOPES.has(e.scope) && e.key.startsWith(`filter.${driver}.`) && /\.(clean|smudge|process)$/i.test(e.key));
    if (!personal) config.push([`filter.${driver}.required`, 'false']);
  }
  return { config, env };
}
