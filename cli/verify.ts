// `commandr verify`: checks that commits carry a valid relay-signed approval for exactly
// their own change (VERIFY-n, RVERIFY-n). Ways in: a range or branch from a person or CI,
// the `pre-push` hook `commandr init` installs, a guarded server repo's `pre-receive`,
// and `--install`, which guards a server repo. Exit 1 names every bad commit.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultDataDir, publicKeyFile, readVerifyingKey } from '../bus/approval/keys';
import { installGuard } from '../bus/approval/install';
import { gitDirOf, verifyReceive } from '../bus/approval/receive';
import { keysDir, signersFile } from '../bus/approval/verified-set';
import { parsePrePush, type Trust, verifyWalk, type VerifyReport } from '../bus/approval/verify';
import { prePushWalk, rangeWalk } from '../bus/approval/walks';
import { BusError } from '../bus/errors';
import { trustEnv } from '../bus/gate';
import { gitSync } from '../bus/git/run';
import { isTaskId } from '../protocol/bus/ids';
import { runTool, UsageError } from './_shared/tool';

const USAGE = [
  'usage: commandr verify [--key <public.pem>]… [--task <id>] [--allow-signers <file>] <base..head | branch>…   check every new commit',
  '       commandr verify [--key …] --range <base..head>                    (the same; for CI)',
  '       commandr verify --install <server repo> [--key <public.pem>]… [--allow-signers <file>]   guard a server repo',
  '       commandr verify --pre-receive                                     (the hook --install writes; refs on stdin)',
  '       commandr verify [--key …] [--all-refs] --pre-push <remote> [<url>]   (the pre-push hook; refs on stdin)',
  'keys: --key, else git config commandr.approvalKey (may repeat), else $COMMANDR_HOME/approval/public.pem;',
  '      a guarded repo\'s pre-receive trusts only <git dir>/commandr/keys/*.pem (and allowed_signers).',
  'a branch alone is checked against the default branch (init.defaultBranch, origin/HEAD, main, master).',
].join('\n');

type Mode = 'range' | 'pre-push' | 'pre-receive' | 'install';
interface Parsed { keys: string[]; task?: string; signers?: string; all: boolean; mode: Mode; rest: string[] }

function parse(args: string[]): Parsed {
  const p: Parsed = { keys: [], all: false, mode: 'range', rest: [] };
  const setMode = (m: Mode): void => {
    if (p.mode !== 'range') throw new UsageError(`--${m} and --${p.mode} do not go together`);
    p.mode = m;
  };
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
    } else if (a === '--allow-signers') p.signers = path.resolve(value());
    else if (a === '--all-branches' || a === '--all-refs') p.all = true;
    else if (a === '--range') p.rest.push(value());
    else if (a === '--pre-push') setMode('pre-push');
    else if (a === '--pre-receive') setMode('pre-receive');
    else if (a === '--install') { setMode('install'); p.rest.push(value()); }
    else if (a === '--') p.rest.push(...args.splice(i + 1));
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else p.rest.push(a);
  }
  if (p.mode === 'range' && p.rest.length === 0) throw new UsageError('name a range or a branch, e.g. main..agent/T-1 or agent/T-1');
  if (p.mode === 'pre-push' && p.rest.length === 0) throw new UsageError('--pre-push needs the remote name git passes');
  if (p.mode === 'install' && p.rest.length !== 1) throw new UsageError('--install takes one repository');
  return p;
}

function configuredKeys(cwd: string): string[] {
  try {
    // Config files only: a pusher's `git -c`/GIT_CONFIG_* never chooses the trusted key (VERIFY-4).
    const out = gitSync(['config', '--path', '--get-all', 'commandr.approvalKey'], { cwd, env: trustEnv(process.env) }).toString('utf8');
    return out.split('\n').filter((l) => l !== '').map((f) => path.resolve(cwd, f));
  } catch {
    return [];
  }
}

