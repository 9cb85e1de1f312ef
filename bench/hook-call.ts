// What the hooks of a Claude Code tool call cost, each started alone (issue 32, HOOKCOST-n): the
// PreToolUse permission hook (`hooks/permission`: sh → bash `permission-fast` → relay `POST
// /api/permissions/check`; `permission-fast` alone is the hook as wire installs it, HOOK-10) and the
// PostToolUse report (`hooks/report` → `POST /api/hooks/report`, through its shebang and by bash's path),
// and those of the turn's end (`report Stop` / `report SessionEnd`, whose bus part the relay runs
// before it answers, ORDER-1), against a real relay in this process, beside the floors: a process
// that only reads stdin (`dd`), a bash that does (`bash -c 'cat >/dev/null'`), and sh starting that
// bash (the permission hook's double start). The hooks of a git revision (argument 2, default the
// one before HOOKCOST) run beside the working tree's, alternating, so load hits both alike.
// A turn's end as `claude -p` runs it — `Stop`, then at once `SessionEnd` of the same session — is
// timed as a pair, in this small repo and in one of 30,000 committed files, beside the same pair
// whose `SessionEnd` is another session's: the relay then runs a second `git status` (HOOK-2).
// `npx tsx bench/hook-call.ts [rounds=30] [base-rev]` prints medians and the load.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRelay } from '../relay/server';
import { makeBenchRepo, median, timed } from './lib/claude-turns';

