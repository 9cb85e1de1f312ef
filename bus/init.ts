// `commandr init` (INIT-n): makes a repo bus-ready — bus dirs with .gitkeep, the
// .gitignore lines, the pre-commit hook running this install's gate, the registry entry.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitSync } from './git/run';
import { BusError, ioError } from './errors';
import { GITIGNORE_LINES, REQUIRED_DIRS } from './layout';
import { locateGit } from './locate';
import { trustEnv } from './gate';

export const HOOK_MARKER = '# commandr pre-commit gate';

export interface InitOptions {
  /** Absolute path of the `pre-commit-gate` executable the hook runs. */
  gateBin: string;
  /** Absolute path of the `commandr` executable the pre-push hook runs (`verify --pre-push`); no pre-push hook without it. */
  commandrBin?: string;
  /** The repo registry file the index fold reads (`~/.agents/repos`). */
  registryFile: string;
  /**
   * The relay's public key (`<dataDir>/approval/public.pem`): recorded as the repo's
   * `commandr.approvalKey` when it exists and none is set, so the gate's trust no longer
   * follows `$COMMANDR_HOME`/`$HOME` at commit time (APPROVAL-6, INIT-4).
   */
  approvalKeyFile?: string;
}

export interface InitReport {
  root: string;
  bus: string;
  hook: string;
  /** What this run changed; empty when everything was already in place. */
  changed: string[];
}

export function initRepo(repo: string, options: InitOptions): InitReport {
  const place = locateGit(repo);
  const root = path.dirname(place.bus);
  const dir = hooksDir(place.worktree);
  const hook = path.join(dir, 'pre-commit');
  const hooks = approvalHooks(options).map(([name, text]) => [path.join(dir, name), text] as const);
  for (const [file] of hooks) assertHookIsOurs(file);
  assertNotSymlink(path.join(root, '.gitignore'));
  const changed: string[] = [];
  for (const dir of REQUIRED_DIRS) ensureDir(path.join(place.bus, dir), changed);
  ensureGitignore(path.join(root, '.gitignore'), changed);
  for (const [file, text] of hooks) writeIfDifferent(file, text, 0o755, changed);
  registerRepo(options.registryFile, root, changed);
  if (options.approvalKeyFile) recordApprovalKey(place.worktree, path.resolve(options.approvalKeyFile), changed);
  return { root, bus: place.bus, hook, changed };
}

/** INIT-4: pins the gate's trusted key in the repo's own config (never replaces one a person set). */
export function recordApprovalKey(worktree: string, keyFile: string, changed: string[] = []): void {
  if (!fs.existsSync(keyFile)) return;
  const env = trustEnv(process.env);
  try {
    gitSync(['config', '--local', '--get', 'commandr.approvalKey'], { cwd: worktree, env });
    return;
  } catch {
    // unset: record it
  }
  gitSync(['config', '--local', 'commandr.approvalKey', keyFile], { cwd: worktree, env });
  changed.push(`git config commandr.approvalKey ${keyFile}`);
}

/** The hooks the approval path needs in every bus repo (INIT-2, APPROVAL-11); pre-push aside. */
export const APPROVAL_HOOK_NAMES = ['pre-commit', 'commit-msg', 'post-commit', 'pre-merge-commit', 'post-merge'] as const;

/** Those of APPROVAL_HOOK_NAMES missing from the repo's hooks dir or not commandr's (an older install lacks the merge pair). */
export function missingApprovalHooks(repo: string): string[] {
  const dir = hooksDir(locateGit(repo).worktree);
  return APPROVAL_HOOK_NAMES.filter((name) => {
    try {
      return !fs.readFileSync(path.join(dir, name), 'utf8').includes(HOOK_MARKER);
    } catch {
      return true;
    }
  });
}

/** Where git looks for hooks: honours core.hooksPath and shares the common dir with worktrees. */
function hooksDir(worktree: string): string {
  const out = gitSync(['rev-parse', '--git-path', 'hooks'], { cwd: worktree, env: process.env }).toString('utf8');
  return path.resolve(worktree, out.trim());
}

export function hookScript(gateBin: string, args = '"$@"', why = 'blocks agent commits that lack an approval'): string {
  const quoted = `'${gateBin.replace(/'/g, `'\\''`)}'`;
  return `#!/bin/sh\n${HOOK_MARKER}: installed by \`commandr init\`; ${why}.\nexec ${quoted} ${args}\n`;
}

