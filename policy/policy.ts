// Permission policy (POLICY-n): the policy file's shape and the pure evaluation
// of one tool call → allow | deny | ask, with the rule that decided and why.
// No I/O here: loading and layering the files lives in ./load.ts.
import * as path from 'node:path';
import * as z from 'zod/mini';
import { matchesGlob } from './glob';

const names = z.optional(z.array(z.string()));
const Section = z.optional(z.object({ tools: names, commands: names, paths: names }));

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
}

const lower = (list: string[]) => new Set(list.map((s) => s.toLowerCase()));
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** The decision for one tool call; the first matching rule wins, in the order the file explains. */
export function evaluate(policy: Policy, request: ToolRequest): Verdict {
  const tool = request.tool.toLowerCase();
  if (lower(policy.deny.tools).has(tool)) return verdict('deny', 'deny.tools', `${request.tool} is on the policy's deny list`);
  if (lower(policy.shellTools).has(tool)) return evaluateCommand(policy, str(request.input.command) ?? '');
  if (lower(policy.ask.tools).has(tool)) return verdict('ask', 'ask.tools', `${request.tool} reaches the network or outside the project`);
  if (lower(policy.allow.tools).has(tool)) return verdict('allow', 'allow.tools', `${request.tool} only reads`);
  if (lower(policy.editTools).has(tool)) return evaluateEdit(policy, request);
  return verdict('ask', 'default', `${request.tool} is not covered by the policy`);
}

function verdict(decision: Decision, rule: string, why: string): Verdict {
  return { decision, rule, why };
}

// ── shell commands ─────────────────────────────────────────────────────────

/** Splits a command line at `&&`, `||`, `;`, `|` and newlines (quotes respected). */
export function commandSegments(command: string): string[] {
  const segments: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === ';' || c === '\n' || c === '|' || (c === '&' && command[i + 1] === '&')) {
      segments.push(current);
      current = '';
      if ((c === '|' && command[i + 1] === '|') || c === '&') i++;
    } else current += c;
  }
  segments.push(current);
  return segments.map((s) => s.trim()).filter((s) => s.length > 0);
}

const startsWithPrefix = (segment: string, prefix: string) => segment === prefix || segment.startsWith(`${prefix} `);
const firstWord = (segment: string) => segment.split(/\s+/, 1)[0] ?? '';
/** Writes to a file (`>`, `>>`), other than duplicating a descriptor (`2>&1`). */
const REDIRECT = /(^|[^0-9&])>{1,2}(?!&)|[0-9]>{1,2}(?!&)/;
/** Commands whose meaning the policy cannot see: substitutions and sub-shells. */
const OPAQUE = /\$\(|`|<\(|>\(/;

function evaluateCommand(policy: Policy, command: string): Verdict {
  const segments = commandSegments(command);
  if (segments.length === 0) return verdict('ask', 'default', 'the command is empty');
  const denied = policy.deny.commands.find((p) => segments.some((s) => startsWithPrefix(s, p)));
  if (denied) return verdict('deny', 'deny.commands', `\`${denied}\` is on the policy's deny list`);
  const protectedPath = policy.ask.paths.find((p) => command.includes(p.replace(/\*+$/, '').replace(/\/$/, '') + '/'));
  if (protectedPath) return verdict('ask', 'ask.paths', `the command touches ${protectedPath}, which only a person may change`);
  const network = segments.map(firstWord).find((w) => policy.ask.commands.includes(w));
  if (network) return verdict('ask', 'ask.commands', `\`${network}\` reaches the network or another machine`);
  if (OPAQUE.test(command)) return verdict('ask', 'default', 'the command contains a substitution the policy cannot read');
  const outside = segments.find((s) => REDIRECT.test(s) || !policy.allow.commands.some((p) => startsWithPrefix(s, p)));
  if (outside) {
    const why = REDIRECT.test(outside) ? `\`${outside}\` writes to a file` : `\`${outside}\` is outside the allowed command prefixes`;
    return verdict('ask', 'allow.commands', why);
  }
  return verdict('allow', 'allow.commands', 'every part of the command starts with an allowed prefix');
}

// ── file edits ─────────────────────────────────────────────────────────────

/** The repo-relative file an edit tool targets, or undefined. */
export function editTarget(request: ToolRequest): string | undefined {
  const input = request.input;
  const file = str(input.file_path) ?? str(input.filePath) ?? str(input.notebook_path) ?? str(input.path);
  if (!file) return undefined;
  const root = request.root ?? request.cwd;
  return path.relative(root, path.resolve(request.cwd, file)).split(path.sep).join('/');
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

/** Programs whose second word says what they do (`git push`, `npm install`). */
const TWO_WORD = new Set(['git', 'gh', 'npm', 'npx', 'yarn', 'pnpm', 'cargo', 'go', 'docker', 'kubectl', 'pip', 'python', 'python3', 'make']);

/** The prefix "allow for this session" remembers: the program (and its sub-command). */
export function commandPrefix(command: string): string {
  const segments = commandSegments(command);
  // A compound or opaque command is remembered whole: its parts could do anything.
  if (segments.length !== 1 || OPAQUE.test(command) || REDIRECT.test(command)) return command.trim();
  const words = segments[0]!.split(/\s+/).filter(Boolean);
  const first = words[0] ?? '';
  return TWO_WORD.has(first) && words[1] && !words[1].startsWith('-') ? `${first} ${words[1]}` : first;
}
