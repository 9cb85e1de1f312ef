// `commandr`: the umbrella command. One table maps each subcommand to its handler;
// bus tools run in-process from their own bundles so each keeps its cold start.
import * as os from 'node:os';
import * as path from 'node:path';
import { version } from '../package.json';
import { nextSteps } from '../bus/init';
import { initCommandRepo } from './init-repo';
import { defaultDataDir } from '../bus/approval/keys';
import { NO_SANDBOX_COST } from '../policy/sandbox';
import { report, UsageError, wantsHelp } from './_shared/tool';
import { wireCommand, WIRE_USAGE } from '../adapters/lib/wire-command';
import { sandboxCommand, SANDBOX_USAGE } from './sandbox';

export interface Subcommand {
  summary: string;
  run: (args: string[], name: string) => number | void | Promise<number | void>;
  /** Printed for `commandr <name> --help` (CLIHELP-1) by the umbrella, which then runs nothing; absent when the handler prints its own. */
  help?: string;
}

const INIT_HELP = [
  'usage: commandr init [repo] [--wire] [--no-sandbox]',
  '  makes the repo (default: the current directory) bus-ready: .agents/ (inbox, claimed, done, approvals), its .gitignore lines,',
  '  the git hooks (pre-commit, commit-msg, post-commit, pre-merge-commit, post-merge, pre-push), the repo in ~/.agents/repos,',
  "  and Claude Code's sandbox on in .claude/settings.local.json. Running it again changes only what is missing.",
  "  --wire        also run `commandr wire` on the repo: report its agent sessions to commandr (hooks, plugin, MCP server)",
  "  --no-sandbox  leave Claude Code's sandbox settings alone (and say what that gives up)",
].join('\n');

/** Runs a sibling bundle `dist/<tool>.cjs` as if it had been started as `<tool> args…`. */
const bundle = (tool: string) => (args: string[]): void => {
  const file = path.join(__dirname, `${tool}.cjs`);
  process.argv = [process.argv[0]!, file, ...args];
  require(file);
};

/** The relay's subcommands live in `dist/relay.cjs`, loaded only when asked for. */
const relay = (args: string[], name: string): Promise<number | void> | number | void => {
  const mod = require(path.join(__dirname, 'relay.cjs')) as { main?: (name: string, args: string[]) => Promise<number | void> | number | void };
  if (typeof mod.main !== 'function') throw new Error(`${path.join(__dirname, 'relay.cjs')} exports no main(subcommand, args)`);
  return mod.main(name, args);
};

/** Add a subcommand by adding one line here. */
export const SUBCOMMANDS: Record<string, Subcommand> = {
  init: { summary: 'init [repo] [--wire] [--no-sandbox]   make a repo bus-ready (dirs, .gitignore, pre-commit hook, registry, Claude Code sandbox on)', run: init, help: INIT_HELP },
  claim: { summary: 'claim                  claim the first claimable inbox packet', run: bundle('claim') },
  complete: { summary: 'complete <path> [pass|fail]  move a claimed packet to done/', run: bundle('complete') },
  progress: { summary: 'progress <task> "<note>"  append a progress note', run: bundle('progress') },
  'pre-commit-gate': { summary: 'pre-commit-gate        the approval gate run by the pre-commit hook', run: bundle('pre-commit-gate') },
  claims: { summary: 'claims [list] <remote> [--json] | release <id>  claims on a shared remote: owner, age, lease', run: bundle('claims') },
  council: { summary: 'council <packet>       advisory three-evaluator review', run: bundle('council') },
  index: { summary: 'index refresh [repo…]  fold the registered buses into ~/.agents/index.json', run: bundle('index') },
  task: { summary: 'task new <id> --scope GLOB --title TEXT [--criterion TEXT…]  write a complete packet into the inbox', run: bundle('task') },
  'annotate-write': { summary: 'annotate-write --bus … --task … --turn …  leave a note for the next turn', run: bundle('annotate-write') },
  // Relay slots (dist/relay.cjs exports main(subcommand, args)):
  serve: { summary: 'serve                  run the relay', run: relay },
  pair: { summary: 'pair                   pair a phone with the relay', run: relay },
  devices: { summary: 'devices                list or revoke paired devices', run: relay },
  commanders: { summary: 'commanders list|start|say|replace|delete|log  long-lived agents you talk to', run: bundle('commanders') },
  machines: { summary: 'machines add|list|remove  member machines of this home relay (join codes)', run: bundle('machines') },
  join: { summary: 'join <home-url> <code>  make this machine a member of a home relay', run: bundle('join') },
  wire: { summary: `${WIRE_USAGE}  report this repo's agent sessions to commandr (hooks/plugin)`, run: (args) => wireCommand(args), help: `usage: commandr ${WIRE_USAGE}\n  report this repo's agent sessions to commandr: the adapter's hooks or plugin and the MCP server (default adapter: claude; --dry-run changes nothing)` },
  verify: { summary: 'verify <rev-range>…     check every agent commit carries a valid approval for its own change', run: bundle('verify') },
  doctor: { summary: 'doctor                 check agent CLIs, git, the relay, push keys, wired repos; a fix for each', run: bundle('doctor') },
  // Through bin/load.cjs: agents start this server on every session, so it gets the V8 code cache.
  mcp: { summary: 'mcp                    serve the bus as tools an agent can call (MCP over stdio)', run: () => { require(path.join(__dirname, '..', 'bin', 'load.cjs'))('mcp'); } },
  policy: { summary: 'policy check <tool> <input> [--repo DIR]  what the permission policy would do, and why', run: bundle('policy') },
  sandbox: { summary: `${SANDBOX_USAGE}  run an agent CLI in the same OS sandbox as the relay's jobs`, run: (args) => sandboxCommand(args), help: `usage: commandr ${SANDBOX_USAGE}\n  runs an agent CLI in the same OS sandbox as the relay's jobs; words after -- are the CLI's own (commandr sandbox -- claude --help)` },
  // Slot for `policy` (and any new subcommand): add a `name: { summary, run }` line here.
};

