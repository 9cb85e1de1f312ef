// `commandr policy check <tool> <input-json-or-command> [--repo DIR] [--scope GLOB]`:
// prints what the permission policy would do with one tool call and why (POLICY-6).
// Nothing runs and nothing is asked; exit 0 whatever the decision.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { locateGit } from '../bus/locate';
import { taskContext } from '../adapters/lib/task-context';
import { taskScope } from '../adapters/lib/permission-check';
import { loadPolicy, PolicyError } from '../policy/load';
import { evaluate } from '../policy/policy';
import { sandboxState } from '../policy/sandboxed';
import { UsageError, runTool } from './_shared/tool';
import { systemReadlink } from '../policy/fs-view';

const USAGE = [
  "usage: commandr policy check <tool> <input-json-or-command> [--repo DIR] [--scope GLOB]",
  "  e.g. commandr policy check Bash 'touch notes.txt'",
  "       commandr policy check Edit '{\"file_path\":\"src/a.ts\"}' --scope 'src/**'",
].join('\n');

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined) throw new UsageError(`${name} needs a value`);
  args.splice(at, 2);
  return value;
}

function inputOf(tool: string, text: string): Record<string, unknown> {
  if (text.trim().startsWith('{')) {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new UsageError(`the input looks like JSON but does not parse: ${text}`);
    }
  }
  return /^(bash|shell)$/i.test(tool) ? { command: text } : { file_path: text };
}

function repoOf(dir: string): string {
  try {
    return locateGit(dir, process.env, false).worktree;
  } catch {
    return dir;
  }
}

runTool('policy', USAGE, (argv) => {
  const args = [...argv];
  const repoArg = option(args, '--repo');
  const scopeArg = option(args, '--scope');
  if (args[0] !== 'check' || args.length !== 3) throw new UsageError('expected: check <tool> <input>');
  const [, tool, text] = args as [string, string, string];
  const cwd = path.resolve(repoArg ?? '.');
  const repo = repoOf(cwd);
  const context = taskContext(cwd, process.env);
  const scope = scopeArg ?? (context ? taskScope(context.bus, context.task) : undefined);
  const home = process.env.COMMANDR_HOME?.trim() || path.join(process.env.HOME || '', '.commandr');
  try {
    const policy = loadPolicy({
      defaultFile: path.join(__dirname, '..', 'policy', 'default-policy.yaml'), home, repo,
      agentCommands: process.env.AGENT_COMMANDS, timeoutMs: process.env.COMMANDR_PERMISSION_TIMEOUT_MS,
    });
    // As the hook of the agent this shell would run: its sandbox, Claude Code's settings for the repo.
    const sandbox = sandboxState(process.env, process.env.CLAUDE_PROJECT_DIR?.trim() || repo, { claude: true });
    const verdict = evaluate(policy, {
      tool, input: inputOf(tool, text), cwd, root: repo, task: context?.task, scope, sandbox,
      home: process.env.HOME || os.homedir(), commandrHome: home,
      realpath: (file) => fs.realpathSync(file), readlink: systemReadlink, readdir: (dir) => fs.readdirSync(dir),
    });
    const lines = [
      `decision: ${verdict.decision}`, `rule:     ${verdict.rule}`, `why:      ${verdict.why}`,
      ...(verdict.part ? [`part:     ${verdict.part}`] : []),
      ...(verdict.word ? [`word:     ${verdict.word}`] : []),
      ...(verdict.decision === 'ask' ? [`timeout:  ${policy.timeoutMs / 1000} s, then denied`] : []),
      `scope:    ${scope ?? '(no task scope)'}`, `sandbox:  ${sandbox.sandboxed ? 'yes' : 'no'} (${sandbox.why})`,
      `policy:   ${policy.sources.join(' + ')}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    process.stderr.write(`policy: ${error.code}: ${error.message}\n`);
    return 1;
  }
});
