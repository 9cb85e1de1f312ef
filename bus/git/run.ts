// The one place in the product that spawns git (GITRUN-1). Every run is hardened against the
// commands a repository can name (./hardening.ts): fixed settings, flags where git has them, and,
// for the subcommands that can reach a named driver, an override for each one the repository's
// own config defines. Sync, buffered and streaming forms; failures are one typed GitError.
import { execFile, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BusError } from '../errors';
import { ConfigCache, cacheKey, parsePlace, watchedFiles } from './config-cache';
import { FIXED_CONFIG, parseConfigList, repoOverrides, runEnv, type ConfigEntry, type Overrides } from './hardening';

export interface GitRunOptions {
  /** Where git runs. */
  cwd: string;
  /** The environment to start from, used whole (location variables too: the caller chose them). Default: this process's without them. */
  env?: NodeJS.ProcessEnv;
  /** The work tree's top: discovery stops above it (GIT_CEILING_DIRECTORIES). */
  top?: string;
  input?: Buffer | string;
  /** stdout limit in bytes of the buffered forms (default 64 MiB); larger output is an error. */
  maxBytes?: number;
  timeoutMs?: number;
}

export interface GitResult { code: number; stdout: Buffer; stderr: string }

export const GIT_OUTPUT_LIMIT = 64 << 20;