function usage(): string {
  const lines = Object.values(SUBCOMMANDS).map((s) => `  commandr ${s.summary}`);
  return ['usage: commandr <subcommand> [args…]', ...lines, '  commandr --help | --version'].join('\n');
}

function init(argv: string[]): number {
  const wire = argv.includes('--wire');
  // SBXDEF-1: Claude Code's sandbox is on unless refused; `--sandbox` stays accepted and changes nothing.
  const sandbox = !argv.includes('--no-sandbox');
  const args = argv.filter((a) => a !== '--wire' && a !== '--sandbox' && a !== '--no-sandbox');
  const unknown = args.find((a) => a.startsWith('-'));
  if (unknown !== undefined) throw new UsageError(`unknown option ${unknown} (a repo path that starts with - is written ./${unknown})`);
  if (args.length > 1) throw new UsageError('init takes at most one repo path');
  const registryFile = process.env.AGENTS_INDEX_REPOS || path.join(os.homedir(), '.agents', 'repos');
  const dataDir = defaultDataDir();
  const { report, sandbox: settings } = initCommandRepo(path.resolve(args[0] ?? '.'), { binDir: path.join(__dirname, '..', 'bin'), registryFile, dataDir, sandbox });
  for (const changed of report.changed) process.stderr.write(`init: wrote ${changed}\n`);
  process.stdout.write(`init:${report.bus}\n`);
  if (settings) process.stderr.write(`init: ${settings} Claude Code's sandbox in .claude/settings.local.json (${dataDir} out of the agent's reach)\n`);
  else process.stderr.write(`${NO_SANDBOX_COST.join('\n')}\n`);
  const code = wire ? wireCommand([report.root]) : 0;
  if (!wire) process.stderr.write(`init: to report this repo's agent sessions to commandr, run \`commandr wire ${report.root}\` (or init --wire)\n`);
  process.stderr.write(`${nextSteps(report, wire).join('\n')}\n`);
  return code;
}

const argv = process.argv.slice(2);
const [name, ...rest] = argv;
if (name === '--version' || name === '-v') {
  process.stdout.write(`${version}\n`);
} else if (name === '--help' || name === '-h') {
  process.stdout.write(usage() + '\n');
} else {
  const sub = name === undefined ? undefined : Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (sub === undefined) {
    process.stderr.write(`commandr: E_BAD_ARGS: ${name === undefined ? 'missing subcommand' : `unknown subcommand ${JSON.stringify(name)}`}\n${usage()}\n`);
    process.exitCode = 2;
  } else if (sub.help !== undefined && wantsHelp(rest)) {
    process.stdout.write(`${sub.help}\n`);
  } else {
    Promise.resolve()
      .then(() => sub.run(rest, name!))
      .then(
        (code) => {
          if (typeof code === 'number') process.exitCode = code;
        },
        (error: unknown) => {
          process.exitCode = report(`commandr ${name}`, usage(), error);
        },
      );
  }
}
