// `commandr wire [repo] [--dry-run] [--adapter <name>]` (ADAPTER-n): runs the selected
// adapter's `wire` executable on the repo's top level, output and exit code passed through.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { locateGit } from '../../bus/locate';
import { AdapterError, resolveAdapter } from './resolve';

export const WIRE_USAGE = 'wire [repo] [--dry-run] [--adapter <name>]';

/** The CLI handler: prints its own one-line errors (usage → 2, no such adapter → 1). */
export function wireCommand(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  try {
    return wire(args, env);
  } catch (error) {
    const usage = error instanceof UsageProblem;
    const code = error instanceof AdapterError ? `${error.code}: ` : '';
    process.stderr.write(`commandr wire: ${code}${(error as Error).message}\n`);
    return usage ? 2 : 1;
  }
}

class UsageProblem extends Error {}

function wire(args: string[], env: NodeJS.ProcessEnv): number {
  const rest = [...args];
  const dryRun = takeFlag(rest, '--dry-run');
  const adapterAt = rest.indexOf('--adapter');
  let name: string | undefined;
  if (adapterAt !== -1) {
    name = rest[adapterAt + 1];
    if (!name) throw new UsageProblem(`--adapter needs a name; usage: commandr ${WIRE_USAGE}`);
    rest.splice(adapterAt, 2);
  }
  if (rest.length > 1 || rest.some((a) => a.startsWith('-'))) throw new UsageProblem(`usage: commandr ${WIRE_USAGE}`);
  const start = path.resolve(rest[0] ?? '.');
  let root = start;
  try {
    root = locateGit(start, env).worktree;
  } catch {
    root = start;
  }
  const adapter = resolveAdapter(name, env);
  const result = spawnSync(adapter.wire, [root, ...(dryRun ? ['--dry-run'] : [])], { stdio: 'inherit', env });
  if (result.error) throw new Error(`cannot run ${adapter.wire}: ${result.error.message}`);
  return result.status ?? 1;
}

function takeFlag(args: string[], flag: string): boolean {
  const at = args.indexOf(flag);
  if (at === -1) return false;
  args.splice(at, 1);
  return true;
}
