// The OS sandbox itself (SANDBOX-n), with real bubblewrap and real processes: a data dir with a
// stand-in approval key, a real repo with its bus and a task worktree under the data dir, as the
// relay lays them out. Each refusal is paired with the same command outside the sandbox
// succeeding, so the test fails if the sandbox stops doing its part.
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSupport, type SandboxSpec } from '../../adapters/sandbox';
import { runInside } from './run-inside';

const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

let tmp: string;
let spec: SandboxSpec;
let key: string;
let tlsKey: string;

/** Runs a bash script inside the sandbox; async, so servers in this process keep answering. */
const inside = (script: string) => runInside(spec, script);

async function outside(script: string): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run('bash', ['-c', script], { cwd: spec.cwd });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code?: number; stdout?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '' };
  }
}

beforeAll(() => {
  expect(sandboxSupport()).toMatchObject({ ok: true, kind: 'bwrap' });
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-')));
  const dataDir = path.join(tmp, 'data');
  key = path.join(dataDir, 'approval', 'private.pem');
  fs.mkdirSync(path.dirname(key), { recursive: true });
  fs.writeFileSync(key, 'THE-APPROVAL-KEY\n', { mode: 0o600 });
  const repo = path.join(tmp, 'repo');
  fs.mkdirSync(path.join(repo, '.agents'), { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init');
  const worktree = path.join(dataDir, 'worktrees', 'r1', 'T-1');
  git(repo, 'worktree', 'add', '-q', '-b', 'agent/T-1', worktree);
  tlsKey = path.join(tmp, 'tls', 'key.pem');
  fs.mkdirSync(path.dirname(tlsKey));
  fs.writeFileSync(tlsKey, 'THE-TLS-KEY\n', { mode: 0o600 });
  spec = { cwd: worktree, repo, gitCommonDir: path.join(repo, '.git'), dataDir, hidden: [tlsKey] };
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the OS sandbox (bwrap)', () => {
  it('SANDBOX-1: the data dir is hidden: the approval key cannot be read, directly or through /proc/self/root or /proc/1/root; a named secret outside it neither', async () => {
    // Outside, /proc/<relay pid>/root is the way in that /proc/1/root would be inside.
    for (const [p, control] of [[key, key], [`/proc/self/root${key}`, `/proc/self/root${key}`], [`/proc/1/root${key}`, `/proc/${process.pid}/root${key}`]] as const) {
      expect((await outside(`cat ${control}`)).stdout).toContain('THE-APPROVAL-KEY');
      const r = await inside(`cat ${p}`);
      expect(r.code).not.toBe(0);
      expect(r.stdout).not.toContain('THE-APPROVAL-KEY');
    }
    // A secret named outside the data dir (the relay's --tls-key) reads as empty.
    expect((await outside(`cat ${tlsKey}`)).stdout).toContain('THE-TLS-KEY');
    expect((await inside(`cat ${tlsKey}`)).stdout).not.toContain('THE-TLS-KEY');
    // Nothing of the data dir is listed either, except the worktree bound back.
    expect((await inside(`find ${spec.dataDir} -type f`)).stdout.trim()).not.toContain('private.pem');
  });

  it('SANDBOX-2: the relay and every other process outside are invisible: a fresh /proc in its own pid namespace', async () => {
    expect((await outside(`test -d /proc/${process.pid} && echo seen`)).stdout).toContain('seen');
    const r = await inside(`test -d /proc/${process.pid} && echo seen || echo hidden; cat /proc/${process.pid}/root${key} 2>&1 || true`);
    expect(r.stdout).toContain('hidden');
    expect(r.stdout).not.toContain('THE-APPROVAL-KEY');
  });

  it('SANDBOX-3: .git/hooks, .git/config and .agents/approvals are read-only; the worktree is writable and git commit works', async () => {
    const gitDir = spec.gitCommonDir!;
    const approvals = path.join(spec.repo!, '.agents', 'approvals');
    for (const target of [path.join(gitDir, 'hooks', 'pre-commit'), path.join(approvals, 'T-1.token')]) {
      const r = await inside(`echo x > ${target}`);
      expect(r.code, target).not.toBe(0);
      expect(r.stderr).toMatch(/Read-only file system/);
      expect(fs.existsSync(target)).toBe(false);
    }
    const before = fs.readFileSync(path.join(gitDir, 'config'), 'utf8');
    const r = await inside(`git config core.hooksPath /tmp/evil; echo '[core]' >> ${path.join(gitDir, 'config')}`);
    expect(r.stderr).toMatch(/Read-only file system|could not lock config file/);
    expect(fs.readFileSync(path.join(gitDir, 'config'), 'utf8')).toBe(before);
    const commit = await inside('echo work > done.txt && git add done.txt && git -c user.name=a -c user.email=a@a commit -q -m work && git log -1 --format=%s');
    expect(commit.stderr).not.toMatch(/fatal|error/i); // a read-only HOME may make the shell's tools warn (pyenv)
    expect(commit.stdout.trim()).toBe('work');
    expect(git(spec.repo!, 'log', '-1', '--format=%s', 'agent/T-1')).toBe('work');
  });

  it('SANDBOX-17: a read-only path is not walked around by renaming the directory above it and making a new one in its place', async () => {
    const agents = path.join(spec.repo!, '.agents');
    const forged = path.join(agents, 'approvals', 'T-1.approved');
    // The mount of .agents/approvals would move with a renamed .agents (measured: the write then lands).
    const r = await inside(`cd ${spec.repo}; mv .agents .agents-moved && mkdir -p .agents/approvals && : > .agents/approvals/T-1.approved && echo walked-around`);
    expect(r.stdout).not.toContain('walked-around');
    expect(r.stderr).toMatch(/busy|Read-only file system/i);
    expect(fs.existsSync(forged)).toBe(false);
    expect(fs.existsSync(path.join(spec.repo!, '.agents-moved'))).toBe(false);
    // Nor removed and made again; the bus itself stays writable.
    const again = await inside(`cd ${spec.repo}; rm -rf .agents; mkdir -p .agents/approvals; : > .agents/approvals/T-1.approved; : > .agents/mine && echo bus-writable`);
    expect(again.stdout).toContain('bus-writable');
    expect(fs.existsSync(forged)).toBe(false);
    expect(fs.existsSync(path.join(agents, 'mine'))).toBe(true);
    const out = await outside(`cd ${spec.repo}; mv .agents .agents-moved && mv .agents-moved .agents && echo renamed`);
    expect(out.stdout).toContain('renamed'); // outside, the same rename works
  });

  it('SANDBOX-4: loopback is shared: a server on the host\'s 127.0.0.1 answers bash /dev/tcp inside, and COMMANDR_SANDBOX says where it runs', async () => {
    const server = http.createServer((_req, res) => res.end('relay-here'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const r = await inside(`echo "sandbox=$COMMANDR_SANDBOX"; exec 3<>/dev/tcp/127.0.0.1/${port}; printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3; cat <&3`);
      expect(r.stdout).toContain('sandbox=bwrap');
      expect(r.stdout).toContain('relay-here');
    } finally {
      server.close();
    }
  });
});