/** The hooks of the approval path (INIT-2, APPROVAL-7, APPROVAL-8, VERIFY-3): name and script. */
function approvalHooks(options: InitOptions): [string, string][] {
  return [
    ['pre-commit', hookScript(options.gateBin)],
    ['commit-msg', hookScript(options.gateBin, 'commit-msg "$@"', 'records the approval a commit used as a Commandr-Approval trailer')],
    ['post-commit', hookScript(options.gateBin, 'post-commit', 'spends the approval token the commit used and reports the commit')],
    // A merge that commits by itself runs neither pre-commit nor post-commit: these two are its pair (APPROVAL-11).
    ['pre-merge-commit', hookScript(options.gateBin, '"$@"', 'blocks agent merge commits that lack an approval')],
    ['post-merge', hookScript(options.gateBin, 'post-merge "$@"', 'spends the approval token a merge commit used and reports the commit')],
    ...(options.commandrBin ? [['pre-push', hookScript(options.commandrBin, 'verify --pre-push "$@"', 'refuses to push agent commits without a valid approval')] as [string, string]] : []),
  ];
}

/** Never clobber a hook someone else wrote; ours (with the marker) is refreshed. */
function assertHookIsOurs(hook: string): void {
  let text: string;
  try {
    text = fs.readFileSync(hook, 'utf8');
  } catch {
    return;
  }
  if (!text.includes(HOOK_MARKER)) {
    throw new BusError('E_HOOK_EXISTS', `${hook} already exists and is not commandr's; add a line running pre-commit-gate to it yourself`);
  }
}

function ensureDir(dir: string, changed: string[]): void {
  try {
    if (!fs.existsSync(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      changed.push(dir);
    }
    const keep = path.join(dir, '.gitkeep');
    if (!fs.existsSync(keep)) fs.writeFileSync(keep, '');
  } catch (error) {
    throw ioError('create', dir, error);
  }
}

/**
 * The files `commandr wire` writes for this machine only (they name this install's absolute
 * paths): never committed (WIREPATH-1).
 */
export const LOCAL_WIRE_LINES = ['/.claude/settings.local.json', '/.opencode/plugin/commandr.js'] as const;

/** A cloned repo can track `.gitignore -> ~/.bashrc` (git does not read it): never append through it. */
function assertNotSymlink(file: string): void {
  let link = false;
  try {
    link = fs.lstatSync(file).isSymbolicLink();
  } catch {
    return;
  }
  if (link) throw new BusError('E_IO', `${file} is a symlink; git does not read it and init will not write through it: replace it with a regular file and run init again`);
}

function ensureGitignore(file: string, changed: string[]): void {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const present = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = [...GITIGNORE_LINES, ...LOCAL_WIRE_LINES].filter((line) => !present.has(line));
  if (missing.length === 0) return;
  const prefix = text.length > 0 && !text.endsWith('\n') ? '\n' : '';
  fs.appendFileSync(file, prefix + missing.join('\n') + '\n');
  changed.push(file);
}

function writeIfDifferent(file: string, text: string, mode: number, changed: string[]): void {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  if (current === text) {
    fs.chmodSync(file, mode);
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode });
  fs.chmodSync(file, mode);
  changed.push(file);
}

/** Adds the repo's main checkout to the registry (one path a line) unless listed. */
export function registerRepo(registryFile: string, root: string, changed: string[] = []): void {
  const text = fs.existsSync(registryFile) ? fs.readFileSync(registryFile, 'utf8') : '';
  const listed = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  if (listed.some((entry) => path.resolve(entry) === root)) return;
  fs.mkdirSync(path.dirname(registryFile), { recursive: true });
  const prefix = text.length > 0 && !text.endsWith('\n') ? '\n' : '';
  fs.appendFileSync(registryFile, `${prefix}${root}\n`);
  changed.push(registryFile);
}

/** The registry's repo paths: one a line, blank and `#` lines skipped. */
export function readRegistry(registryFile: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(registryFile, 'utf8');
  } catch {
    return [];
  }
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0 && !l.startsWith('#'));
}

/** CLIUX-4: what to do after `commandr init`, printed by the CLI (`wired`: hooks already installed). */
export function nextSteps(report: InitReport, wired: boolean): string[] {
  // What the team shares: the agents' MCP server and the project setting that enables it (never settings.local.json).
  const shared = ['.mcp.json', path.join('.claude', 'settings.json')].filter((f) => fs.existsSync(path.join(report.root, f)));
  return [
    'next steps:',
    `  1. commit the bus skeleton: git add ${['.gitignore', '.agents', ...shared].join(' ')} && git commit -m "commandr bus"`,
    `  2. add a task: commandr task new T-1 --scope 'src/**' --title 'What to do' --criterion 'How to tell it is done'`,
    ...(wired ? [] : [`  3. report this repo's agent sessions to commandr: commandr wire ${report.root}`]),
    `  ${wired ? 3 : 4}. run the relay and pair your phone: commandr serve (see docs/reaching.md)`,
  ];
}
