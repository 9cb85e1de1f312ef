// Turns a vendor's tool call into the neutral parts of a live event (LIVE-EMIT-n):
// kind, a one-line summary, and the file or command it touched. Vendor names stay here.
import type { LiveKind } from '../../protocol/live-events';
import { type Check, commandSegments, matchCheck } from './checks';

export interface ToolCall {
  /** The vendor's tool name (`Bash`, `Edit`, `bash`, `edit`…), compared case-insensitively. */
  tool: string;
  input: Record<string, unknown>;
}

export interface Classified {
  kind: LiveKind;
  summary: string;
  file?: string;
  cmd?: string;
  /** The matching check's label when kind is `check`. */
  label?: string;
}

const TOOL_KINDS: Record<string, LiveKind> = {
  edit: 'edit', write: 'edit', multiedit: 'edit', notebookedit: 'edit', patch: 'edit', apply_patch: 'edit',
  read: 'read', notebookread: 'read',
  grep: 'search', glob: 'search', ls: 'search', list: 'search', codesearch: 'search', toolsearch: 'search',
  webfetch: 'web', websearch: 'web',
  todowrite: 'plan', todoread: 'plan', exitplanmode: 'plan', enterplanmode: 'plan',
  task: 'subagent', agent: 'subagent',
};

const SHELL_TOOLS = new Set(['bash', 'shell', 'powershell']);
const TEST_COMMAND = /^(?:npx |npm (?:run )?|yarn |pnpm )?(?:test|jest|vitest|mocha|pytest|unittest|tox|rspec|phpunit)\b|^(?:python3?|py) -m (?:pytest|unittest)\b|^(?:cargo|go|dotnet|mvn|gradle|make) test\b/;
const GIT_COMMAND = /^(?:git|gh)\b/;

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
const oneLine = (text: string, max = 200): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? line.slice(0, max - 1) + '…' : line;
};

export function classifyTool(call: ToolCall, checks: Check[]): Classified {
  const tool = call.tool.toLowerCase();
  if (SHELL_TOOLS.has(tool)) return classifyCommand(str(call.input.command) ?? '', checks);
  const kind = TOOL_KINDS[tool] ?? (tool.startsWith('mcp__') ? 'other' : 'other');
  const file = str(call.input.file_path) ?? str(call.input.filePath) ?? str(call.input.notebook_path) ?? str(call.input.path);
  const target = file ?? str(call.input.pattern) ?? str(call.input.url) ?? str(call.input.query) ?? str(call.input.description);
  const verb = VERBS[kind];
  return { kind, summary: oneLine(target ? `${verb} ${target}` : `${verb} (${call.tool})`), ...(file ? { file } : {}) };
}

const VERBS: Record<LiveKind, string> = {
  session: 'session', end: 'end', idle: 'idle', edit: 'edit', read: 'read', search: 'search', command: 'run',
  test: 'test', check: 'check', git: 'git', plan: 'plan', subagent: 'delegate', web: 'fetch', other: 'use',
};

/** A shell command: a configured check, else git/gh, else a test runner, else a plain command. */
export function classifyCommand(command: string, checks: Check[]): Classified {
  const cmd = command.slice(0, 8192);
  const summary = oneLine(cmd) || '(empty command)';
  const check = matchCheck(command, checks);
  if (check) return { kind: 'check', summary: `${check.label}: ${summary}`, cmd, label: check.label };
  const segments = commandSegments(command);
  if (segments.some((s) => GIT_COMMAND.test(s))) return { kind: 'git', summary, cmd };
  if (segments.some((s) => TEST_COMMAND.test(s))) return { kind: 'test', summary, cmd };
  return { kind: 'command', summary, cmd };
}
