// Permission policy (POLICY-n): the policy file's shape and the pure evaluation
// of one tool call → allow | deny | ask, with the rule that decided and why.
// No I/O here: loading and layering the files lives in ./load.ts.
import * as path from 'node:path';
import * as z from 'zod/mini';
import { type Invocation, invocationText, programOf, viewCommand } from './command';
import { hookBypass } from './git-guard';
import { matchesGlob } from './glob';
import { runsOwnCode } from './own-code';
import { type NamedPath, PATH_BUDGET, type Readdir, type Readlink, baseDirs, memoReadlink, namedPaths, resolveNamed, writingOption } from './path-words';
import { type PathContext, expandWord, protectedBy } from './protected';
import type { SandboxState } from './sandboxed';

const names = z.optional(z.array(z.string()));
/** `read_paths`: paths whose reads (and writes) need a person or are denied (GUARD-4). */
const Section = z.optional(z.object({ tools: names, commands: names, paths: names, read_paths: names }));

/** One policy file as written (every key optional; layers add up). */
export const PolicyFile = z.object({
  version: z.optional(z.literal(1)),
  /** Seconds an unanswered request waits before it is denied. */
  timeout: z.optional(z.int().check(z.minimum(1), z.maximum(3600))),
  allow: Section,
  ask: Section,
  deny: Section,
  /** Tools that change files (their path is checked against the scope). */
  edit_tools: names,
  /** Tools that run a shell command (their command is checked against prefixes). */
  shell_tools: names,
});
export type PolicyFile = z.infer<typeof PolicyFile>;

export interface Rules {
  tools: string[];
  commands: string[];
  paths: string[];
  readPaths: string[];
}

export interface Policy {
  timeoutMs: number;
  allow: Rules;
  ask: Rules;
  deny: Rules;
  editTools: string[];
  shellTools: string[];
  /** Which files it was read from, most general first (for `commandr policy check`). */
  sources: string[];
}

export const DEFAULT_TIMEOUT_MS = 120_000;

export type Decision = 'allow' | 'deny' | 'ask';

export interface Verdict {
  decision: Decision;
  /** The rule that decided, e.g. `deny.commands`, `ask.paths`, `scope`. */
  rule: string;
  /** One sentence a person (or the agent) can read. */
  why: string;
  /** The part of a shell command that decided, when it was not the whole line. */
  part?: string;
  /** The word (or path) that decided, when one did (POLPATH-6). */
  word?: string;
}

export interface ToolRequest {
  tool: string;
  input: Record<string, unknown>;
  cwd: string;
  /** The repo root paths are relative to (default: cwd). */
  root?: string;
  task?: string;
  /** The task's `scope` glob from its packet (comma-separated globs allowed). */
  scope?: string;
  /** The user's home (for `~/…` globs) and Commandr's data dir (for `$COMMANDR_HOME/…`). */
  home?: string;
  commandrHome?: string;
  /** Resolves symlinks of an existing path (the hook passes fs.realpathSync; pure by default). */
  realpath?: (file: string) => string;
  /** Reads one symbolic link (the hook passes fs.readlinkSync): paths are resolved as the kernel would (POLPATH-3). */
  readlink?: Readlink;
  /** Lists a directory (the hook passes fs.readdirSync): a glob word is checked as the files it expands to. */
  readdir?: Readdir;
  /** Whether the agent runs sandboxed (policy/sandboxed.ts); unknown counts as not (POLPATH-5). */
  sandbox?: SandboxState;
}

const lower = (list: string[]) => new Set(list.map((s) => s.toLowerCase()));
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** The decision for one tool call; the first matching rule wins, in the order the file explains. */
export function evaluate(policy: Policy, request: ToolRequest): Verdict {
  const tool = request.tool.toLowerCase();
  if (lower(policy.deny.tools).has(tool)) return verdict('deny', 'deny.tools', `${request.tool} is on the policy's deny list`);
  if (lower(policy.shellTools).has(tool)) {
    try {
      return evaluateCommand(policy, str(request.input.command) ?? '', request);
    } catch (error) {
      // A command the checks cannot take apart goes to a person; it never crashes the hook into the agent's own rules.
      return verdict('ask', 'default', `the policy could not read this command (${(error as Error).message}), so a person decides`);
    }
  }
  if (lower(policy.ask.tools).has(tool)) return verdict('ask', 'ask.tools', `${request.tool} reaches the network or outside the project`);
  const guarded = guardedTarget(policy, request);
  if (guarded) return guarded;
  if (lower(policy.allow.tools).has(tool)) return verdict('allow', 'allow.tools', `${request.tool} only reads`);
  if (lower(policy.editTools).has(tool)) return evaluateEdit(policy, request);
  return verdict('ask', 'default', `${request.tool} is not covered by the policy`);
}

function verdict(decision: Decision, rule: string, why: string): Verdict {
  return { decision, rule, why };
}

// ── shell commands ─────────────────────────────────────────────────────────