const ROOT = path.resolve(__dirname, '..');
const HOOKS = 'adapters/claude/hooks';

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 30);
  const baseRev = process.argv[3] ?? 'e4f8219';
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-hook-call-')));
  const data = path.join(base, 'data');
  const home = path.join(base, 'home');
  fs.mkdirSync(home);
  // The base revision's hooks, in a tree of their own (only the fast paths run: checked below).
  const old = path.join(base, 'old');
  fs.mkdirSync(old);
  execFileSync('sh', ['-c', `git -C "$0" archive "$1" ${HOOKS} | tar -x -C "$2"`, ROOT, baseRev, old]);
  const relay = await createRelay({ port: 0, host: '127.0.0.1', demo: false, repos: [], dataDir: data, registryFile: path.join(base, 'none'), appDir: path.join(base, 'no-app') });
  try {
    const repo = makeBenchRepo(base, 'r');
    execFileSync(path.join(ROOT, 'adapters', 'claude', 'wire'), [repo], { stdio: 'ignore' });
    const env = { PATH: process.env.PATH, HOME: home, COMMANDR_HOME: data, AGENTS_TASK_ID: 'T-bench', CLAUDE_PROJECT_DIR: repo, PWD: repo } as unknown as NodeJS.ProcessEnv;
    const call = { session_id: 's1', transcript_path: '/x', cwd: repo, tool_name: 'Bash', tool_input: { command: 'echo hi' }, tool_use_id: 'tu1' };
    const pre = JSON.stringify({ ...call, hook_event_name: 'PreToolUse' });
    const post = JSON.stringify({ ...call, hook_event_name: 'PostToolUse', tool_response: { stdout: 'hi', stderr: '', interrupted: false } });
    const stop = JSON.stringify({ session_id: 's1', transcript_path: '/x', cwd: repo, hook_event_name: 'Stop', stop_hook_active: false });
    const end = JSON.stringify({ session_id: 's1', transcript_path: '/x', cwd: repo, hook_event_name: 'SessionEnd', reason: 'other' });
    // A repository of 30,000 committed files (300 directories of 100), wired the same way.
    const large = makeBenchRepo(base, 'large');
    for (let d = 0; d < 300; d++) {
      fs.mkdirSync(path.join(large, `d${d}`));
      for (let f = 0; f < 100; f++) fs.writeFileSync(path.join(large, `d${d}`, `f${f}.txt`), `${d} ${f}\n`);
    }
    execFileSync('git', ['add', '-A'], { cwd: large });
    execFileSync('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'user.name=b', '-c', 'user.email=b@example.com', 'commit', '-q', '-m', 'files'], { cwd: large });
    execFileSync(path.join(ROOT, 'adapters', 'claude', 'wire'), [large], { stdio: 'ignore' });
    // The pair: `report Stop` then `report SessionEnd`, each fed its payload from a file, from one sh.
    let pairs = 0;
    const turnEnd = (dir: string, name: string, sameSession: boolean) => {
      const n = ++pairs;
      const stopFile = path.join(base, `stop-${n}.json`);
      const endFile = path.join(base, `end-${n}.json`);
      fs.writeFileSync(stopFile, JSON.stringify({ session_id: `pair-${n}`, transcript_path: '/x', cwd: dir, hook_event_name: 'Stop', stop_hook_active: false }));
      fs.writeFileSync(endFile, JSON.stringify({ session_id: sameSession ? `pair-${n}` : `pair-${n}-other`, transcript_path: '/x', cwd: dir, hook_event_name: 'SessionEnd', reason: 'other' }));
      const hooks = path.join(ROOT, HOOKS);
      return {
        name, cmd: 'sh', input: '', check: notSpooled,
        args: ['-c', '"$0" Stop "$1" <"$2" && "$0" SessionEnd "$3" <"$4"', path.join(hooks, 'report'), path.join(hooks, 'stop'), stopFile, path.join(hooks, 'session-end'), endFile],
        cwd: dir, env: { ...env, CLAUDE_PROJECT_DIR: dir, PWD: dir },
      };
    };
    const notSpooled = () => !fs.existsSync(path.join(data, 'hook-state', 'spool')) || fs.readdirSync(path.join(data, 'hook-state', 'spool')).length === 0;
    const variants: { name: string; cmd: string; args: string[]; input: string; check?: (out: string) => boolean; cwd?: string; env?: NodeJS.ProcessEnv }[] = [
      { name: 'no-op (dd)', cmd: '/bin/dd', args: ['of=/dev/null', 'status=none'], input: pre },
      { name: "bash -c 'cat >/dev/null'", cmd: 'bash', args: ['-c', 'cat >/dev/null'], input: pre },
      { name: 'sh → exec bash (cat)', cmd: 'sh', args: ['-c', "exec bash -c 'cat >/dev/null'"], input: pre },
      ...(['before', 'now'] as const).flatMap((when) => {
        const dir = when === 'now' ? path.join(ROOT, HOOKS) : path.join(old, HOOKS);
        return [
          { name: `permission (${when})`, cmd: path.join(dir, 'permission'), args: [], input: pre, check: (out: string) => out.includes('"permissionDecision":"allow"') },
          { name: `permission-fast (${when})`, cmd: 'bash', args: [path.join(dir, 'permission-fast')], input: pre, check: (out: string) => out.includes('"permissionDecision":"allow"') },
          { name: `report PostToolUse (${when})`, cmd: path.join(dir, 'report'), args: ['PostToolUse'], input: post, check: notSpooled },
          // As wire installs them (HOOK-10): bash by its path, the script its first argument.
          ...(when === 'now' ? [
            { name: '  … by bash\'s path (HOOK-10)', cmd: 'bash', args: [path.join(dir, 'report'), 'PostToolUse'], input: post, check: notSpooled },
          ] : []),
          // The turn's end: the relay does the bus part (ORDER-1) before it answers.
          ...(when === 'now' ? [
            { name: `report Stop (${when})`, cmd: path.join(dir, 'report'), args: ['Stop', path.join(dir, 'stop')], input: stop, check: notSpooled },
            { name: `report SessionEnd (${when})`, cmd: path.join(dir, 'report'), args: ['SessionEnd', path.join(dir, 'session-end')], input: end, check: notSpooled },
          ] : []),
        ];
      }),
      turnEnd(repo, 'turn end: Stop + SessionEnd', true),
      turnEnd(repo, "  … the end another session's", false),
      turnEnd(large, 'turn end, 30,000 files', true),
      turnEnd(large, "  … the end another session's ", false),
    ];
    // Each hook answers on its fast path (the relay's decision; the report is not spooled). Spawned
    // asynchronously: the relay runs in this process and must go on answering meanwhile.
    for (const v of variants) {
      const r = await output(v.cmd, v.args, v.cwd ?? repo, v.env ?? env, v.input);
      if (r.code !== 0 || (v.check && !v.check(r.out))) throw new Error(`${v.name}: not its fast path (exit ${r.code}): ${r.out}`);
    }
    const times = new Map(variants.map((v) => [v.name, [] as number[]]));
    const loads: number[] = [];
    for (let i = 0; i < rounds; i++) {
      for (const v of i % 2 ? [...variants].reverse() : variants) times.get(v.name)!.push(await timed(v.cmd, v.args, v.cwd ?? repo, v.env ?? env, v.input));
      loads.push(os.loadavg()[0]!);
    }
    const bash = median(times.get("bash -c 'cat >/dev/null'")!);
    console.log(`hook cost, ${rounds} rounds alternating; base ${baseRev}; load (1 min) ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}, ${os.cpus().length} cores`);
    console.log(`${'variant'.padEnd(32)}${'median ms'.padStart(10)}${'min ms'.padStart(9)}${'over bash'.padStart(11)}`);
    for (const v of variants) {
      const t = times.get(v.name)!;
      console.log(`${v.name.padEnd(32)}${median(t).toFixed(1).padStart(10)}${Math.min(...t).toFixed(1).padStart(9)}${(median(t) - bash).toFixed(1).padStart(11)}`);
    }
  } finally {
    await relay.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

function output(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, input: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
    child.stdin.end(input);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
