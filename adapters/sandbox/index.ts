// Running an agent CLI inside the OS sandbox (SANDBOX-n): the whole filesystem as the user
// sees it but READ-ONLY (SANDBOX-10), except the workspace (worktree, repo, git common dir),
// /tmp and the agent CLIs' own state dirs (AGENT_STATE below); Commandr's data dir hidden
// (its keys and credentials), the repo's git hooks/config and approval tokens read-only, and a
// private pid namespace so no other process's /proc/<pid>/root leads back to the hidden files. Loopback is shared: the agent must
// reach the relay and local servers. Hand-written bubblewrap rather than @anthropic-ai/sandbox-runtime:
// see protocol/spec/sandbox.md for the measurement (loopback unreachable, Node ≥22.12).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sandboxSupport, type SandboxSupport } from './detect';
import { sandboxExecProfile } from './macos';
import { readPlainText } from '../../bus/plain-file';

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
  /** The agent's HOME (its env's HOME; default this process's): only AGENT_STATE under it is writable. */
  home?: string;
  /** More paths the agent may write (everything else but the workspace, /tmp and AGENT_STATE is read-only). */
  writable?: string[];
  /** More paths made read-only inside (skipped when missing). */
  readOnly?: string[];
  /** Paths under the data dir shown read-only (the adapter overrides in <dataDir>/adapters: code, no secrets). */
  shown?: string[];
  /** More paths hidden (e.g. a TLS key outside the data dir): an empty file or directory inside. */
  hidden?: string[];
  /**
   * bwrap's `--new-session` (default true): the sandbox gets a session of its own, so a CLI run in
   * the person's terminal (`commandr sandbox`) cannot push keystrokes into it (TIOCSTI). The relay
   * passes false: it spawns jobs detached, already in a session of their own with no terminal, and
   * a second session would take the namespace's init out of the job's process group, out of reach
   * of a stop (KILL-1, KILL-2).
   */
  newSession?: boolean;
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

/**
 * SANDBOX-10/11: the only places under HOME an agent may write: what the agent CLIs must write to
 * run (found by running the real CLIs in the sandbox). Everything else in HOME (~/.gitconfig,
 * ~/.config/git, ~/.bashrc, ~/.profile, ~/.ssh, ~/.config/systemd, …) is read-only: the relay's
 * git runner honours the person's global filter/credential/textconv commands, and the person's
 * next shell or unsandboxed CLI runs what those files say. Each dir is created before binding.
 */
export const AGENT_STATE: ReadonlyArray<{ path: string; why: string }> = [
  { path: '.claude', why: 'Claude Code: transcripts (projects/, needed to resume), todos, shell snapshots, session env' },
  { path: '.local/share/opencode', why: 'OpenCode: its session database and logs' },
  { path: '.local/state/opencode', why: 'OpenCode: prompt history, model choice' },
  { path: '.cache/opencode', why: 'OpenCode: provider package cache' },
  { path: '.npm', why: 'npm cache: npx and npm test write it' },
  { path: '.fake-adapter', why: 'the stand-in agent CLI the tests drive (test/stand-ins/fake-adapter): its sessions; nothing runs from it' },
];

/**
 * SANDBOX-11: kept read-only INSIDE a writable state dir: what another, unsandboxed run executes or
 * obeys (Claude Code's user settings carry hooks; plugins, commands, agents and skills carry
 * hooks or instructions). Created first (a file as `{}`, a dir empty) so each bind has a target;
 * one outside any writable dir (SANDBOX-16) is read-only with the rest of HOME and only created.
 */
export const AGENT_STATE_READ_ONLY: ReadonlyArray<{ path: string; kind: 'file' | 'dir' }> = [
  { path: '.claude/settings.json', kind: 'file' },
  { path: '.claude/settings.local.json', kind: 'file' },
  { path: '.claude/plugins', kind: 'dir' },
  { path: '.claude/commands', kind: 'dir' },
  { path: '.claude/agents', kind: 'dir' },
  { path: '.claude/skills', kind: 'dir' },
  { path: '.claude/hooks', kind: 'dir' },
  // SANDBOX-16: OpenCode's global config (its plugins run in every later session) stays read-only,
  // but must exist: OpenCode makes it at start, and a mkdir on the read-only HOME fails the job.
  { path: '.config/opencode', kind: 'dir' },
];