/** A git run that failed: names the command, where it ran, and git's own words. */
export class GitError extends BusError {
  readonly args: readonly string[];
  readonly exitCode: number | null;
  readonly stderr: string;
  constructor(args: readonly string[], cwd: string, exitCode: number | null, stderr: string, cause?: unknown) {
    super('E_GIT', `git ${args.join(' ')} failed in ${cwd}: ${stderr.trim() || (exitCode === null ? 'could not run' : `exit ${exitCode}`)}`, { cause });
    this.name = 'GitError';
    this.args = args;
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

/**
 * Subcommands the product runs. Anything else is refused: porcelains that start editors,
 * pagers, mail or merge tools (difftool, send-email, mergetool, instaweb) never run here.
 */
const SUBCOMMANDS = new Set([
  'add', 'cat-file', 'check-ignore', 'commit', 'commit-tree', 'config', 'diff', 'fetch', 'for-each-ref', 'hash-object',
  'init', 'log', 'ls-files', 'ls-remote', 'ls-tree', 'merge-base', 'merge-tree', 'mktree', 'push', 'read-tree', 'rev-list', 'rev-parse',
  'show', 'show-ref', 'status', 'symbolic-ref', 'update-index', 'update-ref', 'version', 'worktree', 'write-tree',
]);

/**
 * Read no work-tree file, nor credentials, nor signatures: the fixed hardening is enough. Not
 * `write-tree`: any command that writes the index re-reads a racily clean file through its clean filter.
 */
const CONFIG_FREE = new Set(['check-ignore', 'config', 'for-each-ref', 'init', 'log', 'ls-tree', 'merge-base', 'mktree', 'rev-list', 'rev-parse', 'show', 'show-ref', 'symbolic-ref', 'update-ref', 'version']);

/** Flags that turn a driver on, refused outright. */
const FORBIDDEN = new Set(['--textconv', '--ext-diff', '--filters']);

/** Global options that take the next word as their value. */
const GLOBAL_WITH_VALUE = new Set(['-c', '-C', '--config-env']);

interface Plan { args: string[]; sub: string; needsConfig: boolean }

/**
 * The fixed settings a subcommand gets. `git config` reads and writes files only, and must report
 * the repository's own values (`--list` would show ours); `rev-parse` runs no hook, and its
 * `--git-path hooks` must name where the repository's hooks really are (init installs them there).
 */
function fixedFor(sub: string): ReadonlyArray<readonly [string, string]> {
  if (sub === 'config') return [];
  if (sub === 'rev-parse') return FIXED_CONFIG.filter(([k]) => k !== 'core.hooksPath');
  return FIXED_CONFIG;
}

/** Where the subcommand is, what to add after it, and whether the repository's config must be read first. */
export function plan(args: readonly string[]): Plan {
  let at = 0;
  while (at < args.length && args[at]!.startsWith('-')) {
    if (args[at] === '--version') return { args: [...args], sub: 'version', needsConfig: false };
    at += GLOBAL_WITH_VALUE.has(args[at]!) ? 2 : 1;
  }
  const sub = args[at];
  if (sub === undefined || !SUBCOMMANDS.has(sub)) throw new TypeError(`git ${sub ?? '(no subcommand)'} is not run by Commandr's git runner (bus/git/run.ts)`);
  const rest = args.slice(at + 1);
  const bad = rest.find((a) => FORBIDDEN.has(a));
  if (bad) throw new TypeError(`git ${sub} ${bad}: a flag that runs the repository's drivers is not allowed`);
  const extra: string[] = [];
  if (sub === 'diff' || sub === 'log' || sub === 'show') extra.push('--no-ext-diff', '--no-textconv');
  // remote.<name>.uploadpack / receivepack: git keeps the first value it reads, so `-c` cannot win; the flag does.
  if (sub === 'fetch' || sub === 'ls-remote') extra.push('--upload-pack=git-upload-pack');
  if (sub === 'push') extra.push('--receive-pack=git-receive-pack');
  const cached = rest.includes('--cached') || rest.includes('--staged');
  const needsConfig = !(CONFIG_FREE.has(sub)
    || (sub === 'diff' && cached)
    || (sub === 'cat-file')
    || (sub === 'ls-files' && !rest.some((a) => a === '-m' || a === '--modified')));
  // The fixed settings as `-c` (names without `=`, and visible in a process listing); the named drivers go in the environment.
  const fixed = fixedFor(sub).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  return { args: [...fixed, ...args.slice(0, at + 1), ...extra, ...rest], sub, needsConfig };
}

const LIST_ARGS = ['config', '--list', '-z', '--show-scope', '--show-origin'];
/** Where the repository is (config-cache.ts parsePlace), with the fixed settings like every run. */
const PLACE_ARGS = [...FIXED_CONFIG.flatMap(([k, v]) => ['-c', `${k}=${v}`]), 'rev-parse', '--absolute-git-dir', '--git-common-dir', '--show-cdup'];

/** Overrides per repository and environment, kept while no config file they came from changed (GITRUN-5). */
export const overridesCache = new ConfigCache<Overrides>();

/** Keeps a read's overrides if its files allow (see ConfigCache.set); a repository git cannot place is never kept. */
function remember(opts: GitRunOptions, key: string, startedMs: number, entries: ConfigEntry[], overrides: Overrides, place: string | undefined): void {
  if (place === undefined) return;
  const env = opts.env ?? process.env;
  overridesCache.set(key, watchedFiles(opts.cwd, parsePlace(opts.cwd, place), entries as (ConfigEntry & { origin: string })[], env), startedMs, overrides);
}

/** Files an entry came from already too young to keep: skip finding the repository's place. */
const keepable = (entries: readonly ConfigEntry[], startedMs: number): boolean =>
  ConfigCache.cacheable(entries.filter((e) => e.origin?.startsWith('file:') && e.origin.slice(5).startsWith('/')).map((e) => e.origin!.slice(5)), startedMs);

/**
 * Reading config runs no command: no fsmonitor, no hook, no driver. A config git cannot read fails
 * the run here (closed), before the command that would have read it.
 */
function overridesSync(opts: GitRunOptions): Overrides {
  const key = cacheKey(opts.cwd, opts.top, opts.env ?? process.env);
  const cached = overridesCache.get(key);
  if (cached) return cached;
  const startedMs = Date.now();
  const env = runEnv(opts.env, opts.top, []);
  const r = spawnSync('git', LIST_ARGS, { cwd: opts.cwd, env, maxBuffer: GIT_OUTPUT_LIMIT, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error || r.status !== 0) throw new GitError(LIST_ARGS, opts.cwd, r.status, r.stderr?.toString('utf8') ?? '', r.error);
  const entries = parseConfigList(r.stdout, true);
  const overrides = repoOverrides(entries);
  if (keepable(entries, startedMs)) {
    const p = spawnSync('git', PLACE_ARGS, { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'ignore'] });
    remember(opts, key, startedMs, entries, overrides, p.status === 0 ? p.stdout.toString('utf8') : undefined);
  }
  return overrides;
}

function run(args: string[], opts: GitRunOptions, env: NodeJS.ProcessEnv): Promise<{ error: Error | null; stdout: Buffer; stderr: Buffer }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd: opts.cwd, env, maxBuffer: GIT_OUTPUT_LIMIT, encoding: 'buffer' }, (error, stdout, stderr) => resolve({ error, stdout, stderr }));
  });
}

