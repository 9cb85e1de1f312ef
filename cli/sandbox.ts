// `commandr sandbox [--repo PATH] -- <cli> [args…]` (SANDBOX-7): runs any agent CLI started by
// hand in the same OS sandbox as the relay's jobs — the data dir hidden, the repo's git hooks,
// config and approvals read-only, loopback shared — and says so in one line on stderr.
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { installRoot } from '../adapters/lib/env';
import { awaitHookDelivery } from '../adapters/lib/sandbox-delivery';
import { gitCommonDirOf, sandboxArgv, sandboxSummary, sandboxSupport, type SandboxSpec } from '../adapters/sandbox';
import { defaultDataDir } from '../bus/approval/keys';
import { UsageError } from './_shared/tool';

export const SANDBOX_USAGE = 'sandbox [--repo PATH] -- <cli> [args…]';

/** The checkout holding `dir`: the nearest ancestor with a `.git`. */
function checkoutOf(dir: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

/** The main checkout of a worktree (`<common>/..` when the common dir is `<main>/.git`). */
function mainCheckout(repo: string, common: string | undefined): string {
  return common && path.basename(common) === '.git' ? path.dirname(common) : repo;
}

export function sandboxSpecFor(cwd: string, repoArg: string | undefined, env: NodeJS.ProcessEnv = process.env): SandboxSpec {
  const repo = repoArg ? path.resolve(repoArg) : checkoutOf(cwd);
  if (repoArg && !fs.existsSync(path.join(repo!, '.git'))) throw new UsageError(`--repo ${repoArg}: not a git checkout (no .git)`);
  const gitCommonDir = repo ? gitCommonDirOf(repo) : undefined;
  return { cwd, repo: repo ? mainCheckout(repo, gitCommonDir) : undefined, gitCommonDir, dataDir: defaultDataDir(env), writable: repo ? [repo] : [] };
}

/** The hand-started agent's hooks still reach the relay: its URL and hook credential, read here outside. */
function relayEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  try {
    env.COMMANDR_HOOK_TOKEN = fs.readFileSync(path.join(dataDir, 'hook-token'), 'utf8').trim();
  } catch { /* no relay has run here */ }
  try {
    const info = JSON.parse(fs.readFileSync(path.join(dataDir, 'relay.json'), 'utf8')) as { url?: unknown };
    if (typeof info.url === 'string') env.COMMANDR_URL = info.url;
  } catch { /* no relay running */ }
  return env;
}

export async function sandboxCommand(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { repo: { type: 'string' }, inside: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nusage: commandr ${SANDBOX_USAGE}`);
  }
  const [cli, ...rest] = parsed.positionals;
  if (!cli) throw new UsageError(`name the CLI to run\nusage: commandr ${SANDBOX_USAGE}`);
  if (parsed.values.inside) return runInside(cli, rest);
  const support = sandboxSupport();
  if (!support.ok) {
    process.stderr.write(`commandr sandbox: no sandbox on this machine: ${support.reason}\nfix: ${support.fix}\n`);
    return 1;
  }
  const spec = sandboxSpecFor(process.cwd(), parsed.values.repo);
  // In bwrap the CLI runs under `commandr sandbox --inside`, which outlives it by as long as its
  // hooks take to deliver what they hold: that lives in the sandbox and ends with it (LIVE-DELIVER-4).
  const box = support.kind === 'bwrap'
    ? sandboxArgv(spec, process.execPath, [path.join(installRoot(), 'bin', 'commandr'), 'sandbox', '--inside', '--', cli, ...rest], support)
    : sandboxArgv(spec, cli, rest, support);
  process.stderr.write(`commandr: ${sandboxSummary(spec, support)}\n`);
  return exitOf(spawn(box.command, box.args, { stdio: 'inherit', env: { ...process.env, ...relayEnv(spec.dataDir), ...box.env } }), box.command);
}

/** Inside the sandbox: the CLI, then the wait for its hooks' deliveries; the CLI's status. */
async function runInside(cli: string, args: string[]): Promise<number> {
  const code = await exitOf(spawn(cli, args, { stdio: 'inherit' }), cli);
  await awaitHookDelivery();
  return code;
}

function exitOf(child: ChildProcess, command: string): Promise<number> {
  return new Promise<number>((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`commandr sandbox: cannot start ${command}: ${error.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 15) : 1)));
  });
}
