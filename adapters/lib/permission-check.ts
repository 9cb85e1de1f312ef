// The local half of a permission hook (PERM-HOOK-n): load the policy layers for
// the session's project, find the task's scope, and evaluate one tool call.
// allow/deny are answered here and never leave the machine; only `ask` goes to the relay.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { listPackets } from '../../bus/layout';
import { splitFrontMatter } from '../../bus/packet';
import { locateGit } from '../../bus/locate';
import { loadPolicy, type PolicyPlaces } from '../../policy/load';
import { evaluate, type Policy, sessionCommand, type Verdict } from '../../policy/policy';
import { sandboxState } from '../../policy/sandboxed';
import type { PermissionAsk } from '../../protocol/wire/http';
import { plainLine } from '../../protocol/wire/plain-text';
import { PERMISSION_DESCRIPTION_MAX, PERMISSION_WHY_MAX, type PermissionPolicyWhy } from '../../protocol/wire/views';
import { classifyTool } from './classify';
import { type Env, commandrHome, installRoot } from './env';
import { taskContext } from './task-context';
import { systemReadlink } from '../../policy/fs-view';

export interface PermissionCall {
  session: string;
  tool: string;
  input: Record<string, unknown>;
  cwd: string;
  /** The vendor's id of this tool call (stable across retries of the hook). */
  callId?: string;
  /** The agent CLI asking: Claude Code's own sandbox settings count only for `claude` (POLPATH-5). */
  vendor?: 'claude' | 'opencode';
}

export interface Checked {
  verdict: Verdict;
  policy: Policy;
  task?: string;
  /** The ask to send when `verdict.decision` is `ask` (made when first read). */
  readonly ask: PermissionAsk;
}

export function defaultPolicyFile(root = installRoot()): string {
  return path.join(root, 'policy', 'default-policy.yaml');
}

/** The `scope` glob of the task's packet (claimed first, then inbox), if any. */
export function taskScope(bus: string, task: string): string | undefined {
  for (const dir of ['claimed', 'inbox'] as const) {
    for (const name of listPackets(bus, dir)) {
      if (!name.includes(task)) continue;
      try {
        const split = splitFrontMatter(fs.readFileSync(path.join(bus, dir, name), 'utf8'));
        const front = split ? (parse(split.yaml, { schema: 'failsafe' }) as Record<string, unknown> | null) : null;
        if (front && front.id === task && typeof front.scope === 'string') return front.scope;
      } catch { /* an unreadable packet gives no scope */ }
    }
  }
  return undefined;
}

function repoRoot(cwd: string, env: Env): string | undefined {
  try {
    return locateGit(cwd, env as NodeJS.ProcessEnv, false).worktree;
  } catch {
    return undefined;
  }
}

/** A stable key per tool call: a retry after a relay restart finds the same request. */
export function askKey(call: PermissionCall): string {
  const id = call.callId ?? `${call.tool}:${JSON.stringify(call.input)}`;
  return crypto.createHash('sha256').update(`${call.session}\0${id}`).digest('hex').slice(0, 40);
}