async function overridesAsync(opts: GitRunOptions): Promise<Overrides> {
  const key = cacheKey(opts.cwd, opts.top, opts.env ?? process.env);
  const cached = overridesCache.get(key);
  if (cached) return cached;
  const startedMs = Date.now();
  const env = runEnv(opts.env, opts.top, []);
  const r = await run(LIST_ARGS, opts, env);
  if (r.error) {
    const code = (r.error as { code?: unknown }).code;
    throw new GitError(LIST_ARGS, opts.cwd, typeof code === 'number' ? code : null, r.stderr.toString('utf8'), r.error);
  }
  const entries = parseConfigList(r.stdout, true);
  const overrides = repoOverrides(entries);
  if (keepable(entries, startedMs)) {
    const p = await run(PLACE_ARGS, opts, env);
    remember(opts, key, startedMs, entries, overrides, p.error ? undefined : p.stdout.toString('utf8'));
  }
  return overrides;
}

const NONE: Overrides = { config: [], env: {} };

function envFor(opts: GitRunOptions, o: Overrides): NodeJS.ProcessEnv {
  const env = runEnv(opts.env, opts.top, o.config);
  for (const [k, v] of Object.entries(o.env)) if (opts.env?.[k] === undefined) env[k] = v;
  return env;
}

/** Runs git and returns its stdout; throws GitError on a non-zero exit. */
export function gitSync(args: readonly string[], opts: GitRunOptions): Buffer {
  const r = gitResultSync(args, opts);
  if (r.code !== 0) throw new GitError(args, opts.cwd, r.code, r.stderr);
  return r.stdout;
}

