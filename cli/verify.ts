// `commandr verify`: checks that agent commits carry a valid relay-signed approval
// for exactly their own change (VERIFY-n). Three ways in: a rev range from a
// person or CI, the `pre-push` hook `commandr init` installs, and a server's
// `pre-receive` hook. Exit 1 names every bad commit; exit 0 prints the count.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultDataDir, publicKeyFile, readVerifyingKey } from '../bus/approval/keys';
import { preReceiveTargets, prePushTargets, verifyTargets, type VerifyTarget } from '../bus/approval/verify';
import { trustEnv } from '../bus/gate';
import { isTaskId } from '../protocol/bus/ids';
import { runTool, UsageError } from './_shared/tool';

const USAGE = [
  'usage: commandr verify [--key <public.pem>]… [--task <id>] <rev-range>…   check every commit in the range',
  '       commandr verify [--key …] [--all-branches] --pre-push <remote> [<url>]   (the pre-push hook; refs on stdin)',
  '       commandr verify [--key …] [--all-branches] --pre-receive                 (a server pre-receive hook; refs on stdin)',
  'keys: --key, else git config commandr.approvalKey (may repeat), else $COMMANDR_HOME/approval/public.pem',
].join('\n');

interface Parsed { keys: string[]; task?: string; all: boolean; mode: 'range' | 'pre-push' | 'pre-receive'; rest: string[] }

function parse(args: string[]): Parsed {
  const p: Parsed = { keys: [], all: false, mode: 'range', rest: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined || v === '') throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === '--key') p.keys.push(value());
    else if (a === '--task') {
      p.task = value();
      if (!isTaskId(p.task)) throw new UsageError(`--task ${JSON.stringify(p.task)} is not a task id`);
    } else if (a === '--all-branches') p.all = true;
    else if (a === '--pre-push') p.mode = 'pre-push';
    else if (a === '--pre-receive') p.mode = 'pre-receive';
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else p.rest.push(a);
  }
  if (p.mode === 'range' && p.rest.length === 0) throw new UsageError('name at least one revision range, e.g. main..agent/T-1');
  if (p.mode === 'pre-push' && p.rest.length === 0) throw new UsageError('--pre-push needs the remote name git passes');
  return p;
}

function configuredKeys(cwd: string): string[] {
  try {
    // Config files only: a pusher's `git -c`/GIT_CONFIG_* never chooses the trusted key (VERIFY-4).
    const out = execFileSync('git', ['config', '--path', '--get-all', 'commandr.approvalKey'], { cwd, env: trustEnv(process.env), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out.split('\n').filter((l) => l !== '').map((f) => path.resolve(cwd, f));
  } catch {
    return [];
  }
}

runTool('verify', USAGE, async (args) => {
  const p = parse(args);
  const cwd = process.cwd();
  const files = p.keys.length > 0 ? p.keys : configuredKeys(cwd);
  const keys = (files.length > 0 ? files : [publicKeyFile(defaultDataDir())]).map(readVerifyingKey);
  let targets: VerifyTarget[];
  if (p.mode === 'range') {
    targets = p.rest.map((range) => ({ revs: ['--end-of-options', range], ...(p.task ? { task: p.task } : {}) }));
  } else {
    const stdin = fs.readFileSync(0, 'utf8');
    const known = (oid: string): boolean => {
      try { execFileSync('git', ['cat-file', '-e', `${oid}^{commit}`], { cwd, stdio: 'ignore' }); return true; } catch { return false; }
    };
    targets = p.mode === 'pre-push' ? prePushTargets(stdin, known, p.all) : preReceiveTargets(stdin, p.all);
  }
  const report = await verifyTargets(cwd, targets, keys);
  for (const bad of report.bad) process.stderr.write(`verify: ${bad.commit} ${JSON.stringify(bad.subject)}: ${bad.reason}\n`);
  if (report.bad.length > 0) {
    process.stderr.write(`verify: ${report.bad.length} of ${report.checked} commit(s) lack a valid approval; refused\n`);
    return 1;
  }
  process.stdout.write(`verify: ok ${report.checked} commit(s)\n`);
  return 0;
});