const startsWithPrefix = (segment: string, prefix: string) => segment === prefix || segment.startsWith(`${prefix} `);
/** Programs that run whatever text they read: a pipe into one runs the previous stage's output. */
const INTERPRETERS = /^(sh|bash|zsh|dash|ksh|mksh|ash|fish|busybox|python[0-9.]*|node|nodejs|deno|bun|perl|ruby|php|lua|tclsh|osascript|pwsh|source|\.|eval)$/;
/** Variables a shell word may expand that the policy can still read. */
const KNOWN_VARS = /^\$\{?(HOME|COMMANDR_HOME)\}?(\/|$)/;

function pathContext(request: ToolRequest): PathContext {
  const root = request.root ?? request.cwd;
  return { cwd: request.cwd, root, home: request.home, commandrHome: request.commandrHome };
}

const UNKNOWN_SANDBOX: SandboxState = { sandboxed: false, why: 'whether the agent is sandboxed is not known' };

/** A shell command: every program it runs is judged, in the order the policy file explains (GUARD-2). */
function evaluateCommand(policy: Policy, command: string, request: ToolRequest): Verdict {
  const view = viewCommand(command);
  const parts = view.invocations.filter((inv) => inv.argv.length > 0 || inv.assigns.length > 0 || inv.redirects.length > 0);
  if (parts.length === 0) return verdict('ask', 'default', 'the command is empty');
  const text = (inv: Invocation) => invocationText(inv) || command.trim();
  const part = (v: Verdict, inv: Invocation) => ({ ...v, part: text(inv) });
  for (const inv of parts) {
    const bypass = hookBypass(inv);
    if (bypass) return part(verdict('deny', bypass.rule, bypass.why), inv);
    const line = inv.argv.map((w) => w.text).join(' ');
    const denied = policy.deny.commands.find((p) => startsWithPrefix(line, p));
    if (denied) return part(verdict('deny', 'deny.commands', `\`${denied}\` is on the policy's deny list`), inv);
  }
  const ctx = pathContext(request);
  const bases = baseDirs(parts, ctx);
  const fsView = { readlink: memoReadlink(request.readlink), readdir: request.readdir, budget: { left: PATH_BUDGET } };
  for (const inv of parts) {
    const guarded = guardedWords(policy, namedPaths(inv, bases, ctx, fsView), ctx);
    if (guarded) return part(guarded, inv);
  }
  for (const inv of parts) {
    const program = programOf(inv);
    if (policy.ask.commands.includes(program)) return part(verdict('ask', 'ask.commands', `\`${program}\` reaches the network or another machine`), inv);
    if (inv.piped && INTERPRETERS.test(program)) return part(verdict('ask', 'ask.pipe-to-shell', `\`${program}\` runs whatever the command before it prints`), inv);
    if (program === 'git' && inv.argv.some((w, i) => i > 0 && w.text === 'config')) return part(verdict('ask', 'ask.git-config', 'reading or changing git config needs a person'), inv);
  }
  if (view.opaque) return verdict('ask', 'default', `${view.opaque}, so a person decides`);
  const sandbox = request.sandbox ?? UNKNOWN_SANDBOX;
  const ownCode: string[] = [];
  for (const inv of parts) {
    if (inv.via.length > 0) return part(verdict('ask', 'allow.commands', `\`${inv.via[0]}\` runs another command, which needs a person`), inv);
    if (inv.assigns.length > 0) return part(verdict('ask', 'allow.commands', `\`${text(inv)}\` sets environment variables, which needs a person`), inv);
    const expanding = inv.argv.find((w) => w.expands && !KNOWN_VARS.test(w.text));
    if (expanding) return part(verdict('ask', 'default', `\`${expanding.text}\` expands a variable the policy cannot read`), inv);
    const writes = inv.redirects.find((r) => />/.test(r.op) && !/^[0-9]*>&$/.test(r.op) && r.target?.text !== '/dev/null');
    if (writes) return part(verdict('ask', 'allow.commands', `\`${text(inv)}\` writes to a file`), inv);
    const option = writingOption(inv);
    if (option) return part({ ...verdict('ask', 'allow.commands', `\`${option}\` makes \`${programOf(inv)}\` write a file`), word: option }, inv);
    const own = runsOwnCode(inv);
    if (own && !sandbox.sandboxed) {
      return part(verdict('ask', 'ask.own-code', `${own}: allowed only when the agent is sandboxed; this session is not (${sandbox.why})`), inv);
    }
    if (own) ownCode.push(own);
    const line = inv.argv.map((w) => w.text).join(' ');
    if (!policy.allow.commands.some((p) => startsWithPrefix(line, p))) {
      return part(verdict('ask', 'allow.commands', `\`${text(inv)}\` is outside the allowed command prefixes`), inv);
    }
  }
  const sandboxed = ownCode.length > 0 ? `; ${ownCode[0]}, allowed because the agent is sandboxed (${sandbox.why})` : '';
  return verdict('allow', 'allow.commands', `every part of the command starts with an allowed prefix${sandboxed}`);
}