const localKeyFiles = (p: Parsed, cwd: string): string[] => {
  const files = p.keys.length > 0 ? p.keys : configuredKeys(cwd);
  return files.length > 0 ? files.map((f) => path.resolve(f)) : [publicKeyFile(defaultDataDir())];
};

/** A guarded repo trusts only what its administrator installed in it, unless --key/--allow-signers say otherwise. */
function guardTrust(p: Parsed, gitDir: string): Trust {
  let files = p.keys;
  if (files.length === 0) {
    const dir = keysDir(gitDir);
    files = (fs.existsSync(dir) ? fs.readdirSync(dir) : []).filter((f) => f.endsWith('.pem')).sort().map((f) => path.join(dir, f));
    if (files.length === 0) throw new BusError('E_NOT_FOUND', `no trusted key in ${dir}: run \`commandr verify --install ${gitDir} --key <relay public.pem>\``);
  }
  const signers = p.signers ?? (fs.existsSync(signersFile(gitDir)) ? signersFile(gitDir) : undefined);
  return { keys: files.map(readVerifyingKey), ...(signers ? { signers } : {}) };
}

function printBad(report: VerifyReport): number {
  for (const bad of report.bad) process.stderr.write(`verify: ${bad.commit} ${JSON.stringify(bad.subject)} on ${bad.ref}: ${bad.reason}\n`);
  if (report.bad.length > 0) {
    process.stderr.write(`verify: ${report.bad.length} of ${report.checked} commit(s) lack a valid approval; refused\n`);
    return 1;
  }
  process.stdout.write(`verify: ok ${report.checked} commit(s)\n`);
  return 0;
}

/** Is this push made from an agent's worktree (its task in the environment or its branch checked out)? */
function agentContext(cwd: string): boolean {
  if ((process.env.AGENTS_TASK_ID ?? '').trim() !== '') return true;
  try {
    return /^refs\/heads\/agent\//.test(gitSync(['symbolic-ref', '-q', 'HEAD'], { cwd }).toString('utf8').trim());
  } catch {
    return false;
  }
}

runTool('verify', USAGE, async (args) => {
  const p = parse(args);
  const cwd = process.cwd();
  if (p.mode === 'install') {
    const done = await installGuard(path.resolve(p.rest[0]!), {
      bin: path.resolve(__dirname, '..', 'bin', 'commandr'), node: process.execPath, keyFiles: localKeyFiles(p, cwd), ...(p.signers ? { signers: p.signers } : {}),
    });
    process.stdout.write(`verify: guarded ${done.gitDir}: hook ${done.hook}, ${done.keys.length} key(s), ${done.signers ? 'allowed signers ' + done.signers + ', ' : 'no allowed signers (every commit needs an approval), '}${done.baseline} commit(s) in the baseline\n`);
    return 0;
  }
  if (p.mode === 'pre-receive') {
    const gitDir = await gitDirOf(cwd);
    const outcome = await verifyReceive(gitDir, fs.readFileSync(0, 'utf8'), guardTrust(p, gitDir));
    return printBad(outcome);
  }
  const trust: Trust = { keys: localKeyFiles(p, cwd).map(readVerifyingKey), ...(p.signers ? { signers: p.signers } : {}) };
  if (p.mode === 'pre-push') {
    const updates = parsePrePush(fs.readFileSync(0, 'utf8'));
    const walk = await prePushWalk(cwd, p.rest[1] ?? p.rest[0]!, updates, p.all || agentContext(cwd));
    return printBad(await verifyWalk(cwd, walk, trust));
  }
  const total: VerifyReport = { checked: 0, bad: [] };
  for (const spec of p.rest) {
    const range = await rangeWalk(cwd, spec, p.task);
    if (range.defaultBase) process.stdout.write(`verify: checking ${range.base}..${range.head} (${range.base} is this repo's default branch)\n`);
    const report = await verifyWalk(cwd, range.walk, trust);
    total.checked += report.checked;
    total.bad.push(...report.bad);
  }
  return printBad(total);
});
