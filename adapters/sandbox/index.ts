// Running an agent CLI inside the OS sandbox (SANDBOX-n): the whole filesystem as the user
// sees it, except Commandr's data dir (hidden: its keys and credentials), and the repo's git
// hooks/config and approval tokens (read-only), with a private pid namespace so no other
// process's /proc/<pid>/root leads back to the hidden files. Loopback is shared: the agent must
// reach the relay and local servers. Hand-written bubblewrap rather than @anthropic-ai/sandbox-runtime:
// see protocol/spec/sandbox.md for the measurement (loopback unreachable, Node ≥22.12).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sandboxSupport, type SandboxSupport } from './detect';
import { sandboxExecProfile } from './macos';

export { sandboxSupport, type SandboxSupport } from './detect';

export interface SandboxSpec {
  /** Where the agent works (a task's worktree, a commander's directory): writable, even under the data dir. */
  cwd: string;
  /** The repo's main checkout (its `.agents/approvals` becomes read-only). */
  repo?: string;
  /** The git common dir (`git rev-parse --git-common-dir`): its hooks and config become read-only. */
  gitCommonDir?: string;
  /** Commander's data dir: hidden entirely (an empty tmpfs). */
  dataDir: string;
  /** More paths the agent may write, bound back even when under the data dir. */
  writable?: string[];
  /** More paths made read-only inside (skipped when missing). */
  readOnly?: string[];
  /** Paths under the data dir shown read-only (the adapter overrides in <dataDir>/adapters: code, no secrets). */
  shown?: string[];
  /** More paths hidden (e.g. a TLS key outside the data dir): an empty file or directory inside. */
  hidden?: string[];
}

export interface SandboxCommand {
  command: string;
  args: string[];
  /** Set in the agent's environment: COMMANDR_SANDBOX=bwrap|sandbox-exec. */
  env: Record<string, string>;
}

export class SandboxError extends Error {
  readonly code = 'E_SANDBOX';
}

/** Real path of an existing path, else the resolved path (a bind of a missing path fails loudly in bwrap). */
function real(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

const within = (child: string, parent: string): boolean => child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

/** The paths that must not change under the agent; created first so each bind has a target. */
export function protectedPaths(spec: SandboxSpec): string[] {
  const out: string[] = [];
  if (spec.gitCommonDir) {
    const git = real(spec.gitCommonDir);
    fs.mkdirSync(path.join(git, 'hooks'), { recursive: true });
    out.push(path.join(git, 'hooks'));
    for (const name of ['config', 'config.worktree']) {
      const file = path.join(git, name);
      if (name === 'config') fs.closeSync(fs.openSync(file, 'a'));
      if (fs.existsSync(file)) out.push(file);
    }
    // The worktree's own git dir (<common>/worktrees/<name>): its config.worktree, if any.
    const own = worktreeGitDir(spec.cwd);
    if (own) for (const name of ['config', 'config.worktree']) if (fs.existsSync(path.join(own, name))) out.push(path.join(own, name));
  }
  if (spec.repo) {
    const approvals = path.join(real(spec.repo), '.agents', 'approvals');
    if (fs.existsSync(path.join(real(spec.repo), '.agents'))) {
      fs.mkdirSync(approvals, { recursive: true });
      out.push(approvals);
    }
  }
  for (const p of spec.readOnly ?? []) if (fs.existsSync(p)) out.push(real(p));
  return out;
}

/** `<cwd>/.git` as a file (`gitdir: …`) names the worktree's own git dir. */
function worktreeGitDir(cwd: string): string | undefined {
  try {
    const text = fs.readFileSync(path.join(cwd, '.git'), 'utf8');
    const m = /^gitdir:\s*(.+)$/m.exec(text);
    return m ? real(path.resolve(cwd, m[1]!.trim())) : undefined;
  } catch {
    return undefined;
  }
}

/** The argv that runs `command args` inside the sandbox; throws SandboxError when none is possible. */
export function sandboxArgv(spec: SandboxSpec, command: string, args: string[] = [], support: SandboxSupport = sandboxSupport()): SandboxCommand {
  if (!support.ok) throw new SandboxError(`no sandbox: ${support.reason} (fix: ${support.fix})`);
  const env = { COMMANDR_SANDBOX: support.kind };
  // bwrap would make a missing mount point itself, world-readable: the data dir is made private first.
  fs.mkdirSync(spec.dataDir, { recursive: true, mode: 0o700 });
  const dataDir = real(spec.dataDir);
  const cwd = real(spec.cwd);
  const writable = [cwd, ...(spec.writable ?? []).map(real)];
  if (spec.repo) writable.push(real(spec.repo));
  if (spec.gitCommonDir) writable.push(real(spec.gitCommonDir));
  const readOnly = protectedPaths(spec);
  const hidden = (spec.hidden ?? []).filter((p) => fs.existsSync(p)).map(real);
  if (support.kind === 'sandbox-exec') {
    const profile = sandboxExecProfile({ dataDir, writable, readOnly, hidden });
    return { command: support.detail, args: ['-p', profile, command, ...args], env };
  }
  // --dev-bind keeps the user's /dev as it is (no new devtmpfs to build: half the start cost).
  const a = ['--die-with-parent', '--new-session', '--unshare-pid', '--dev-bind', '/', '/', '--proc', '/proc'];
  a.push('--tmpfs', dataDir);
  // Bound back: only what the agent works in, and only when the data dir hid it.
  for (const s of (spec.shown ?? []).filter((p) => fs.existsSync(p)).map(real)) a.push('--ro-bind', s, s);
  for (const w of writable) if (within(w, dataDir) && fs.existsSync(w)) a.push('--bind', w, w);
  for (const h of hidden) a.push(...(fs.statSync(h).isDirectory() ? ['--tmpfs', h] : ['--ro-bind', '/dev/null', h]));
  for (const r of readOnly) if (!within(r, dataDir) || writable.some((w) => within(r, w))) a.push('--ro-bind', r, r);
  a.push('--chdir', cwd, '--setenv', 'COMMANDR_SANDBOX', support.kind, '--', command, ...args);
  return { command: support.detail, args: a, env };
}

/** One line for a person: what the sandbox hides and keeps read-only. */
export function sandboxSummary(spec: SandboxSpec, support: SandboxSupport = sandboxSupport()): string {
  if (!support.ok) return `no sandbox: ${support.reason}; fix: ${support.fix}`;
  const ro = ['.git/hooks', '.git/config', '.agents/approvals'].join(', ');
  const extra = (spec.hidden ?? []).length > 0 ? ` and ${(spec.hidden ?? []).join(', ')}` : '';
  return `sandbox (${support.kind}): ${real(spec.dataDir)}${extra} hidden; ${ro} read-only; other processes invisible; loopback shared`;
}

/** The git common dir of a checkout without running git: `<repo>/.git`, or what a `.git` file's gitdir's `commondir` names. */
export function gitCommonDirOf(repo: string): string | undefined {
  const dotGit = path.join(repo, '.git');
  try {
    if (fs.statSync(dotGit).isDirectory()) return dotGit;
    const own = worktreeGitDir(repo);
    if (!own) return undefined;
    try {
      return path.resolve(own, fs.readFileSync(path.join(own, 'commondir'), 'utf8').trim());
    } catch {
      return own;
    }
  } catch {
    return undefined;
  }
}