/**
 * A path a command names that is protected, or that cannot be known (POLPATH-1…4). Every
 * path counts as a write: a word's role (`--output=`, `-o`, `tee`) is the program's to say.
 */
function guardedWords(policy: Policy, named: NamedPath[], ctx: PathContext, write = true): Verdict | undefined {
  for (const one of named) {
    for (const target of one.paths) {
      const found = pathVerdict(policy, target, ctx, write);
      if (found) return { ...found, word: one.word };
    }
  }
  const unsafe = named.find((n) => n.unsafe);
  if (unsafe) return { ...verdict('ask', 'ask.unknown-path', `${unsafe.unsafe}, so what it names cannot be checked`), word: unsafe.word };
  return undefined;
}

/** deny.read_paths → deny; ask.read_paths → ask (reads and writes); for a write, ask.paths → ask. */
function pathVerdict(policy: Policy, target: string, ctx: PathContext, write: boolean): Verdict | undefined {
  const denied = protectedBy(target, policy.deny.readPaths, ctx, { ancestors: true });
  if (denied) return verdict('deny', 'deny.read_paths', `${target} is under ${denied}, which the policy denies`);
  const guarded = protectedBy(target, policy.ask.readPaths, ctx, { ancestors: true });
  if (guarded) return verdict('ask', 'ask.read_paths', `${target} is under ${guarded}: reading or changing it needs a person`);
  if (!write) return undefined;
  const asked = protectedBy(target, policy.ask.paths, ctx);
  if (asked) return verdict('ask', 'ask.paths', `${target} is under ${asked}, which only a person may change`);
  return undefined;
}

/** The path a non-shell tool reads or writes, checked against the protected paths (realpath when it exists). */
function guardedTarget(policy: Policy, request: ToolRequest): Verdict | undefined {
  const input = request.input;
  const targets = [input.file_path, input.filePath, input.notebook_path, input.path].filter((v): v is string => typeof v === 'string' && v.length > 0);
  if (targets.length === 0) return undefined;
  const ctx = pathContext(request);
  const named = targets.map((raw) => {
    const expanded = expandWord(raw, ctx);
    const one = resolveNamed(raw, path.isAbsolute(expanded) ? expanded : `${request.cwd}/${expanded}`, request.readlink);
    return { ...one, paths: [...new Set([...one.paths, realpathOf(request, path.resolve(request.cwd, expanded))])] };
  });
  return guardedWords(policy, named, ctx, false);
}

/** The real path of `file` (or of its nearest existing parent, for a file about to be created). */
function realpathOf(request: ToolRequest, file: string): string {
  if (!request.realpath) return file;
  let dir = file;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(request.realpath(dir), ...tail.reverse());
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return file;
      tail.push(path.basename(dir));
      dir = parent;
    }
  }
}

// ── file edits ─────────────────────────────────────────────────────────────

/** The repo-relative file an edit tool targets, or undefined. */
export function editTarget(request: ToolRequest): string | undefined {
  const input = request.input;
  const file = str(input.file_path) ?? str(input.filePath) ?? str(input.notebook_path) ?? str(input.path);
  if (!file) return undefined;
  const root = request.root ?? request.cwd;
  const abs = path.resolve(request.cwd, file);
  // Symlinks are followed (GUARD-4): a link inside the repo to a file outside it is outside.
  return path.relative(realpathOf(request, root), realpathOf(request, abs)).split(path.sep).join('/');
}

function evaluateEdit(policy: Policy, request: ToolRequest): Verdict {
  const file = editTarget(request);
  if (file === undefined) return verdict('ask', 'default', `${request.tool} names no file the policy can check`);
  const matches = (globs: string[]) => globs.find((g) => matchesGlob(file, g));
  const denied = matches(policy.deny.paths);
  if (denied) return verdict('deny', 'deny.paths', `${file} matches ${denied} on the policy's deny list`);
  if (file === '..' || file.startsWith('../') || path.isAbsolute(file)) return verdict('ask', 'scope', `${file} is outside the project`);
  const guarded = matches(policy.ask.paths);
  if (guarded) return verdict('ask', 'ask.paths', `${file} is under ${guarded}, which only a person may change`);
  if (matches(policy.allow.paths)) return verdict('allow', 'allow.paths', `${file} matches the policy's allowed paths`);
  if (!request.scope) return verdict('ask', 'scope', `no task scope is known, so editing ${file} needs a person`);
  const globs = request.scope.split(',').map((g) => g.trim()).filter(Boolean);
  if (matches(globs)) return verdict('allow', 'scope', `${file} is inside the task's scope ${request.scope}`);
  return verdict('ask', 'scope', `${file} is outside the task's scope ${request.scope}`);
}

// ── allow-for-session matching ─────────────────────────────────────────────

/**
 * What "allow for this session" remembers of a shell command (POLPATH-7): the whole
 * command, only trimmed — never a prefix, so allowing `git push origin agent/T-1` allows
 * that push again and no other.
 */
export function sessionCommand(command: string): string {
  return command.trim();
}