/** Runs git and returns exit code, stdout and stderr; throws GitError only if git could not run or overran. */
export function gitResultSync(args: readonly string[], opts: GitRunOptions): GitResult {
  const p = plan(args);
  refuseUnqueuedWorktree(args, p);
  const env = envFor(opts, p.needsConfig ? overridesSync(opts) : NONE);
  const r = spawnSync('git', p.args, { cwd: opts.cwd, env, input: opts.input, maxBuffer: opts.maxBytes ?? GIT_OUTPUT_LIMIT, timeout: opts.timeoutMs, stdio: ['pipe', 'pipe', 'pipe'] });
  if (r.error || r.status === null) throw new GitError(args, opts.cwd, null, r.stderr?.toString('utf8') ?? '', r.error ?? new Error(`killed by ${r.signal}`));
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

/** Runs git and resolves with its stdout; rejects GitError on a non-zero exit. */
export async function git(args: readonly string[], opts: GitRunOptions): Promise<Buffer> {
  const r = await gitResult(args, opts);
  if (r.code !== 0) throw new GitError(args, opts.cwd, r.code, r.stderr);
  return r.stdout;
}

/** Text form of `git`. */
export async function gitText(args: readonly string[], opts: GitRunOptions): Promise<string> {
  return (await git(args, opts)).toString('utf8');
}

/**
 * GITRUN-6: `git worktree add` writes `.git/worktrees/<id>/` one file at a time, and any other
 * `git worktree` run meanwhile (add, list, prune) reads every entry and dies on a half-written
 * one ("failed to read .git/worktrees/<id>/commondir"). So this process runs its `worktree`
 * commands one at a time, in the order they were asked for; every other command runs at once.
 */
let worktreeTail: Promise<unknown> = Promise.resolve();

/** The sync and streaming forms cannot wait their turn, so they run no `worktree` command. */
function refuseUnqueuedWorktree(args: readonly string[], p: Plan): void {
  if (p.sub === 'worktree') throw new TypeError(`git ${args.join(' ')}: worktree commands run only through gitResult, git and gitText, one at a time (GITRUN-6)`);
}

function oneWorktreeRunAtATime<T>(work: () => Promise<T>): Promise<T> {
  const turn = worktreeTail.then(work, work);
  worktreeTail = turn.catch(() => undefined);
  return turn;
}

/** A `git worktree list` or `prune` reads a few small files per worktree: past this it is stuck, not slow (GITREAD-2). */
export const WORKTREE_READ_TIMEOUT_MS = 60_000;

/**
 * GITREAD-2: the file of `<repo>/.git/worktrees/<id>/` that is neither a regular file nor a
 * directory (nor a link to one), if any. A job may write its own worktree's git dir (it commits),
 * and git opens those files to read them: a FIFO there would hold the `git worktree` run that
 * reads it — and, through the queue above, every later one of the relay's, for every repo.
 */
export function unreadableWorktreeEntry(cwd: string): string | undefined {
  const dir = path.join(cwd, '.git', 'worktrees');
  let ids: string[];
  try {
    ids = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const id of ids) {
    let names: string[];
    try {
      names = fs.readdirSync(path.join(dir, id));
    } catch {
      continue;
    }
    for (const name of names) {
      const stat = fs.statSync(path.join(dir, id, name), { throwIfNoEntry: false });
      if (stat && !stat.isFile() && !stat.isDirectory()) return path.join(dir, id, name);
    }
  }
  return undefined;
}

function worktreeRun(args: readonly string[], p: Plan, opts: GitRunOptions, env: NodeJS.ProcessEnv): Promise<GitResult> {
  return oneWorktreeRunAtATime(async () => {
    const bad = unreadableWorktreeEntry(opts.cwd);
    if (bad !== undefined) throw new GitError(args, opts.cwd, null, `${bad} is not a regular file (a FIFO or device left in a worktree's git dir); git would wait on it for good. Remove that worktree's entry: rm -r ${path.dirname(bad)} && git worktree prune`);
    const verb = args[args.indexOf('worktree') + 1];
    const reads = verb === 'list' || verb === 'prune';
    return execGit(args, p, reads && opts.timeoutMs === undefined ? { ...opts, timeoutMs: WORKTREE_READ_TIMEOUT_MS } : opts, env);
  });
}

/** Resolves with exit code, stdout and stderr; rejects GitError only if git could not run or overran. */
export async function gitResult(args: readonly string[], opts: GitRunOptions): Promise<GitResult> {
  const p = plan(args);
  const env = envFor(opts, p.needsConfig ? await overridesAsync(opts) : NONE);
  return p.sub === 'worktree' ? worktreeRun(args, p, opts, env) : execGit(args, p, opts, env);
}

function execGit(args: readonly string[], p: Plan, opts: GitRunOptions, env: NodeJS.ProcessEnv): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', p.args, { cwd: opts.cwd, env, encoding: 'buffer', maxBuffer: opts.maxBytes ?? GIT_OUTPUT_LIMIT, timeout: opts.timeoutMs }, (error, stdout, stderr) => {
      const err = stderr.toString('utf8');
      const code = (error as { code?: unknown } | null)?.code;
      if (error && typeof code !== 'number') reject(new GitError(args, opts.cwd, null, err || error.message, error));
      else resolve({ code: error ? (code as number) : 0, stdout, stderr: err });
    });
    // git may exit without reading stdin; a broken pipe then is not an error of ours.
    child.stdin?.on('error', () => {});
    child.stdin?.end(opts.input);
  });
}

/** Streams git's stdout to `onChunk` (a false return stops git early); rejects GitError on failure. */
export async function gitStream(args: readonly string[], opts: GitRunOptions, onChunk: (chunk: Buffer) => boolean | void): Promise<void> {
  const p = plan(args);
  refuseUnqueuedWorktree(args, p);
  const env = envFor(opts, p.needsConfig ? await overridesAsync(opts) : NONE);
  return new Promise((resolve, reject) => {
    const child = spawn('git', p.args, { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stopped = false;
    child.stderr.on('data', (d: Buffer) => { if (stderr.length < 4096) stderr += d.toString('utf8'); });
    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped) return;
      if (onChunk(chunk) === false) {
        stopped = true;
        child.kill('SIGTERM');
      }
    });
    child.on('error', (error) => reject(new GitError(args, opts.cwd, null, error.message, error)));
    child.on('close', (code) => {
      if (code === 0 || stopped) resolve();
      else reject(new GitError(args, opts.cwd, code, stderr));
    });
  });
}