/** Loads the policy and decides; throws PolicyError when a policy file is wrong. */
export function checkPermission(call: PermissionCall, env: Env = process.env, load: (places: PolicyPlaces) => Policy = loadPolicy): Checked {
  const context = taskContext(call.cwd, env);
  const root = context?.worktree ?? repoRoot(call.cwd, env);
  const policy = load({
    defaultFile: defaultPolicyFile(), home: commandrHome(env), repo: root,
    agentCommands: env.AGENT_COMMANDS, timeoutMs: env.COMMANDR_PERMISSION_TIMEOUT_MS,
  });
  const task = context?.task ?? (env.COMMANDR_TASK?.trim() || undefined);
  const scope = context ? taskScope(context.bus, context.task) : undefined;
  // Claude Code runs a Bash call with `dangerouslyDisableSandbox` outside its sandbox.
  const claude = call.vendor === 'claude' && call.input.dangerouslyDisableSandbox !== true;
  const sandbox = sandboxState(env, env.CLAUDE_PROJECT_DIR?.trim() || root, { claude });
  const verdict = evaluate(policy, {
    tool: call.tool, input: call.input, cwd: call.cwd, root, task, scope, sandbox,
    home: env.HOME?.trim() || os.homedir(), commandrHome: commandrHome(env),
    realpath: (file) => fs.realpathSync(file), readlink: systemReadlink, readdir: (dir) => fs.readdirSync(dir),
  });
  // The ask is made only when a person is asked: most calls are decided by the policy alone, and
  // an edit's diff or a long input's hash is work the relay's fast path would do for nothing.
  let ask: PermissionAsk | undefined;
  const makeAsk = (): PermissionAsk => {
    const command = typeof call.input.command === 'string' ? call.input.command : undefined;
    const detail = command ?? editDetail(call.input) ?? JSON.stringify(call.input, null, 2);
    const said = description(call.input);
    return {
      session: call.session.slice(0, 256), tool: call.tool.slice(0, 256), cwd: call.cwd.slice(0, 4096),
      summary: classifyTool({ tool: call.tool, input: call.input }, []).summary.slice(0, 2000),
      detail: detail.slice(0, 64 * 1024), key: askKey(call), timeoutMs: policy.timeoutMs,
      ...exactOf(call, policy, command),
      policy: policyWhy(verdict),
      ...(said ? { description: said } : {}),
      ...(task ? { task: task.slice(0, 128) } : {}),
      ...(env.COMMANDR_AGENT_ID?.trim() ? { agent: env.COMMANDR_AGENT_ID.trim().slice(0, 256) } : {}),
    };
  };
  return { verdict, policy, task, get ask() { return (ask ??= makeAsk()); } };
}

/**
 * What allow-for-session remembers (POLPATH-7): a shell tool's whole command, another
 * tool's file or URL, else its whole input; never a prefix. A long one travels as its hash.
 */
function exactOf(call: PermissionCall, policy: Policy, command: string | undefined): { exact?: string } {
  const shell = policy.shellTools.some((t) => t.toLowerCase() === call.tool.toLowerCase());
  const input = call.input;
  const target = [input.file_path, input.filePath, input.notebook_path, input.path, input.url].find((v): v is string => typeof v === 'string' && v.length > 0);
  const { description: _said, ...rest } = input;
  const text = shell ? (command !== undefined ? sessionCommand(command) : '') : target ?? JSON.stringify(rest);
  if (!text) return {};
  return { exact: text.length > 4096 ? `sha256:${crypto.createHash('sha256').update(text).digest('hex')}` : text };
}

/** A small unified diff for an edit (old → new text), or the content being written. */
function editDetail(input: Record<string, unknown>): string | undefined {
  const file = [input.file_path, input.filePath, input.path].find((v): v is string => typeof v === 'string') ?? 'file';
  const before = [input.old_string, input.oldString].find((v): v is string => typeof v === 'string');
  const after = [input.new_string, input.newString, input.content].find((v): v is string => typeof v === 'string');
  if (after === undefined) return undefined;
  const lines = (text: string, mark: string) => text.split('\n').slice(0, 200).map((l) => `${mark}${l}`);
  return [`--- ${file}`, `+++ ${file}`, '@@', ...(before !== undefined ? lines(before, '-') : []), ...lines(after, '+')].join('\n');
}

/** The verdict as the card shows it (CARD-1): rule, sentence and deciding part, each one bounded line. */
function policyWhy(verdict: Verdict): PermissionPolicyWhy {
  const part = verdict.part ? plainLine(verdict.part, PERMISSION_WHY_MAX) : '';
  return {
    rule: plainLine(verdict.rule, 64) || 'default',
    why: plainLine(verdict.why, PERMISSION_WHY_MAX) || 'the policy needs a person',
    ...(part ? { part } : {}),
  };
}

/** What the agent said the call does: the tool input's own `description` (Claude Code's and OpenCode's Bash, Task), cut to size (CARD-1). */
function description(input: Record<string, unknown>): string | undefined {
  return typeof input.description === 'string' ? plainLine(input.description, PERMISSION_DESCRIPTION_MAX) || undefined : undefined;
}
