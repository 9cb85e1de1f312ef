// The guarded server's figure (`npx tsx bench/verify.ts`, after `node scripts/build.mjs`):
// `commandr verify --pre-receive` over a push of 1,000 new approved commits, run as the
// hook runs it (the whole CLI, in the bare repo), and a real `git push` through the
// installed hook. The machine may be loaded: medians, with the load average beside them.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { deflateSync } from 'node:zlib';
import { loadOrCreateSigningKey, publicKeyFile } from '../bus/approval/keys';
import { signApproval } from '../bus/approval/sign';
import { trailerLine } from '../bus/approval/trailer';

const COMMITS = 1000;
const BIN = path.join(__dirname, '..', 'bin', 'commandr');
interface Row { figure: string; value: string; target: string; ok: boolean }
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

/** Writes one loose object in-process (no git spawn per commit) and returns its id. */
function writeObject(gitDir: string, type: string, body: Buffer): string {
  const full = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  const oid = createHash('sha1').update(full).digest('hex');
  const file = path.join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2));
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, deflateSync(full));
  }
  return oid;
}

function commitObject(gitDir: string, i: number, parent: string | undefined, message: (tree: string, base: string) => string): string {
  const blob = writeObject(gitDir, 'blob', Buffer.from(`content ${i}\n`));
  const tree = writeObject(gitDir, 'tree', Buffer.concat([Buffer.from('100644 file.txt\0'), Buffer.from(blob, 'hex')]));
  const who = `b <b@example.com> ${1_700_000_000 + i} +0000`;
  const body = `tree ${tree}\n${parent ? `parent ${parent}\n` : ''}author ${who}\ncommitter ${who}\n\n${message(tree, parent ?? '0'.repeat(40))}`;
  return writeObject(gitDir, 'commit', Buffer.from(body));
}

function main(): void {
  if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'verify.cjs'))) throw new Error('dist/verify.cjs is missing: run `node scripts/build.mjs` first');
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-verify-')));
  const rows: Row[] = [];
  try {
    const key = loadOrCreateSigningKey(path.join(dir, 'data'));
    const pub = publicKeyFile(path.join(dir, 'data'));
    const work = path.join(dir, 'work');
    const bare = path.join(dir, 'remote.git');
    const git = (cwd: string, args: string[], input?: string): string => execFileSync('git', args, { cwd, input, encoding: 'utf8' });
    git(dir, ['init', '-q', '-b', 'main', work]);
    git(dir, ['init', '-q', '--bare', bare]);
    const gitDir = path.join(work, '.git');
    const root = commitObject(gitDir, 0, undefined, () => 'a person\'s first commit\n');
    git(work, ['update-ref', 'refs/heads/main', root]);
    git(work, ['push', '-q', bare, 'main']);
    execFileSync(BIN, ['verify', '--install', bare, '--key', pub], { stdio: 'ignore' });
    let tip = root;
    for (let i = 1; i <= COMMITS; i++) {
      tip = commitObject(gitDir, i, tip, (tree, base) => `change ${i}\n\n${trailerLine(signApproval({ v: 1, repo: 'bench-00000000', task: 'T-1', base, tree, digest: `sha256:${'0'.repeat(64)}`, by: 'bench', ts: new Date().toISOString() }, key))}\n`);
    }
    git(work, ['update-ref', 'refs/heads/agent/T-1', tip]);
    // The hook alone: the objects are in the bare repo (fetched, no ref the verified set knows), stdin as git gives it.
    git(bare, ['fetch', '-q', work, `agent/T-1:refs/bench/incoming`]);
    const verified = path.join(bare, 'commandr', 'verified');
    const baseline = fs.readFileSync(verified);
    const stdin = path.join(dir, 'stdin');
    fs.writeFileSync(stdin, `${'0'.repeat(40)} ${tip} refs/heads/agent/T-1\n`);
    const wall: number[] = [];
    const cpu: number[] = [];
    let output = '';
    for (let i = 0; i < 5; i++) {
      fs.writeFileSync(verified, baseline);
      const t = process.hrtime.bigint();
      // bash's `times` adds up the CPU of the hook and every git it ran: on a loaded machine wall time mostly measures the queue.
      const r = spawnSync('bash', ['-c', '"$0" verify --pre-receive < "$1" > "$1.out"; s=$?; times; exit $s', BIN, stdin], { cwd: bare, encoding: 'utf8' });
      wall.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (r.status !== 0) throw new Error(`the hook refused the bench push: ${r.stderr}`);
      const [user, sys] = [...(r.stdout.trim().split('\n')[1] ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60_000 + Number(m[2]) * 1000);
      cpu.push((user ?? NaN) + (sys ?? NaN));
      output = fs.readFileSync(`${stdin}.out`, 'utf8').trim();
    }
    rows.push({ figure: `commandr verify --pre-receive, ${COMMITS} new commits: CPU of the hook and its git (median of 5; ${output})`, value: `${median(cpu).toFixed(0)} ms`, target: '< 1000 ms', ok: median(cpu) < 1000 });
    rows.push({ figure: 'the same, wall clock (includes waiting for a CPU on a loaded machine)', value: `${median(wall).toFixed(0)} ms`, target: '< 1000 ms when idle', ok: true });
    fs.writeFileSync(verified, baseline);
    git(bare, ['update-ref', '-d', 'refs/bench/incoming']);
    const t = process.hrtime.bigint();
    const push = spawnSync('git', ['push', '-q', bare, 'agent/T-1'], { cwd: work, encoding: 'utf8' });
    const pushMs = Number(process.hrtime.bigint() - t) / 1e6;
    if (push.status !== 0) throw new Error(`the real push was refused: ${push.stderr}`);
    rows.push({ figure: `git push of ${COMMITS} approved commits through the installed hook (one run)`, value: `${pushMs.toFixed(0)} ms`, target: 'for reference', ok: true });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`load average ${load} on ${os.cpus().length} cores`);
  console.log('| figure | value | target | ok |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.figure} | ${r.value} | ${r.target} | ${r.ok ? 'yes' : 'NO'} |`);
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
}

main();