/**
 * SANDBOX-16: what OpenCode writes into its global config dir at every start when it is missing
 * (its own `.gitignore`, byte for byte as OpenCode 1.x writes it). Written first when missing, so
 * OpenCode in the sandbox finds it and writes nothing into the read-only dir.
 */
export const OPENCODE_CONFIG_SEED = { path: '.config/opencode/.gitignore', content: 'node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore' } as const;

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
    const text = readPlainText(path.join(cwd, '.git'), 64 * 1024) ?? ''; // a FIFO there never blocks the relay (GITREAD-1)
    const m = /^gitdir:\s*(.+)$/m.exec(text);
    return m ? real(path.resolve(cwd, m[1]!.trim())) : undefined;
  } catch {
    return undefined;
  }
}

/** A directory that is no link (a bind would follow one, and make its target writable). */
function isRealDir(p: string): boolean {
  return fs.lstatSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * SANDBOX-17: the directories between each read-only path and the writable one it lies in
 * (`<repo>/.agents` for `.agents/approvals`). A mount moves with a renamed parent, so an agent
 * could `mv .agents .agents-x` and make a new, writable `.agents/approvals`; each of these is
 * bound on itself, and a mount point can be neither renamed nor removed. Never one inside the data
 * dir (a bind takes the host's view and would show what the data dir hides), nor a symbolic link
 * (a tracked `.agents` link: the bind would make its target writable).
 */
function pinned(readOnly: string[], writable: string[], dataDir: string): string[] {
  const out: string[] = [];
  for (const r of readOnly) {
    const outer = writable.filter((w) => w !== r && within(r, w)).sort((x, y) => y.length - x.length)[0];
    if (outer === undefined) continue;
    for (let d = path.dirname(r); d !== outer && within(d, outer); d = path.dirname(d)) if (!within(d, dataDir) && isRealDir(d)) out.push(d);
  }
  return out;
}

/** The argv that runs `command args` inside the sandbox; throws SandboxError when none is possible. */
export function sandboxArgv(spec: SandboxSpec, command: string, args: string[] = [], support: SandboxSupport = sandboxSupport()): SandboxCommand {
  if (!support.ok) throw new SandboxError(`no sandbox: ${support.reason} (fix: ${support.fix})`);
  const env = { COMMANDR_SANDBOX: support.kind };
  // bwrap would make a missing mount point itself, world-readable: the data dir is made private first.
  fs.mkdirSync(spec.dataDir, { recursive: true, mode: 0o700 });
  const dataDir = real(spec.dataDir);
  const cwd = real(spec.cwd);
  const home = spec.home?.trim() || process.env.HOME?.trim() || os.homedir();
  const state = agentState(home, dataDir);
  const writable = [cwd, ...(spec.writable ?? []).map(real), ...state.writable];
  if (spec.repo) writable.push(real(spec.repo));
  if (spec.gitCommonDir) writable.push(real(spec.gitCommonDir));
  const readOnly = [...protectedPaths(spec), ...state.readOnly];
  const hidden = (spec.hidden ?? []).filter((p) => fs.existsSync(p)).map(real);
  if (support.kind === 'sandbox-exec') {
    const shown = [...(spec.shown ?? []), ...['policy.yaml', 'checks'].map((f) => path.join(dataDir, f))].filter((p) => fs.existsSync(p)).map(real);
    const profile = sandboxExecProfile({ dataDir, writable, readOnly, hidden, shown });
    return { command: support.detail, args: ['-p', profile, command, ...args], env };
  }
  // SANDBOX-10: the root read-only; the user's /dev bound as it is (no new devtmpfs to build: half
  // the start cost); /tmp shared and writable, as in the Codex CLI's workspace-write (tests, tools
  // and stand-ins pass files through it; a private tmpfs broke resuming), then the data dir hidden.
  const a = ['--die-with-parent', ...(spec.newSession === false ? [] : ['--new-session']), '--unshare-pid', '--ro-bind', '/', '/', '--dev-bind', '/dev', '/dev', '--proc', '/proc', '--bind', '/tmp', '/tmp'];
  // A HOME under /tmp (tests) is read-only like any other, but for AGENT_STATE bound back below.
  const realHome = fs.existsSync(home) ? real(home) : undefined;
  if (realHome && within(realHome, '/tmp')) a.push('--ro-bind', realHome, realHome);
  // Writable, outer paths first so a nested one is bound on top of its parent. Never the data dir itself.
  const binds = [...new Set([...writable, ...pinned(readOnly, writable, dataDir)])].filter((p) => p !== dataDir && fs.existsSync(p)).sort((x, y) => x.length - y.length);
  for (const w of binds) a.push('--bind', w, w);
  // SANDBOX-13: the data dir is hidden after every bind above, so a workspace, repo or HOME that
  // contains it (a dotfiles repo at ~, a HOME under /tmp) cannot show it again; only what lies
  // inside it and must be seen (a task's worktree, the adapter overrides) is bound back on top.
  a.push('--tmpfs', dataDir);
  // The person's own rules hold inside too (SANDBOX-14): their policy and checks files, which hold no secret.
  const personal = ['policy.yaml', 'checks'].map((f) => path.join(dataDir, f));
  for (const s of [...(spec.shown ?? []), ...personal].filter((p) => fs.existsSync(p)).map(real)) if (within(s, dataDir)) a.push('--ro-bind', s, s);
  for (const w of binds) if (within(w, dataDir)) a.push('--bind', w, w);
  for (const h of hidden) a.push(...(fs.statSync(h).isDirectory() ? ['--tmpfs', h] : ['--ro-bind', '/dev/null', h]));
  // Read-only on top of what was bound writable (elsewhere the root is read-only already, or hidden).
  for (const r of readOnly) if (writable.some((w) => within(r, w))) a.push('--ro-bind', r, r);
  a.push('--chdir', cwd, '--setenv', 'COMMANDR_SANDBOX', support.kind, '--', command, ...args);
  return { command: support.detail, args: a, env };
}

/** AGENT_STATE under `home`, created (private) if missing, and what inside it stays read-only. */
function agentState(home: string, dataDir: string): { writable: string[]; readOnly: string[] } {
  const writable: string[] = [];
  const readOnly: string[] = [];
  if (!path.isAbsolute(home) || !fs.existsSync(home)) return { writable, readOnly };
  for (const s of AGENT_STATE) {
    const dir = path.join(home, s.path);
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      continue; // a state dir that cannot exist stays read-only; the CLI says what failed
    }
    const r = real(dir);
    if (!within(r, dataDir)) writable.push(r);
  }
  for (const p of AGENT_STATE_READ_ONLY) {
    const target = path.join(home, p.path);
    try {
      if (p.kind === 'dir') fs.mkdirSync(target, { recursive: true, mode: 0o700 });
      else if (!fs.existsSync(target)) fs.writeFileSync(target, '{}\n', { mode: 0o600, flag: 'wx' });
      readOnly.push(real(target));
    } catch {
      /* its parent is not writable here either */
    }
  }
  try {
    fs.writeFileSync(path.join(home, OPENCODE_CONFIG_SEED.path), OPENCODE_CONFIG_SEED.content, { mode: 0o644, flag: 'wx' });
  } catch {
    /* there already (OpenCode ran here before), or its dir could not be made */
  }
  return { writable, readOnly };
}

/** One line for a person: what the sandbox hides and keeps read-only. */
export function sandboxSummary(spec: SandboxSpec, support: SandboxSupport = sandboxSupport()): string {
  if (!support.ok) return `no sandbox: ${support.reason}; fix: ${support.fix}`;
  const ro = ['.git/hooks', '.git/config', '.agents/approvals'].join(', ');
  const extra = (spec.hidden ?? []).length > 0 ? ` and ${(spec.hidden ?? []).join(', ')}` : '';
  return `sandbox (${support.kind}): ${real(spec.dataDir)}${extra} hidden; ${ro} read-only; writable only the workspace, /tmp and the agents' state dirs; other processes invisible; loopback shared`;
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
